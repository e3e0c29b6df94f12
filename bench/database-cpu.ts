import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks a second in /proc's figures (USER_HZ, 100 on every Linux the benchmarks run on). */
const TICKS_PER_SECOND = 100;

/**
 * CPU seconds used so far by the PostgreSQL server processes connected to
 * one database: each backend's title names its database. Beside the
 * worker's own `process.cpuUsage()` it gives the CPU time a stored mention
 * costs, which load from other processes stretches far less than wall time.
 * Null off Linux.
 */
export function databaseBackendCpuSeconds(databaseUrl: string): number | null {
  const database = new URL(databaseUrl).pathname.slice(1);
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/u.test(name));
  } catch {
    return null;
  }
  let ticks = 0;
  for (const pid of pids) {
    try {
      const title = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!title.startsWith('postgres: ') || !title.includes(` ${database} `)) continue;
      // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return ticks / TICKS_PER_SECOND;
}
