import { chmod, stat } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startEmbeddedDatabase } from '../runtime/database.ts';
import { createLogger } from '../runtime/logger.ts';
import { startPostmaster } from '../runtime/postmaster.ts';
import { startTestEarshot } from './harness.ts';
import {
  createServiceWorkspace,
  freezePostgres,
  killStartedServices,
  npmStart,
  postmasterPid,
  serviceDatabase,
  serviceSettings,
} from './service-process.ts';

interface Answer {
  status: number;
  ms: number;
  retryAfter: string | null;
  requestId: string | null;
  body: any;
}

/** One request, with how long its answer took. */
async function timedFetch(url: string, init: RequestInit = {}): Promise<Answer> {
  const started = Date.now();
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
  const text = await response.text();
  return {
    status: response.status,
    ms: Date.now() - started,
    retryAfter: response.headers.get('retry-after'),
    requestId: response.headers.get('x-request-id'),
    body: text ? JSON.parse(text) : undefined,
  };
}

/** What every request must get while the database is away (contract "database lost"). */
const unavailable = (answer: Answer, message: RegExp = /database/) => ({
  status: answer.status,
  retryAfter: answer.retryAfter,
  body: answer.body,
  quick: answer.ms < 5_000,
  expected: {
    status: 503,
    retryAfter: '5',
    body: { error: { code: 'service_unavailable', message: expect.stringMatching(message), requestId: answer.requestId, retryAfterSeconds: 5 } },
    quick: true,
  },
});

function expectUnavailable(answer: Answer, message?: RegExp) {
  const { expected, ...actual } = unavailable(answer, message);
  expect(actual).toEqual(expected);
}

/** What a tool call gets while the database is away: the 503 of every API, as a JSON-RPC error of the call. */
function expectMcpUnavailable(answer: Answer, id: number | null) {
  expect({ status: answer.status, retryAfter: answer.retryAfter, body: answer.body, quick: answer.ms < 5_000 }).toEqual({
    status: 503,
    retryAfter: '5',
    body: { jsonrpc: '2.0', id, error: { code: -32000, message: expect.stringMatching(/database/), data: { code: 'service_unavailable', requestId: answer.requestId, retryAfterSeconds: 5 } } },
    quick: true,
  });
}

const listKeywordsCall = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'list_keywords', arguments: {} } });

/** Asks until the answer is a 200 or the time is up; returns every answer on the way. */
async function untilOk(ask: () => Promise<Answer>, timeoutMs: number): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (const until = Date.now() + timeoutMs; Date.now() < until; await sleep(100)) {
    const answer = await ask();
    answers.push(answer);
    if (answer.status === 200) break;
  }
  return answers;
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(killStartedServices);
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

// Upstream addresses that refuse at once: the jobs a new keyword sends must not reach the real network.
const closedUpstreams = { EARSHOT_UPSTREAM_HACKERNEWS: 'http://127.0.0.1:9', EARSHOT_POLL_INTERVAL_S: '3600' };

describe('npm start when its embedded PostgreSQL is lost', () => {
  it('answers 503 with Retry-After while PostgreSQL is killed, restarts it, and serves again on its own, jobs included', async () => {
    const { dataDir, port, remove } = await serviceSettings();
    cleanups.push(remove);
    const service = npmStart([], { PORT: String(port), EARSHOT_DATA_DIR: dataDir, ...closedUpstreams });
    await service.ready;
    const base = `http://127.0.0.1:${port}`;
    const { apiKey } = await createServiceWorkspace(dataDir);
    const authorization = `Bearer ${apiKey}`;
    const whoami = () => timedFetch(`${base}/v1/whoami`, { headers: { authorization } });
    expect((await whoami()).status).toBe(200);

    // Killed, and kept from starting again for a few seconds (the postgres
    // user cannot enter its data directory), so the outage lasts long enough to look at.
    const pgDir = path.join(dataDir, 'pg');
    const { mode } = await stat(pgDir);
    await chmod(pgDir, 0);
    const killedAt = Date.now();
    process.kill((await postmasterPid(dataDir))!, 'SIGKILL');
    await sleep(1_000);

    // Once, under heavy load, this request was refused (ECONNREFUSED): the listener was gone. Should it happen again, say why.
    const during = await Promise.all([whoami(), timedFetch(`${base}/v1/keywords`, { headers: { authorization } })]).catch((error) => {
      const state = service.child.exitCode === null && service.child.signalCode === null ? 'still running' : `exited (${service.child.exitCode ?? service.child.signalCode})`;
      throw new Error(`${String(error)} ${String(error.cause ?? '')}; npm start is ${state}; the end of its log:\n${service.stderr().slice(-6000)}`);
    });
    const create = await timedFetch(`${base}/v1/keywords`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ term: 'lost database' }),
    });
    const health = await timedFetch(`${base}/v1/health`);
    for (const answer of [...during, create]) expectUnavailable(answer);
    expectUnavailable(health, /^The database is down: /);
    const graphql = await timedFetch(`${base}/graphql`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ whoami { workspace { id } } }' }),
    });
    expect({ status: graphql.status, code: graphql.body.errors?.[0]?.extensions?.code, quick: graphql.ms < 5_000 }).toEqual({
      status: 503,
      code: 'service_unavailable',
      quick: true,
    });

    await chmod(pgDir, mode);
    const recovery = await untilOk(whoami, 30_000);
    expect(recovery.at(-1)!.status).toBe(200);
    expect(Date.now() - killedAt).toBeLessThan(30_000);
    for (const answer of recovery.slice(0, -1)) expectUnavailable(answer);
    expect((await timedFetch(`${base}/v1/health`)).status).toBe(200);
    expect(service.logLines().map((line) => line.message)).toEqual(
      expect.arrayContaining(['embedded PostgreSQL is gone; starting it again', 'embedded PostgreSQL restarted', 'the database answers again']),
    );

    // The job workers (pg-boss, on a pool of their own) came back too: a new keyword's look-back runs.
    const created = await timedFetch(`${base}/v1/keywords`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ term: 'found database', platforms: ['hackernews'] }),
    });
    expect(created.status).toBe(201);
    const sql = await serviceDatabase(dataDir);
    try {
      let state: string | undefined;
      for (const until = Date.now() + 20_000; state !== 'completed' && Date.now() < until; await sleep(200)) {
        [{ state } = { state: undefined }] = await sql<{ state: string }[]>`
          select state from pgboss.job where name = 'lookback' and data->>'keywordId' = ${created.body.id}`;
      }
      expect(state).toBe('completed');
    } finally {
      await sql.end();
    }

    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
  }, 90_000);

  it('answers 503 within 5 s while PostgreSQL is frozen, and after it wakes serves again with no connection left in a broken state', async () => {
    const { dataDir, port, remove } = await serviceSettings();
    cleanups.push(remove);
    const service = npmStart([], { PORT: String(port), EARSHOT_DATA_DIR: dataDir, ...closedUpstreams });
    await service.ready;
    const base = `http://127.0.0.1:${port}`;
    const { apiKey } = await createServiceWorkspace(dataDir);
    const authorization = `Bearer ${apiKey}`;
    const headers = { authorization, 'content-type': 'application/json' };
    const createKeyword = (term: string) => timedFetch(`${base}/v1/keywords`, { method: 'POST', headers, body: JSON.stringify({ term, platforms: ['hackernews'] }) });
    expect((await createKeyword('before the freeze')).status).toBe(201);

    // Every process of the server stops, backends included: connections stay open, nothing answers.
    const postgres = await freezePostgres(dataDir);
    try {
      // A steady load meanwhile, reads and writes, as clients keep coming.
      let loading = true;
      const load = Array.from({ length: 4 }, async (_, worker) => {
        const answers: Answer[] = [];
        for (let i = 0; loading; i++) {
          answers.push(i % 2 ? await createKeyword(`frozen ${worker}-${i}`) : await timedFetch(`${base}/v1/keywords`, { headers }));
        }
        return answers;
      });
      await sleep(8_000);
      const health = await timedFetch(`${base}/v1/health`);
      const mcp = await timedFetch(`${base}/mcp`, {
        method: 'POST',
        headers: { ...headers, accept: 'application/json, text/event-stream' },
        body: listKeywordsCall(7),
      });
      loading = false;
      const answers = (await Promise.all(load)).flat();
      expect(answers.length).toBeGreaterThan(4);
      for (const answer of answers) expectUnavailable(answer);
      expectUnavailable(health, /^The database is down: /);
      // Whichever comes first, the route's own refusal (the call's id known) or the request deadline (not yet), it is the same 503, quick.
      expect(mcp.ms).toBeLessThan(5_000);
      expectMcpUnavailable(mcp, mcp.body?.id === null ? null : 7);
    } finally {
      for (const pid of postgres) process.kill(pid, 'SIGCONT');
    }

    const recovery = await untilOk(() => timedFetch(`${base}/v1/keywords`, { headers }), 20_000);
    expect(recovery.at(-1)!.status).toBe(200);
    // Writes after the freeze land, each seen by the next request whichever
    // connection of the pool serves it: none is stuck in a transaction
    // that a request of the freeze left open.
    for (let i = 0; i < 12; i++) {
      const created = await createKeyword(`after the freeze ${i}`);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const listed = await timedFetch(`${base}/v1/keywords?limit=100`, { headers });
      expect(listed.body.data.map((keyword: { term: string }) => keyword.term)).toContain(`after the freeze ${i}`);
    }
    // postgres.js's complaint about a transaction begun on a connection it did not reserve.
    expect(service.stderr()).not.toContain('Only use sql.begin');

    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
  }, 90_000);
});

describe('Earshot on DATABASE_URL when that server goes away', () => {
  it('answers 503 while it is down and reconnects when it is back', async () => {
    const { dataDir, remove } = await serviceSettings();
    cleanups.push(remove);
    const log = createLogger('silent');
    const external = await startEmbeddedDatabase(dataDir, log);
    cleanups.push(() => external.stop());
    const earshot = await startTestEarshot({}, { databaseUrl: external.url });
    cleanups.push(() => earshot.stop());
    const { apiKey } = await earshot.createWorkspace();
    expect((await earshot.rest('GET', '/v1/whoami', { key: apiKey })).status).toBe(200);

    await external.stop();
    const whoami = () => timedFetch(`${earshot.url}/v1/whoami`, { headers: { authorization: `Bearer ${apiKey}` } });
    expectUnavailable(await whoami());
    expectUnavailable(await timedFetch(`${earshot.url}/v1/health`), /^The database is down: /);
    // The key is known from the request before (cached), so the tool runs and its route meets the outage: the call is the same 503, not a tool's failure on a 200.
    const mcp = await timedFetch(`${earshot.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: listKeywordsCall(9),
    });
    expectMcpUnavailable(mcp, 9);

    // The same server, started again where it was.
    const port = Number(new URL(external.url).port);
    const restarted = await startPostmaster({ pgDir: path.join(dataDir, 'pg'), port, flags: ['-c', 'listen_addresses=127.0.0.1'] }, log);
    cleanups.push(() => restarted.stop());
    const recovery = await untilOk(whoami, 10_000);
    expect(recovery.at(-1)!.status).toBe(200);
    for (const answer of recovery.slice(0, -1)) expectUnavailable(answer);
  }, 60_000);
});

describe('Earshot on DATABASE_URL when that server is not up yet', () => {
  it('waits for it, saying so, and serves once it answers', async () => {
    const { dataDir, port, remove } = await serviceSettings();
    cleanups.push(remove);
    const log = createLogger('silent');
    // Made and stopped: a server that exists but is not running yet when Earshot starts.
    const external = await startEmbeddedDatabase(dataDir, log);
    const databasePort = Number(new URL(external.url).port);
    await external.stop();

    const service = npmStart([], { PORT: String(port), DATABASE_URL: external.url, ...closedUpstreams });
    const waiting = (line: Record<string, any>) => line.message === 'the database did not answer while starting; starting again in 2 s';
    for (const until = Date.now() + 60_000; !service.logLines().some(waiting) && Date.now() < until; ) await sleep(200);
    expect(service.logLines().filter(waiting)).toMatchObject([{ level: 'warn', error: expect.stringContaining('ECONNREFUSED') }]);
    // Still waiting a few tries later.
    await sleep(5_000);
    expect(service.child.exitCode).toBeNull();
    expect(service.logLines().filter(waiting).length).toBeGreaterThan(1);

    const restarted = await startPostmaster({ pgDir: path.join(dataDir, 'pg'), port: databasePort, flags: ['-c', 'listen_addresses=127.0.0.1'] }, log);
    cleanups.push(() => restarted.stop());
    await service.ready;
    expect((await timedFetch(`http://127.0.0.1:${port}/v1/health`)).status).toBe(200);
    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
  }, 150_000);
});
