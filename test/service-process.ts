import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { connect, freePort, type Sql, startEmbeddedDatabase } from '../runtime/database.ts';
import { createLogger } from '../runtime/logger.ts';
import { serverProcesses } from '../runtime/postmaster.ts';
import { provisionWorkspace } from '../subgraphs/team/index.ts';

const repoRoot = path.resolve(import.meta.dirname, '..');

/** Earshot as `npm start` runs it, in a process group of its own. */
export interface ServiceProcess {
  child: ChildProcess;
  /** The JSON log line that says the process serves. */
  ready: Promise<Record<string, unknown>>;
  exited: Promise<number | null>;
  stderr(): string;
  stdout(): string;
  /** Every JSON log line so far. */
  logLines(): Record<string, any>[];
}

const started: { service: ServiceProcess; dataDir?: string }[] = [];

/** `npm start -- …args` as an operator runs it, with only the given database and address settings. */
export function npmStart(args: string[], env: Record<string, string>): ServiceProcess {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => name !== 'DATABASE_URL' && !name.startsWith('EARSHOT_') && name !== 'PORT'),
  );
  const child = spawn('npm', ['start', ...(args.length ? ['--', ...args] : [])], {
    cwd: repoRoot,
    // The live Bluesky stream would reach the real network from a test.
    env: { ...inherited, EARSHOT_BLUESKY_LIVE: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stderr = '';
  let stdout = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const logLines = () =>
    stderr
      .split('\n')
      .slice(0, -1)
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line));
  const ready = new Promise<Record<string, unknown>>((resolve, reject) => {
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      // Only whole lines: a chunk may end in the middle of one.
      const line = logLines().find((entry) => /\bready\b/.test(entry.message));
      if (line) resolve(line);
    });
    void exited.then((code) => reject(new Error(`npm start exited with ${code} before it was ready:\n${stderr}`)));
  });
  // Whoever awaits `ready` sees the failure; an unawaited one must not fail the run on its own.
  ready.catch(() => {});
  const service = { child, ready, exited, stderr: () => stderr, stdout: () => stdout, logLines };
  started.push({ service, dataDir: env.EARSHOT_DATA_DIR });
  return service;
}

/** The PID of the embedded PostgreSQL server of a data directory, from its `postmaster.pid`; undefined when there is none. */
export async function postmasterPid(dataDir: string): Promise<number | undefined> {
  const text = await readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').catch(() => undefined);
  return text ? Number(text.split('\n')[0]) : undefined;
}

export { isAlive } from '../runtime/postmaster.ts';

/**
 * Stops every process of a PostgreSQL server where it stands. A backend or
 * worker that exited between the listing and its signal has nothing left
 * to freeze, so it is left out of the processes returned.
 */
export async function freezePostgres(dataDir: string): Promise<number[]> {
  const frozen: number[] = [];
  for (const pid of await serverProcesses((await postmasterPid(dataDir))!)) {
    try {
      process.kill(pid, 'SIGSTOP');
      frozen.push(pid);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
  }
  return frozen;
}

/**
 * A failed test must not leave servers (or their PostgreSQL) behind: each
 * runs in a process group of its own, and so does the embedded PostgreSQL
 * it starts; both groups go.
 */
export async function killStartedServices(): Promise<void> {
  for (const { service, dataDir } of started.splice(0)) {
    const groups = [service.child.pid!, ...(dataDir ? [await postmasterPid(dataDir)] : [])];
    for (const group of groups) {
      try {
        if (group) process.kill(-group, 'SIGKILL');
      } catch {
        // The group has already exited.
      }
    }
  }
}

/** A fresh data directory and a free port for one service, and the directory's removal. */
export async function serviceSettings(): Promise<{ dataDir: string; port: number; remove(): Promise<void> }> {
  // A directory as `mktemp -d` makes it (0700): as root, Earshot must let
  // the postgres user that embedded PostgreSQL runs as enter it.
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'earshot-service-'));
  return { dataDir, port: await freePort(), remove: () => rm(dataDir, { recursive: true, force: true }) };
}

/** A connection to a running service's embedded PostgreSQL, found as the CLI finds it. */
export async function serviceDatabase(dataDir: string): Promise<Sql> {
  const { url } = await startEmbeddedDatabase(dataDir, createLogger('silent'));
  return connect(url, { max: 2 });
}

/** A workspace and its first key in a running service, as `earshot workspace create` makes them. */
export async function createServiceWorkspace(dataDir: string, name = 'Outage test'): Promise<{ workspace: { id: string }; apiKey: string }> {
  const sql = await serviceDatabase(dataDir);
  try {
    return await provisionWorkspace(sql, name);
  } finally {
    await sql.end();
  }
}
