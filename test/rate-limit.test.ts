import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { leasedCounter, sparePlaces } from '../gateway/plugins/use-rate-limit.ts';
import { startTestEarshot, type TestEarshot } from './harness.ts';

const limit = 5;
let earshot: TestEarshot;
let secondProcess: TestEarshot;

beforeAll(async () => {
  earshot = await startTestEarshot({ rateLimitPerMinute: limit });
  secondProcess = await startTestEarshot({ rateLimitPerMinute: limit }, { databaseUrl: earshot.databaseUrl });
});
afterAll(async () => {
  await secondProcess?.stop();
  await earshot?.stop();
});

// Budgets are per calendar minute: a test that straddles one would see its count reset (the longest here takes about 15 s on a busy machine).
beforeEach(async () => {
  const second = new Date().getUTCSeconds() + new Date().getUTCMilliseconds() / 1000;
  if (second > 45) await new Promise((resolve) => setTimeout(resolve, (60.5 - second) * 1000));
});

const crossSubgraphQuery = '{ whoami { workspace { name wallet { balanceCents } } } }';

function rateLimitHeaders(headers: Headers) {
  return {
    limit: headers.get('x-ratelimit-limit'),
    remaining: headers.get('x-ratelimit-remaining'),
    reset: Number(headers.get('x-ratelimit-reset')),
  };
}

function expectRateLimited(response: { status: number; headers: Headers; body: any }) {
  expect(response.status).toBe(429);
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(response.body).toEqual({
    error: {
      code: 'rate_limited',
      message: expect.any(String),
      requestId: response.headers.get('x-request-id'),
      retryAfterSeconds: retryAfter,
    },
  });
  expect(rateLimitHeaders(response.headers)).toMatchObject({ limit: String(limit), remaining: '0' });
}

describe('rate limit', () => {
  it('puts X-RateLimit-* on every authenticated response, Remaining counting down by one per request', async () => {
    const { apiKey } = await earshot.createWorkspace();
    const seen = [];
    for (let i = 0; i < limit; i++) {
      const response = await earshot.rest('GET', '/v1/whoami', { key: apiKey });
      expect(response.status).toBe(200);
      seen.push(rateLimitHeaders(response.headers));
    }
    expect(seen.map(({ limit, remaining }) => ({ limit, remaining }))).toEqual(
      [4, 3, 2, 1, 0].map((remaining) => ({ limit: String(limit), remaining: String(remaining) })),
    );
    for (const { reset } of seen) {
      expect(reset).toBeGreaterThanOrEqual(1);
      expect(reset).toBeLessThanOrEqual(60);
    }
  });

  it('puts them on authenticated error responses too', async () => {
    const { apiKey } = await earshot.createWorkspace();
    const readKey = (await earshot.rest('POST', '/v1/api-keys', { key: apiKey, body: { name: 'Reader', scope: 'read' } })).body.key;
    const readOnly = await earshot.rest('POST', '/v1/api-keys', { key: readKey, body: { name: 'Refused' } });
    expect(readOnly.status).toBe(403);
    const missing = await earshot.rest('DELETE', '/v1/api-keys/key_missing', { key: apiKey });
    expect(missing.status).toBe(404);
    expect([readOnly, missing].map((response) => rateLimitHeaders(response.headers).remaining)).toEqual(['3', '2']);
  });

  it('answers the request over the budget with 429 rate_limited, Retry-After mirrored in retryAfterSeconds', async () => {
    const { apiKey } = await earshot.createWorkspace();
    for (let i = 0; i < limit; i++) expect((await earshot.rest('GET', '/v1/api-keys', { key: apiKey })).status).toBe(200);
    expectRateLimited(await earshot.rest('GET', '/v1/api-keys', { key: apiKey }));
    expectRateLimited(await earshot.rest('POST', '/v1/api-keys', { key: apiKey, body: { name: 'Too late' } }));

    const overGraphQL = await earshot.graphql(crossSubgraphQuery, {}, apiKey);
    expect(overGraphQL.status).toBe(429);
    expect(overGraphQL.body.errors).toEqual([
      {
        message: expect.any(String),
        extensions: { code: 'rate_limited', retryAfterSeconds: Number(overGraphQL.headers.get('retry-after')), requestId: overGraphQL.headers.get('x-request-id') },
      },
    ]);
    expect((await earshot.sql`select name from api_keys where name = 'Too late'`).length).toBe(0);
  });

  it('leaves public routes uncounted and without rate-limit headers', async () => {
    const { apiKey } = await earshot.createWorkspace();
    const health = await earshot.rest('GET', '/v1/health', { key: apiKey });
    expect(health.status).toBe(200);
    expect(health.headers.get('x-ratelimit-limit')).toBeNull();
    const first = await earshot.rest('GET', '/v1/whoami', { key: apiKey });
    expect(rateLimitHeaders(first.headers).remaining).toBe(String(limit - 1));
  });

  it('draws REST and GraphQL from one budget, counting a request once however many subgraphs it reaches', async () => {
    const { apiKey } = await earshot.createWorkspace();
    const remaining: (string | null)[] = [];
    const rest = async () => remaining.push(rateLimitHeaders((await earshot.rest('GET', '/v1/whoami', { key: apiKey })).headers).remaining);
    const graphql = async () => remaining.push(rateLimitHeaders((await earshot.graphql(crossSubgraphQuery, {}, apiKey)).headers).remaining);
    const malformed = async () =>
      remaining.push(rateLimitHeaders((await earshot.rest('POST', '/v1/api-keys', { key: apiKey, body: '{' })).headers).remaining);
    await rest();
    await graphql();
    await malformed();
    await graphql();
    await rest();
    expect(remaining).toEqual(['4', '3', '2', '1', '0']);
    expectRateLimited(await earshot.rest('GET', '/v1/whoami', { key: apiKey }));
  });

  it('shares one budget between two processes on the same database', async () => {
    const { apiKey } = await earshot.createWorkspace();
    const remaining: (string | null)[] = [];
    for (let i = 0; i < limit; i++) {
      const process = i % 2 === 0 ? earshot : secondProcess;
      remaining.push(rateLimitHeaders((await process.rest('GET', '/v1/whoami', { key: apiKey })).headers).remaining);
    }
    expect(remaining).toEqual(['4', '3', '2', '1', '0']);
    expectRateLimited(await secondProcess.rest('GET', '/v1/whoami', { key: apiKey }));
    expectRateLimited(await earshot.rest('GET', '/v1/whoami', { key: apiKey }));
  });

  it('counts a burst of concurrent requests exactly, across two processes: each request its own place in the count', async () => {
    const { workspace, apiKey } = await earshot.createWorkspace();
    const responses = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 3 === 0 ? secondProcess : earshot).rest('GET', '/v1/whoami', { key: apiKey })));
    const served = responses.filter((response) => response.status === 200);
    expect(served.map((response) => rateLimitHeaders(response.headers).remaining).sort()).toEqual(['0', '1', '2', '3', '4']);
    for (const response of responses.filter((response) => response.status !== 200)) expectRateLimited(response);
    const [{ used }] = await earshot.sql<{ used: number }[]>`select used from request_budgets where workspace_id = ${workspace.id}`;
    expect(used).toBe(12);
  });

  it('leaves other workspaces their own budget', async () => {
    const spent = await earshot.createWorkspace('Spent');
    const fresh = await earshot.createWorkspace('Fresh');
    for (let i = 0; i < limit; i++) await earshot.rest('GET', '/v1/whoami', { key: spent.apiKey });
    expectRateLimited(await earshot.rest('GET', '/v1/whoami', { key: spent.apiKey }));

    const other = await earshot.rest('GET', '/v1/whoami', { key: fresh.apiKey });
    expect(other.status).toBe(200);
    expect(other.body.workspace).toEqual({ id: fresh.workspace.id, name: 'Fresh' });
    expect(rateLimitHeaders(other.headers).remaining).toBe(String(limit - 1));
  });
});

describe('rate limit counted in blocks', () => {
  const budget = 100;
  let first: TestEarshot;
  let second: TestEarshot;
  beforeAll(async () => {
    first = await startTestEarshot({ rateLimitPerMinute: budget });
    second = await startTestEarshot({ rateLimitPerMinute: budget }, { databaseUrl: first.databaseUrl });
  });
  afterAll(async () => {
    await second?.stop();
    await first?.stop();
  });
  it('never serves more than the budget across processes, and refuses early by no more than the places the other process claimed and left unused', async () => {
    const { workspace, apiKey } = await first.createWorkspace();
    const ask = (process: TestEarshot) => process.graphql('{ __typename }', {}, apiKey);
    // The first process claims places ahead once it has seen the count: 15 requests make claims of 1, 10 and 9 places, 5 left unused. The second then spends the rest.
    let served = 0;
    for (let i = 0; i < 15; i++) if ((await ask(first)).status === 200) served++;
    let refused = 0;
    while (refused === 0) {
      const answer = await ask(second);
      if (answer.status === 200) served++;
      else {
        expect(answer.status).toBe(429);
        refused++;
      }
    }
    const [{ used }] = await first.sql<{ used: number }[]>`select used from request_budgets where workspace_id = ${workspace.id}`;
    const leftUnused = used - served - refused;
    expect(served).toBeLessThanOrEqual(budget);
    expect(leftUnused).toBeGreaterThan(0);
    expect(served).toBe(budget - leftUnused);
    expect(leftUnused).toBeLessThanOrEqual(sparePlaces(budget));
    // The first process still has its places: it serves them, and then no more.
    for (let i = 0; i < leftUnused; i++) expect((await ask(first)).status).toBe(200);
    expect((await ask(first)).status).toBe(429);
  });
});


describe('rate limit claims under a busy event loop', () => {
  it('takes a count whose answer came while the event loop was kept busy past the claim deadline, instead of refusing it 503', async () => {
    // The answer comes 200 ms after the statement is sent; the loop is then held for 3.5 s, past the 3 s a claim may take, as a burst of a thousand subscriptions holds it.
    const count = leasedCounter(600, (_workspaceId, requests) =>
      earshot.sql<{ used: number; windowStart: Date }[]>`select ${requests}::int as used, date_trunc('minute', now()) as window_start, pg_sleep(0.2)`.then(([row]) => ({
        used: row.used,
        windowStart: row.windowStart,
      })),
    );
    const claimed = count('ws_busy_loop');
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Held in the check phase, so that the loop's next turn runs its due timers before it reads any socket.
    await new Promise<void>((resolve) =>
      setImmediate(() => {
        const heldUntil = Date.now() + 3_500;
        while (Date.now() < heldUntil);
        resolve();
      }),
    );
    await expect(claimed).resolves.toEqual({ used: 1, windowStart: expect.any(Date) });
  });
});
