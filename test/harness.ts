import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { connectorSourceReaders } from '../jobs/connectors/source-readers.ts';
import { type Clock, systemClock } from '../runtime/clock.ts';
import { type EarshotConfig, readConfig } from '../runtime/config.ts';
import { connect, freePort, type Sql } from '../runtime/database.ts';
import { createLogger, type Logger } from '../runtime/logger.ts';
import { migrate } from '../runtime/migrate.ts';
import { secretBox } from '../runtime/secret-box.ts';
import { type Role, type RunningEarshot, startEarshot } from '../server/start.ts';
import { keywordDirectory } from '../subgraphs/keywords/index.ts';
import { provisionWorkspace } from '../subgraphs/team/workspace-provisioning.ts';
import { reviewPlatforms, searchPlatforms } from '../vocabulary/normalized-post.ts';

/** Every connector pointed at a closed port: the look-back of a new keyword finds nothing, so only seeded matches count. */
export const unreachableUpstreams = Object.fromEntries(
  [...searchPlatforms, ...reviewPlatforms, 'reddit_auth'].map((name) => [`EARSHOT_UPSTREAM_${name.toUpperCase()}`, 'http://127.0.0.1:9']),
);

/** The secrets key of every Earshot a test starts, in process or as a child (unless the test gives another). */
export const testSecretsKey = randomBytes(32);
/** Seals and opens with that key, for tests that write or read sealed rows themselves. */
export const testSecrets = secretBox(testSecretsKey, 'the test run\'s key');
/** The key as a child process's environment gives it. */
export const testSecretsEnv = { EARSHOT_SECRETS_KEY: testSecretsKey.toString('base64') };

/** What `serveSubgraph` takes besides a subgraph's name, schema, database, secret and log, for a test serving one subgraph alone. */
export const loneSubgraphOptions = {
  clock: systemClock,
  sendJob: async () => null,
  env: {},
  secrets: testSecrets,
  sourceReaders: connectorSourceReaders({}),
  keywordDirectory,
  pollIntervalSeconds: 300,
};

/**
 * A database of its own on the run's embedded PostgreSQL: a copy of the
 * migrated template, or empty when a test migrates it itself.
 */
export async function createTestDatabase(options: { empty?: boolean } = {}): Promise<string> {
  const adminUrl = inject('adminDatabaseUrl');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = connect(adminUrl, { max: 1 });
  await admin.unsafe(options.empty ? `create database ${name}` : `create database ${name} template ${inject('templateDatabase')}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export function testConfig(databaseUrl: string, overrides: Partial<EarshotConfig> = {}): EarshotConfig {
  return { ...readConfig({}), databaseUrl, port: 0, host: '127.0.0.1', logLevel: 'silent', blueskyLive: false, secretsKey: testSecretsKey, ...overrides };
}

export interface TestEarshot extends RunningEarshot {
  databaseUrl: string;
  /** A new workspace and its first write key, as the CLI makes them. */
  createWorkspace(name?: string): Promise<{ workspace: { id: string; name: string }; apiKey: string }>;
  rest(method: string, path: string, options?: { key?: string; body?: unknown; headers?: Record<string, string> }): Promise<RestResponse>;
  graphql(query: string, variables?: Record<string, unknown>, key?: string): Promise<{ status: number; headers: Headers; body: any }>;
  subscribe(key: string): Client;
}

export interface RestResponse {
  status: number;
  headers: Headers;
  body: any;
}

/** Earshot on its own database and a free port, as `npm start` runs it (or one role of it); silent unless given a `log`. */
export async function startTestEarshot(
  overrides: Partial<EarshotConfig> = {},
  options: { role?: Role; databaseUrl?: string; clock?: Clock; log?: Logger } = {},
): Promise<TestEarshot> {
  const databaseUrl = options.databaseUrl ?? (await createTestDatabase());
  const log = options.log ?? createLogger('silent');
  const running = await startEarshot(testConfig(databaseUrl, overrides), options.role ?? 'all', log, { clock: options.clock });
  return {
    ...running,
    databaseUrl,
    createWorkspace: (name = 'Test workspace') => provisionWorkspace(running.sql, name),
    async rest(method, path, { key, body, headers = {} } = {}) {
      const response = await fetch(running.url + path, {
        method,
        headers: {
          ...(key ? { authorization: `Bearer ${key}` } : {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await response.text();
      // A CSV export answers text; everything else JSON.
      const json = /json/.test(response.headers.get('content-type') ?? 'application/json');
      return { status: response.status, headers: response.headers, body: text ? (json ? JSON.parse(text) : text) : undefined };
    },
    async graphql(query, variables = {}, key) {
      const response = await fetch(`${running.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
        body: JSON.stringify({ query, variables }),
      });
      return { status: response.status, headers: response.headers, body: await response.json() };
    },
    subscribe(key) {
      return createClient({
        url: `${running.url.replace('http', 'ws')}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: { authorization: `Bearer ${key}` },
        retryAttempts: 0,
      });
    },
  };
}

/** A logger that keeps its lines, parsed, for tests that assert what was logged. */
export function recordingLogger(): { log: Logger; lines: Record<string, any>[] } {
  const lines: Record<string, any>[] = [];
  return { log: createLogger('debug', { write: (line) => void lines.push(JSON.parse(line)) }), lines };
}

/** A migrated test database and a connection to it, for store-level tests. */
export async function openTestDatabase(): Promise<{ url: string; sql: Sql }> {
  const url = await createTestDatabase();
  const sql = connect(url);
  await migrate(sql);
  return { url, sql };
}

/** The `n` of a `select count(*)::int as n …` statement. */
export async function countOf(query: Promise<{ n: number }[]>): Promise<number> {
  return (await query)[0].n;
}

/** Reads until `done` says yes or the time is up, then returns the last read: for work that jobs finish in the background. */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Waits until at least `count` connections of this database wait for a lock: a request a test holds up has reached the row it holds. */
export async function waitersOnLocks(sql: Sql, count: number): Promise<number> {
  return eventually(
    () => countOf(sql<{ n: number }[]>`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`),
    (n) => n >= count,
    10_000,
  );
}

/**
 * A request asked again while it answers 503, as its Retry-After says: on a
 * machine shared by several test runs a request can outlast the request
 * deadline, or a worker in the same process can hold the event loop while it
 * loads the classifier's models, which is not what these tests are about.
 */
export async function patiently<T extends { status: number }>(send: () => Promise<T>, timeoutMs = 20_000): Promise<T> {
  return eventually(send, (answer) => answer.status !== 503, timeoutMs);
}

/**
 * Earshot on a port chosen before it starts, for settings that must name
 * it (the OAuth issuer's public URL): another process may take a free port
 * before Earshot listens on it, and then another one is chosen.
 */
export async function startTestEarshotOnPort(
  overridesFor: (port: number) => Partial<EarshotConfig>,
  options: Parameters<typeof startTestEarshot>[1] = {},
): Promise<{ earshot: TestEarshot; port: number }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      return { earshot: await startTestEarshot({ ...overridesFor(port), port }, options), port };
    } catch (error) {
      if ((error as { code?: string }).code !== 'EADDRINUSE' || attempt === 5) throw error;
    }
  }
}

/** Every mention of a keyword, relevant or not: scoring may move one between the two lists while a test waits. */
export async function allMentionsOf(earshot: TestEarshot, key: string, keywordId: string): Promise<any[]> {
  const list = async (relevant: boolean): Promise<any[]> => {
    const answer = await patiently(() => earshot.rest('GET', `/v1/mentions?relevant=${relevant}&keywordId=${keywordId}&limit=100`, { key }));
    if (answer.status !== 200) throw new Error(`GET /v1/mentions answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    return answer.body.data;
  };
  const [rest, relevant] = await Promise.all([list(false), list(true)]);
  // An unscored mention is listed under relevant=false; scored relevant between the two reads it shows in both, and its scored copy is the newer.
  const byId = new Map<string, any>();
  for (const mention of [...rest, ...relevant]) byId.set(mention.id, mention);
  return [...byId.values()];
}
