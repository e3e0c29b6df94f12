import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { billingTickQueue } from '../jobs/billing-tick/index.ts';
import { z } from 'zod';
import type { JobContext, JobDefinition } from '../jobs/job-definition.ts';
import { startJobQueue } from '../jobs/job-queue.ts';
import { manualClock, systemClock } from '../runtime/clock.ts';
import { connect, type Sql } from '../runtime/database.ts';
import { createLogger } from '../runtime/logger.ts';
import { runDailyTicksThrough, turnCapPeriodsThrough } from '../subgraphs/billing/index.ts';
import { ledgerBalanceMismatches } from '../subgraphs/billing/ledger-store.ts';
import { syncKeywordPolls } from '../subgraphs/keywords/index.ts';
import { storeMatchedPostsUnlinked } from '../subgraphs/mentions/index.ts';
import { addKeywords, chargeMentions, eventsOf, keywordRow, newWorkspace } from './billing-seed.ts';
import { hackerNewsStory, type HackerNewsHit, startFakeHackerNews } from './fake-upstreams/hackernews.ts';
import type { FakeUpstream } from './fake-upstreams/fake-server.ts';
import { countOf, createTestDatabase, eventually, patiently, startTestEarshot, testSecrets, testSecretsEnv } from './harness.ts';
import { startService, stopRunningServices, stopService } from './killable-service.ts';
import { killStartedServices, npmStart, serviceSettings } from './service-process.ts';
import { creditWalletByOperator } from '../subgraphs/billing/credits.ts';
import { keywordDirectory } from '../subgraphs/keywords/index.ts';
import { createAlertRule } from '../subgraphs/mentions/index.ts';
import { createChannel } from '../subgraphs/team/index.ts';
import { startWebhookReceiver, type WebhookReceiver } from './fake-upstreams/webhook-receiver.ts';

const pools: Sql[] = [];
const upstreams: FakeUpstream[] = [];
const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
  await stopRunningServices();
  await killStartedServices();
  await Promise.all(upstreams.splice(0).map((upstream) => upstream.close()));
});
afterAll(() => Promise.all(pools.map((pool) => pool.end())));

async function database(): Promise<{ url: string; sql: Sql }> {
  const url = await createTestDatabase();
  const sql = connect(url, { max: 4 });
  pools.push(sql);
  return { url, sql };
}

/** Looks every 20 ms: the moments these tests kill at last a fraction of a second. */
async function until(done: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error('the moment to kill at never came');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

/** `count` Hacker News stories naming `term`, all of the last hour. */
function storiesNaming(term: string, count: number, firstId: number): HackerNewsHit[] {
  return Array.from({ length: count }, (_, i) =>
    hackerNewsStory({ id: firstId + i, title: `Show HN: ${term} number ${i}, a tool we built`, createdAt: minutesAgo(1 + (i % 50)) }),
  );
}

/** A workspace past its welcome credit (no welcome cap) with one keyword polled on Hacker News. */
async function watchedTerm(sql: Sql, term: string): Promise<{ workspaceId: string; keywordId: string }> {
  const { workspaceId } = await newWorkspace(sql, 'Crash test');
  await creditWalletByOperator(sql, { workspaceId, cents: 50_000, at: new Date() });
  const [keyword] = await addKeywords(sql, workspaceId, 1, { term, platforms: ['hackernews'] });
  // Due at once, as the look-back of a keyword created through the API leaves it.
  await syncKeywordPolls(sql, keyword.id, ['hackernews'], new Date());
  return { workspaceId, keywordId: keyword.id };
}


/** What must hold after any crash: no post twice, every mention charged once, no charge without its mention, wallets equal to their ledgers. */
async function expectBooksBalanced(sql: Sql) {
  expect(await countOf(sql`select count(*)::int as n from (select platform, external_id from posts group by 1, 2 having count(*) > 1) twice`)).toBe(0);
  expect(await countOf(sql`select count(*)::int as n from mentions m where not exists (select 1 from ledger_entries l where l.idempotency_key = 'mention:' || m.id)`)).toBe(0);
  expect(await countOf(sql`select count(*)::int as n from ledger_entries l where l.kind = 'mention' and not exists (select 1 from mentions m where 'mention:' || m.id = l.idempotency_key)`)).toBe(0);
  expect(await ledgerBalanceMismatches(sql)).toEqual([]);
}

// Each case starts the service twice as its own process (tsx compiles it each time: seconds on a busy 2-core machine).
describe('after kill -9', { timeout: 120_000 }, () => {
  it('scores every stored mention within 60 s of the restart, those stored with no scoring job included, and loses, doubles or bills nothing wrongly', async () => {
    const { url, sql } = await database();
    const { workspaceId, keywordId } = await watchedTerm(sql, 'Quokkadex');
    const hits = storiesNaming('Quokkadex', 600, 10_000);
    const hackerNews = await startFakeHackerNews({ hits });
    upstreams.push(hackerNews);

    const first = await startService(url, { ...testSecretsEnv, EARSHOT_UPSTREAM_HACKERNEWS: hackerNews.url });
    // The moment the issue names: right after the first batch of mentions committed, before scoring.
    await until(async () => (await countOf(sql`select count(*)::int as n from mentions`)) > 0, 60_000);
    await stopService(first.child, 'SIGKILL');
    const atKill = await sql<{ stored: number; unscored: number }[]>`
      select count(*)::int as stored, (count(*) filter (where relevance is null))::int as unscored from mentions`;
    expect(atKill[0].unscored).toBeGreaterThan(0);
    // Stored, not scored, not charged: the restart's scoring charges them, once (expectBooksBalanced).
    expect(await countOf(sql`select count(*)::int as n from mentions m join ledger_entries l on l.idempotency_key = 'mention:' || m.id where m.relevance is null`)).toBe(0);

    // Mentions stored by a process that never sent their scoring jobs (an install from before they were sent with the mentions).
    const orphans = Array.from({ length: 30 }, (_, i) => ({
      post: {
        platform: 'hackernews' as const,
        externalId: `orphan-${i}`,
        url: `https://news.ycombinator.com/item?id=orphan-${i}`,
        text: `Quokkadex keeps crashing on startup, ${i}`,
        publishedAt: minutesAgo(90),
        replyTo: null,
        links: [],
        author: { platformId: 'someone', name: 'someone', handle: 'someone', url: 'https://news.ycombinator.com/user?id=someone', avatarUrl: null, followers: null },
      },
      matches: [{ keywordId, workspaceId, fuzzy: false }],
    }));
    await sql.begin((tx) => storeMatchedPostsUnlinked(tx, orphans));

    const restartedAt = Date.now();
    await startService(url, { ...testSecretsEnv, EARSHOT_UPSTREAM_HACKERNEWS: hackerNews.url });
    const settled = await eventually(
      () => sql<{ stored: number; unscored: number }[]>`select count(*)::int as stored, (count(*) filter (where relevance is null))::int as unscored from mentions`,
      ([state]) => state.stored === hits.length + orphans.length && state.unscored === 0,
      60_000 - (Date.now() - restartedAt),
    );
    expect(settled[0]).toEqual({ stored: hits.length + orphans.length, unscored: 0 });
    expect(Date.now() - restartedAt).toBeLessThan(60_000);
    await expectBooksBalanced(sql);
    expect(await countOf(sql`select count(*)::int as n from ledger_entries where kind = 'mention'`)).toBe(hits.length + orphans.length);
  });

  it('runs again within 60 s of the restart a job that was active in the killed process', async () => {
    const { url, sql } = await database();
    await watchedTerm(sql, 'Wombatique');
    const hits = storiesNaming('Wombatique', 40, 20_000);
    // The first search stalls far beyond the test: the poll job holding it stays active until the kill.
    const hackerNews = await startFakeHackerNews({ hits }, { slowMs: 600_000 });
    upstreams.push(hackerNews);
    hackerNews.failNext('slow');

    const first = await startService(url, { ...testSecretsEnv, EARSHOT_UPSTREAM_HACKERNEWS: hackerNews.url });
    const [active] = await eventually(
      () => sql<{ id: string }[]>`select j.id from pgboss.job j join job_claims c on c.job_id = j.id where j.name = 'poll' and j.state = 'active'`,
      (rows) => rows.length > 0,
      60_000,
    );
    await stopService(first.child, 'SIGKILL');

    const restartedAt = Date.now();
    await startService(url, { ...testSecretsEnv, EARSHOT_UPSTREAM_HACKERNEWS: hackerNews.url });
    const [job] = await eventually(
      () => sql<{ state: string; retryCount: number }[]>`select state, retry_count from pgboss.job where id = ${active.id}`,
      ([row]) => row.state === 'completed',
      60_000 - (Date.now() - restartedAt),
    );
    // Run again as if never started: a death of its worker spends none of the job's retries.
    expect(job).toEqual({ state: 'completed', retryCount: 0 });
    expect(Date.now() - restartedAt).toBeLessThan(60_000);
    expect(await countOf(sql`select count(*)::int as n from mentions`)).toBe(hits.length);
    expect(await countOf(sql`select count(*)::int as n from job_workers`)).toBe(1);
    // Charged as they are scored, after the poll that stored them.
    await eventually(() => countOf(sql`select count(*)::int as n from mentions where relevance is null`), (unscored) => unscored === 0, 30_000);
    await expectBooksBalanced(sql);
  });
});

describe('a webhook delivery under way at kill -9', { timeout: 180_000 }, () => {
  it('counts the attempt the kill cut short: sent again under the same id as attempt 2, and failed rather than sent a sixth time when it was the fifth', async () => {
    const { url, sql } = await database();
    const { workspaceId } = await watchedTerm(sql, 'Numbatix');
    const hackerNews = await startFakeHackerNews({ hits: storiesNaming('Numbatix', 1, 30_000) });
    upstreams.push(hackerNews);
    const [patient, failing] = [await startWebhookReceiver(), await startWebhookReceiver()];
    receivers.push(patient, failing);
    const hold = { status: 200, delayMs: 600_000 };
    // The first answers nothing until the kill; the second fails four times, then answers nothing. The 20 s time-out outlasts the four failures, so both wait at the kill.
    patient.answerNext(hold);
    failing.answerNext({ status: 500 }, { status: 500 }, { status: 500 }, { status: 500 }, hold);
    const channelIds: string[] = [];
    for (const receiver of [patient, failing]) {
      const channel = await createChannel(sql, testSecrets, workspaceId, { kind: 'webhook', url: receiver.url }, { EARSHOT_ALLOW_PRIVATE_URLS: '1' }, new Date());
      channelIds.push(channel.id);
    }
    await createAlertRule(sql, keywordDirectory, workspaceId, { name: 'Every mention', channelIds }, new Date());
    const env = { ...testSecretsEnv, EARSHOT_UPSTREAM_HACKERNEWS: hackerNews.url, EARSHOT_RETRY_DELAY_S: '1', EARSHOT_WEBHOOK_TIMEOUT_MS: '20000' };

    const first = await startService(url, env);
    await until(async () => patient.received.length === 1 && failing.received.length === 5, 90_000);
    await stopService(first.child, 'SIGKILL');

    await startService(url, env);
    const settled = await eventually(
      () => sql<{ channelId: string; status: string; attempts: number; attemptLog: { status: number | null; error: string | null }[] }[]>`
        select channel_id, status, attempts, attempt_log from deliveries order by array_position(${channelIds}::text[], channel_id)`,
      (rows) => rows.length === 2 && rows.every((row) => row.status !== 'pending'),
      90_000,
    );
    const cutShort = { status: null, error: 'no answer recorded: the sending process stopped during this attempt' };
    expect(settled.map(({ status, attempts, attemptLog }) => ({ status, attempts, attemptLog: attemptLog.map(({ status, error }) => ({ status, error })) }))).toEqual([
      { status: 'delivered', attempts: 2, attemptLog: [cutShort, { status: 200, error: null }] },
      { status: 'failed', attempts: 5, attemptLog: [...Array(4).fill({ status: 500, error: 'HTTP 500' }), cutShort] },
    ]);
    expect(failing.received).toHaveLength(5);
    const ids = (receiver: WebhookReceiver) => new Set(receiver.received.map((request) => request.headers['webhook-id']));
    expect([ids(patient).size, ids(failing).size]).toEqual([1, 1]);
  });
});

describe('a keyword created just before kill -9', { timeout: 180_000 }, () => {
  it('gets its look-back whenever it exists: the job commits with the keyword, never after it', async () => {
    const { url, sql } = await database();
    const { workspaceId, apiKey } = await newWorkspace(sql, 'Crash test');
    await creditWalletByOperator(sql, { workspaceId, cents: 50_000, at: new Date() });
    // Three days old: only a look-back reaches it.
    const hackerNews = await startFakeHackerNews({ hits: [hackerNewsStory({ id: 40_001, title: 'Ask HN: is Dingotron worth it for a small team?', createdAt: minutesAgo(3 * 24 * 60) })] });
    upstreams.push(hackerNews);
    const env = { ...testSecretsEnv, EARSHOT_UPSTREAM_HACKERNEWS: hackerNews.url };
    const create = (serviceUrl: string) =>
      fetch(`${serviceUrl}/v1/keywords`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ term: 'Dingotron', platforms: ['hackernews'] }),
      });
    const keywordIds = async () => (await sql<{ id: string }[]>`select id from keywords where term = 'Dingotron'`).map((row) => row.id);

    const first = await startService(url, env);
    // No job can be written while this lock is held: the create waits at its look-back, wherever that is sent.
    let release!: () => void;
    const locker = connect(url, { max: 1 });
    pools.push(locker);
    let locked!: () => void;
    const lockHeld = new Promise<void>((resolve) => (locked = resolve));
    const holding = locker.begin(async (tx) => {
      await tx`lock table pgboss.job in share mode`;
      locked();
      await new Promise<void>((resolve) => (release = resolve));
    });
    await lockHeld;
    create(first.url).catch(() => undefined);
    const postedAt = Date.now();
    await until(async () => (await keywordIds()).length > 0 || Date.now() - postedAt > 10_000, 30_000);
    await stopService(first.child, 'SIGKILL');
    release();
    await holding;

    const second = await startService(url, env);
    // The client got no answer: it asks again when the keyword is not there.
    if ((await keywordIds()).length === 0) expect((await patiently(() => create(second.url), 60_000)).status).toBe(201);
    const [keywordId] = await keywordIds();
    const stored = await eventually(
      () => sql<{ n: number }[]>`select count(*)::int as n from mentions where keyword_id = ${keywordId}`,
      ([row]) => row.n === 1,
      90_000,
    );
    expect(stored[0].n).toBe(1);
  });
});

describe('a keyword waiting for its look-back at kill -9', { timeout: 180_000 }, () => {
  // The wait was a job queued again every base interval: started after a restart, the keyword got its look-back only when the chain
  // next woke up (an hour here), beside a regular poll of the platform.
  it('gets it at once when it starts after the restart, with one search', async () => {
    const { url, sql } = await database();
    const { workspaceId, apiKey } = await newWorkspace(sql, 'Crash test');
    await creditWalletByOperator(sql, { workspaceId, cents: 50_000, at: new Date() });
    // Three days old: only a look-back reaches it.
    const hackerNews = await startFakeHackerNews({ hits: [hackerNewsStory({ id: 40_101, title: 'Numbatix ships its first release', createdAt: minutesAgo(3 * 24 * 60) })] });
    upstreams.push(hackerNews);
    // An hour between polls: within the test only a look-back searches.
    const env = { ...testSecretsEnv, EARSHOT_UPSTREAM_HACKERNEWS: hackerNews.url, EARSHOT_POLL_INTERVAL_S: '3600' };
    const write = (serviceUrl: string, method: string, path: string, body: unknown) =>
      patiently(() => fetch(`${serviceUrl}${path}`, { method, headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }));

    const first = await startService(url, env);
    const created = await (await write(first.url, 'POST', '/v1/keywords', { term: 'Numbatix', platforms: ['hackernews'], muted: true })).json();
    await stopService(first.child, 'SIGKILL');

    const second = await startService(url, env);
    expect((await write(second.url, 'PATCH', `/v1/keywords/${created.id}`, { muted: false })).status).toBe(200);
    const stored = await eventually(() => countOf(sql`select count(*)::int as n from mentions where keyword_id = ${created.id}`), (n) => n === 1, 60_000);
    expect(stored).toBe(1);
    expect(hackerNews.requests.filter((request) => request.query.get('query')?.includes('Numbatix'))).toHaveLength(1);
  });
});

describe('a job running when its process stops', () => {
  it('goes back to the queue unstarted when the stop closes its connections under it, spending none of its retries', async () => {
    const { url, sql: checked } = await database();
    const sql = connect(url, { max: 2 });
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    let finish!: () => void;
    const cutShort = new Promise<void>((resolve) => (finish = resolve));
    const interrupted: JobDefinition<{ n: number }> = {
      name: 'interrupted-by-stop',
      payload: z.object({ n: z.number() }),
      retryLimit: 1,
      async handle(_payloads, context) {
        started();
        await cutShort;
        await context.sql`select 1`;
      },
    };
    const log = createLogger('silent');
    const queue = await startJobQueue({ sql, databaseUrl: url, definitions: [interrupted], clock: systemClock, log, config: { pollIntervalSeconds: 300, env: {} }, secrets: testSecrets, work: true });
    const jobId = await queue.send('interrupted-by-stop', { n: 1 });
    await running;
    // As a stop that overran its share of time does: the queue still waits for the handler while the shared pool closes.
    const stopping = queue.stop();
    await sql.end();
    finish();
    await stopping;

    const [job] = await checked<{ state: string; retryCount: number; startedOn: Date | null; output: { message: string } }[]>`
      select state, retry_count, started_on, output from pgboss.job where id = ${jobId}`;
    expect(job).toEqual({ state: 'retry', retryCount: 0, startedOn: null, output: { message: 'released: its worker stopped while it ran' } });
  });
});

function jobContext(sql: Sql, clock: { now(): Date }): JobContext {
  return { sql, clock, log: createLogger('silent'), config: { pollIntervalSeconds: 300, env: {} }, secrets: testSecrets, send: async () => null };
}

const keywordDaysOf = (sql: Sql, keywordId: string) =>
  sql<{ day: string; times: number }[]>`
    select split_part(idempotency_key, ':', 3) as day, count(*)::int as times from ledger_entries
    where kind = 'keyword_day' and keyword_id = ${keywordId} group by 1 order by 1`;

describe('midnights missed while no worker ran', () => {
  it('are ticked and turned when a worker starts, once each, oldest first; a restart and the next scheduled run charge nothing twice', async () => {
    const { url, sql } = await database();
    const { workspaceId } = await newWorkspace(sql);
    // Past the welcome credit, so the keywords' own caps apply rather than the welcome cap.
    await creditWalletByOperator(sql, { workspaceId, cents: 2_000, at: new Date('2028-03-01T00:00:00Z') });
    const [plain, capped] = await addKeywords(sql, workspaceId, 2, { cap: { mentions: 2, per: 'day' } });
    await sql`update keywords set created_at = '2028-03-01T00:00:00Z' where workspace_id = ${workspaceId}`;
    // The last midnight a worker saw: 2028-03-07. The capped keyword reached its cap that day.
    await runDailyTicksThrough(sql, '2028-03-07', new Date('2028-03-07T00:00:00Z'));
    await turnCapPeriodsThrough(sql, new Date('2028-03-07T00:00:00Z'));
    await chargeMentions(sql, capped, 2, new Date('2028-03-07T10:00:00Z'));
    expect(await keywordRow(sql, capped.id)).toMatchObject({ pausedForCap: true });

    const clock = manualClock(new Date('2028-03-10T09:30:00Z'));
    const earshot = await startTestEarshot({}, { databaseUrl: url, clock });
    try {
      const days = ['2028-03-07', '2028-03-08', '2028-03-09', '2028-03-10'];
      for (const keyword of [plain, capped]) expect(await keywordDaysOf(sql, keyword.id)).toEqual(days.map((day) => ({ day, times: 1 })));
      expect(await sql`select kind, day::text from billing_schedule_runs order by kind, day`).toEqual(
        ['cap_turn', 'daily_tick'].flatMap((kind) => days.map((day) => ({ kind, day }))),
      );
      expect(await keywordRow(sql, capped.id)).toMatchObject({ pausedForCap: false });
      expect((await eventsOf(sql, workspaceId)).filter((event) => event.name === 'keyword.resumed')).toEqual([
        {
          name: 'keyword.resumed',
          data: { keyword: { id: capped.id, term: capped.term, kind: 'brand' }, reason: 'month_turned', resumedAt: '2028-03-08T00:00:00.000Z' },
        },
      ]);
    } finally {
      await earshot.stop();
    }

    const again = await startTestEarshot({}, { databaseUrl: url, clock });
    try {
      clock.set(new Date('2028-03-11T00:00:00Z'));
      await billingTickQueue.handle([{}], jobContext(sql, clock));
      for (const keyword of [plain, capped]) {
        expect(await keywordDaysOf(sql, keyword.id)).toEqual(['2028-03-07', '2028-03-08', '2028-03-09', '2028-03-10', '2028-03-11'].map((day) => ({ day, times: 1 })));
      }
      expect(await ledgerBalanceMismatches(sql)).toEqual([]);
    } finally {
      await again.stop();
    }
  });
});

describe('a very first npm start killed while it makes its database', () => {
  it('leaves nothing the next npm start trips on: that one makes the database again and serves', async () => {
    const { dataDir, port, remove } = await serviceSettings();
    try {
      const first = npmStart([], { PORT: String(port), EARSHOT_DATA_DIR: dataDir });
      // initdb has begun writing the cluster, and no credentials are kept yet.
      await until(async () => {
        const entries = await readdir(dataDir).catch(() => [] as string[]);
        return entries.some((entry) => entry.startsWith('pg') && existsSync(path.join(dataDir, entry, 'PG_VERSION')));
      }, 60_000);
      expect(existsSync(path.join(dataDir, 'connection.json'))).toBe(false);
      process.kill(-first.child.pid!, 'SIGKILL');
      await first.exited;

      const second = npmStart([], { PORT: String(port), EARSHOT_DATA_DIR: dataDir });
      expect(await second.ready).toMatchObject({ message: `Earshot all ready on port ${port}` });
      expect((await fetch(`http://127.0.0.1:${port}/v1/health`)).status).toBe(200);
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    } finally {
      await remove();
    }
  }, 120_000);
});
