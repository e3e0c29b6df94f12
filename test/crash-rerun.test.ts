import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { connect, type Sql } from '../runtime/database.ts';
import { billingDayOf, runDailyTicksThrough, turnCapPeriodsThrough } from '../subgraphs/billing/index.ts';
import { ledgerBalanceMismatches } from '../subgraphs/billing/ledger-store.ts';
import { creditWalletByOperator } from '../subgraphs/billing/credits.ts';
import { keywordDirectory, syncKeywordPolls } from '../subgraphs/keywords/index.ts';
import { createAlertRule } from '../subgraphs/mentions/index.ts';
import { createChannel } from '../subgraphs/team/index.ts';
import { addKeywords, chargeMentions, newWorkspace } from './billing-seed.ts';
import type { FakeUpstream } from './fake-upstreams/fake-server.ts';
import { hackerNewsComment, hackerNewsStory, type HackerNewsHit, startFakeHackerNews } from './fake-upstreams/hackernews.ts';
import { startWebhookReceiver, type WebhookReceiver } from './fake-upstreams/webhook-receiver.ts';
import { countOf, createTestDatabase, eventually, patiently, testSecrets, testSecretsEnv, unreachableUpstreams } from './harness.ts';
import { startService, stopRunningServices, stopService } from './killable-service.ts';

/**
 * Issue 17, part 1: SIGKILL a worker at random moments while every kind of
 * job has work (poll and store, look-back, scoring, comments, missed daily
 * ticks and cap period turns, instant alerts, a digest, account-event
 * deliveries), start it again, and check what must hold once it settles.
 * `npm test` runs it at scale 1; `npm run crash-rerun` at scale 10
 * (`EARSHOT_CRASH_SCALE`), with a random seed unless `EARSHOT_CRASH_SEED`
 * names one (the run prints it, so a failure can be replayed).
 */
const scale = Math.max(1, Number(process.env.EARSHOT_CRASH_SCALE ?? 1));
const seed = Number(process.env.EARSHOT_CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
const workspaces = 2 + scale;
const kills = 3 * scale;
const storiesPerTerm = 60 * scale;
const lookbackStories = 20;
const storiesWithComments = 5;
const commentsPerStory = 2;
/** The days the service missed before its first start: it charges and turns them when it starts. */
const missedDays = 5;

const dayMs = 86_400_000;
const pools: Sql[] = [];
const upstreams: FakeUpstream[] = [];
let receiver: WebhookReceiver | undefined;
afterEach(async () => {
  await stopRunningServices();
  await Promise.all(upstreams.splice(0).map((upstream) => upstream.close()));
  await receiver?.close();
});
afterAll(() => Promise.all(pools.map((pool) => pool.end())));

/** mulberry32: the kill moments follow from the printed seed. */
function randomFrom(state: number): () => number {
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);
const trackedTerm = (w: number) => `Quokkadex${w}`;
const lookbackTerm = (w: number) => `Wombatique${w}`;

/** Stories naming each workspace's tracked term (the first few with comments that do not name it) and older ones only a look-back reaches. */
function hackerNewsHits(): HackerNewsHit[] {
  const hits: HackerNewsHit[] = [];
  for (let w = 0; w < workspaces; w++) {
    for (let i = 0; i < storiesPerTerm; i++) {
      const id = 1_000_000 * (w + 1) + i;
      hits.push(hackerNewsStory({ id, title: `Show HN: ${trackedTerm(w)} number ${i}, a tool we built for our team`, createdAt: minutesAgo(40 + (i % 50)) }));
      if (i < storiesWithComments) {
        for (let c = 1; c <= commentsPerStory; c++) {
          hits.push(
            hackerNewsComment({
              id: id * 10 + c,
              storyId: id,
              parentId: id,
              createdAt: minutesAgo(30),
              text: `We tried this last week and the setup took about ten minutes, comment ${c} on story ${i}`,
            }),
          );
        }
      }
    }
    for (let i = 0; i < lookbackStories; i++) {
      hits.push(hackerNewsStory({ id: 900_000_000 + 1_000 * w + i, title: `Ask HN: is ${lookbackTerm(w)} ${i} worth using?`, createdAt: new Date(Date.now() - (2 + i) * dayMs) }));
    }
  }
  return hits;
}

interface SeededWorkspace {
  workspaceId: string;
  apiKey: string;
  trackedId: string;
  cappedId: string;
  instantRuleId: string;
  digestRuleId: string;
}

/**
 * Workspaces whose service last ran `missedDays + 1` days ago: each has a
 * tracked keyword due for its poll, a keyword that reached its daily cap
 * that day (the turn of the next day resumes it), and a webhook channel
 * with an instant alert rule, an hourly digest that is due, and a
 * subscription to account events.
 */
async function seedWorkspaces(sql: Sql): Promise<SeededWorkspace[]> {
  const lastRun = new Date(Date.now() - (missedDays + 1) * dayMs);
  const lastRunDay = billingDayOf(lastRun);
  const seeded: Omit<SeededWorkspace, 'instantRuleId' | 'digestRuleId'>[] = [];
  for (let w = 0; w < workspaces; w++) {
    const { workspaceId, apiKey } = await newWorkspace(sql, `Crash rerun ${w}`);
    // Past the welcome credit, so the keywords' own caps apply.
    await creditWalletByOperator(sql, { workspaceId, cents: 50_000, at: lastRun });
    const [tracked] = await addKeywords(sql, workspaceId, 1, { term: trackedTerm(w), platforms: ['hackernews'], comments: { enabled: true, maxPerPost: commentsPerStory } });
    const [capped] = await addKeywords(sql, workspaceId, 1, { term: `Nobodysays${w}`, platforms: ['hackernews'], cap: { mentions: 2, per: 'day' } });
    seeded.push({ workspaceId, apiKey, trackedId: tracked.id, cappedId: capped.id });
  }
  await sql`update keywords set created_at = ${new Date(lastRun.getTime() - dayMs)}`;
  await runDailyTicksThrough(sql, lastRunDay, lastRun);
  await turnCapPeriodsThrough(sql, lastRun);
  const full: SeededWorkspace[] = [];
  for (const workspace of seeded) {
    await chargeMentions(sql, { id: workspace.cappedId, workspaceId: workspace.workspaceId }, 2, lastRun);
    await syncKeywordPolls(sql, workspace.trackedId, ['hackernews'], new Date());
    const now = new Date();
    const channel = await createChannel(
      sql,
      testSecrets,
      workspace.workspaceId,
      { kind: 'webhook', url: receiver!.url, events: ['keyword.resumed', 'keyword.capped', 'wallet.low', 'wallet.paused'] },
      { EARSHOT_ALLOW_PRIVATE_URLS: '1' },
      now,
    );
    const instant = await createAlertRule(sql, keywordDirectory, workspace.workspaceId, { name: 'Every mention', channelIds: [channel.id], filter: { keywordIds: [workspace.trackedId] } }, now);
    const digest = await createAlertRule(sql, keywordDirectory, workspace.workspaceId, { name: 'Hourly', mode: 'hourly', channelIds: [channel.id] }, now);
    full.push({ ...workspace, instantRuleId: instant.id, digestRuleId: digest.id });
  }
  // Made and last run two hours ago: the digest is due at once.
  await sql`update alert_rules set created_at = now() - interval '2 hours', last_run_at = now() - interval '2 hours' where mode = 'hourly'`;
  return full;
}

/** What was under way at a kill: active jobs by queue, leased deliveries, days still to charge or turn. */
async function underWay(sql: Sql): Promise<string[]> {
  const jobs = await sql<{ name: string; n: number }[]>`
    select name, count(*)::int as n from pgboss.job where state = 'active' group by name order by name`;
  const [leased] = await sql<{ n: number }[]>`
    select count(*)::int as n from deliveries where status = 'pending' and next_attempt_at > now() + interval '5 seconds'`;
  const [pending] = await sql<{ n: number }[]>`select count(*)::int as n from deliveries where status = 'pending'`;
  const schedule = await sql<{ kind: string; day: string }[]>`select kind, max(day)::text as day from billing_schedule_runs group by kind`;
  const today = billingDayOf(new Date());
  return [
    ...jobs.map((job) => `${job.name} job`),
    ...(leased.n ? ['delivery in flight'] : pending.n ? ['delivery waiting'] : []),
    ...schedule.filter((run) => run.day < today).map((run) => (run.kind === 'daily_tick' ? 'daily tick catch-up' : 'cap turn catch-up')),
  ];
}

/** A request to the service, asked again while it answers 503. */
async function served(url: string, apiKey: string, init: { method?: string; body?: unknown } = {}): Promise<{ status: number; body: any; retried: boolean }> {
  let sent = 0;
  const answer = await patiently(async () => {
    sent++;
    const response = await fetch(url, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${apiKey}`, ...(init.body ? { 'content-type': 'application/json' } : {}) },
      body: init.body ? JSON.stringify(init.body) : undefined,
    });
    return { status: response.status, body: await response.json() };
  }, 60_000);
  return { ...answer, retried: sent > 1 };
}

/** Every relevant mention an alert rule's list shows, through every page. */
async function mentionsOfRule(url: string, apiKey: string, ruleId: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const { status, body } = await served(`${url}/v1/mentions?alertId=${ruleId}&limit=100${cursor ? `&cursor=${cursor}` : ''}`, apiKey);
    if (status !== 200) throw new Error(`GET /v1/mentions answered ${status}: ${JSON.stringify(body)}`);
    ids.push(...body.data.map((mention: { id: string }) => mention.id));
    cursor = body.nextCursor;
  } while (cursor);
  return ids.sort();
}

describe(`kill -9 at random moments (scale ${scale}, seed ${seed})`, { timeout: 300_000 + 60_000 * kills }, () => {
  it('stores every matched post once per keyword, charges each item and keyword-day once, delivers everything once under one id, and leaves no job behind', async () => {
    const random = randomFrom(seed);
    const url = await createTestDatabase();
    const sql = connect(url, { max: 4 });
    pools.push(sql);
    receiver = await startWebhookReceiver();
    const hackerNews = await startFakeHackerNews({ hits: hackerNewsHits() });
    upstreams.push(hackerNews);
    const seeded = await seedWorkspaces(sql);
    const env = { ...unreachableUpstreams, ...testSecretsEnv, EARSHOT_UPSTREAM_HACKERNEWS: hackerNews.url, EARSHOT_RETRY_DELAY_S: '1' };

    const killedDuring: string[][] = [];
    for (let round = 0; round < kills; round++) {
      const service = await startService(url, env);
      if (round === 0) {
        // Created through the API, so a look-back job goes out: the next kill may land in it.
        for (const [w, workspace] of seeded.entries()) {
          const created = await served(`${service.url}/v1/keywords`, workspace.apiKey, { method: 'POST', body: { term: lookbackTerm(w), platforms: ['hackernews'] } });
          // A create answered 503 may still have committed (the deadline answers, the transaction goes on): asked again, it is a duplicate.
          if (created.retried && created.status === 409) expect(created.body.error.code).toBe('duplicate_keyword');
          else expect(created).toMatchObject({ status: 201, body: { term: lookbackTerm(w) } });
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 200 + random() * 2_300));
      killedDuring.push(await underWay(sql));
      await stopService(service.child, 'SIGKILL');
    }

    const last = await startService(url, env);
    const lookbackIds = (await sql<{ id: string }[]>`select id from keywords where term like 'Wombatique%'`).map((row) => row.id);
    expect(lookbackIds).toHaveLength(workspaces);
    const settled = async () => {
      const [state] = await sql<{ tracked: number; lookback: number; unscored: number; pendingDeliveries: number; days: number }[]>`
        select
          (select count(*)::int from mentions where keyword_id = any(${seeded.map((w) => w.trackedId)})) as tracked,
          (select count(*)::int from mentions where keyword_id = any(${lookbackIds})) as lookback,
          (select count(*)::int from mentions where relevance is null) as unscored,
          (select count(*)::int from deliveries where status = 'pending') as pending_deliveries,
          (select count(*)::int from billing_schedule_runs where day = ${billingDayOf(new Date())}::date) as days`;
      const [comments] = await sql<{ expected: number; stored: number }[]>`
        select
          (select count(*)::int * ${commentsPerStory} from mentions m join posts p on p.id = m.post_id
            where m.keyword_id = any(${seeded.map((w) => w.trackedId)}) and m.relevance >= 40
              and (p.external_id::bigint % 1000000) < ${storiesWithComments}) as expected,
          (select count(*)::int from comments where delivered) as stored`;
      return { ...state, comments };
    };
    const done = await eventually(
      settled,
      (state) =>
        state.tracked === workspaces * storiesPerTerm &&
        state.lookback === workspaces * lookbackStories &&
        state.unscored === 0 &&
        state.pendingDeliveries === 0 &&
        state.days === 2 &&
        state.comments.stored === state.comments.expected,
      180_000,
    );
    expect(done).toMatchObject({ tracked: workspaces * storiesPerTerm, lookback: workspaces * lookbackStories, unscored: 0, pendingDeliveries: 0, days: 2 });
    expect(done.comments.stored).toBe(done.comments.expected);

    // Stored once: a post once, a mention once per post and keyword, a comment once per thread.
    expect(await countOf(sql`select count(*)::int as n from (select 1 from posts group by platform, external_id having count(*) > 1) twice`)).toBe(0);
    expect(await countOf(sql`select count(*)::int as n from (select 1 from mentions group by post_id, keyword_id having count(*) > 1) twice`)).toBe(0);

    // Charged once: every mention and delivered comment has its charge and no charge lacks its item (the capped keywords' seeded charges aside); every keyword-day once; wallets equal their ledgers.
    const capped = seeded.map((w) => w.cappedId);
    expect(await countOf(sql`select count(*)::int as n from mentions m where not exists (select 1 from ledger_entries l where l.idempotency_key = 'mention:' || m.id)`)).toBe(0);
    expect(await countOf(sql`select count(*)::int as n from comments c where c.delivered and not exists (select 1 from ledger_entries l where l.idempotency_key = 'comment:' || c.id)`)).toBe(0);
    expect(
      await countOf(sql`
        select count(*)::int as n from ledger_entries l
        where l.kind = 'mention' and l.keyword_id <> all(${capped}) and not exists (select 1 from mentions m where 'mention:' || m.id = l.idempotency_key)`),
    ).toBe(0);
    expect(await countOf(sql`select count(*)::int as n from ledger_entries l where l.kind = 'comment' and not exists (select 1 from comments c where 'comment:' || c.id = l.idempotency_key)`)).toBe(0);
    const days = Array.from({ length: missedDays + 2 }, (_, i) => billingDayOf(new Date(Date.now() - (missedDays + 1 - i) * dayMs)));
    const keywordDays = await sql<{ keywordId: string; day: string; times: number }[]>`
      select keyword_id, split_part(idempotency_key, ':', 3) as day, count(*)::int as times from ledger_entries
      where kind = 'keyword_day' and keyword_id = any(${[...seeded.map((w) => w.trackedId), ...capped]})
      group by 1, 2 order by 1, 2`;
    for (const keywordId of [...seeded.map((w) => w.trackedId), ...capped]) {
      expect(keywordDays.filter((row) => row.keywordId === keywordId).map(({ day, times }) => ({ day, times }))).toEqual(days.map((day) => ({ day, times: 1 })));
    }
    expect(await ledgerBalanceMismatches(sql)).toEqual([]);

    // Delivered once under one id: each relevant mention of a rule once, the digest, each capped keyword's keyword.resumed.
    const deliveries = await sql<{ id: string; kind: string; alertId: string | null; mentionId: string | null; event: string; status: string; workspaceId: string }[]>`
      select id, kind, alert_id, mention_id, event, status, workspace_id from deliveries`;
    expect(deliveries.filter((delivery) => delivery.status !== 'delivered')).toEqual([]);
    const receivedIds = new Set(receiver.received.map((request) => String(request.headers['webhook-id'])));
    expect(deliveries.filter((delivery) => !receivedIds.has(delivery.id))).toEqual([]);
    const idsOfMention = new Map<string, Set<string>>();
    for (const body of receiver.bodies().filter((body) => body.event === 'mention.matched')) {
      const key = `${body.alert.id}/${body.data.id}`;
      idsOfMention.set(key, (idsOfMention.get(key) ?? new Set()).add(body.id));
    }
    expect([...idsOfMention].filter(([, ids]) => ids.size > 1)).toEqual([]);
    for (const workspace of seeded) {
      const listed = await mentionsOfRule(last.url, workspace.apiKey, workspace.instantRuleId);
      const sent = deliveries.filter((delivery) => delivery.alertId === workspace.instantRuleId).map((delivery) => delivery.mentionId!);
      expect(sent.sort()).toEqual(listed);
      expect(deliveries.filter((delivery) => delivery.alertId === workspace.digestRuleId && delivery.kind === 'digest').length).toBeGreaterThanOrEqual(1);
      expect(deliveries.filter((delivery) => delivery.workspaceId === workspace.workspaceId && delivery.event === 'keyword.resumed')).toHaveLength(1);
    }

    // No job lost or stuck: nothing failed, every look-back and scoring job done (polls and comment checks recur for ever).
    expect(await sql`select name, state from pgboss.job where state = 'failed' or (name in ('lookback', 'score') and state <> 'completed')`).toEqual([]);

    const seen = new Map<string, number>();
    for (const moment of killedDuring) for (const what of moment.length ? moment : ['nothing under way']) seen.set(what, (seen.get(what) ?? 0) + 1);
    console.log(
      `Crash and rerun, scale ${scale}, seed ${seed}: ${kills} kills, ${workspaces} workspaces, ${done.tracked + done.lookback} mentions, ${done.comments.stored} comments, ${deliveries.length} deliveries\n` +
        `| Under way at a kill | Kills |\n|---|---:|\n${[...seen].sort((a, b) => b[1] - a[1]).map(([what, n]) => `| ${what} | ${n} |`).join('\n')}`,
    );
  });
});
