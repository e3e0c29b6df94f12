import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

const repoRoot = path.resolve(import.meta.dirname, '..');
const running = new Set<ChildProcess>();

export interface KillableService {
  child: ChildProcess;
  /** Where its public port answers. */
  url: string;
}

/**
 * `npm start` as an operator runs it (main.ts, one process, node itself so
 * that a signal reaches the server and nothing between), on the given
 * database, polling every second, with `env` on top. Resolves once it logs
 * that it serves.
 */
export async function startService(databaseUrl: string, env: Record<string, string>): Promise<KillableService> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('EARSHOT_') && name !== 'DATABASE_URL'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'main.ts'], {
    cwd: repoRoot,
    env: {
      ...inherited,
      DATABASE_URL: databaseUrl,
      PORT: '0',
      HOST: '127.0.0.1',
      EARSHOT_LOG_LEVEL: 'info',
      EARSHOT_POLL_INTERVAL_S: '1',
      EARSHOT_BLUESKY_LIVE: '0',
      EARSHOT_ALLOW_PRIVATE_URLS: '1',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let log = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      log += chunk.toString('utf8');
      const ready = log.split('\n').find((line) => line.includes('Earshot all ready'));
      if (ready) resolve(String(JSON.parse(ready).url ?? ''));
    });
    child.once('exit', (code) => reject(new Error(`the service exited (${code}) before it was ready:\n${log}`)));
  });
  return { child, url };
}

/** Stops a service with `signal`, and with SIGKILL when it has not exited 15 s later. */
export async function stopService(child: ChildProcess, signal: 'SIGKILL' | 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  const stopped = await Promise.race([exited.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 15_000))]);
  if (!stopped) {
    child.kill('SIGKILL');
    await exited;
  }
}

/** Stops every service still running: what a test's `afterEach` calls. */
export async function stopRunningServices(): Promise<void> {
  for (const child of [...running]) await stopService(child, 'SIGTERM');
}
