import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { startDeliveryDispatcher } from '../jobs/deliver/delivery-dispatcher.ts';
import { systemClock } from '../runtime/clock.ts';
import { connect, type Sql } from '../runtime/database.ts';
import { migrate } from '../runtime/migrate.ts';
import { secretBox } from '../runtime/secret-box.ts';
import { creditWalletByOperator } from '../subgraphs/billing/index.ts';
import { createKeyword, keywordDirectory } from '../subgraphs/keywords/index.ts';
import { createAlertRule, type MentionRow, readStoredMentions, recordScores, storeMatchedPostsUnlinked } from '../subgraphs/mentions/index.ts';
import { createChannel, enqueueMentionAlerts, provisionWorkspace } from '../subgraphs/team/index.ts';
import type { BenchEnvironment } from './bench-environment.ts';
import type { Benchmark, BenchReport } from './benchmark.ts';
import { percentile } from './percentile.ts';

/** Signed deliveries sent from the outbox in the throughput run, after a warm-up. */
const deliveries = 5_000;
const warmUp = 500;
/** Mentions scored a second in the latency run, for `latencySeconds`. */
const mentionsPerSecond = 200;
const latencySeconds = 10;
/** The baseline's requests in flight, as many as the dispatcher sends to one channel. */
const baselineConcurrency = 32;
const aims = { perSecond: 1_000, p99Ms: 500 };

const env = { EARSHOT_ALLOW_PRIVATE_URLS: '1' };
const secrets = secretBox(randomBytes(32), "the benchmark's key");

interface Receiver {
  url: string;
  count: number;
  /** The first alert body received: the baseline sends the same bytes. */
  sampleBody: string;
  /** Arrival time (performance.now()) by the `data.id` of each body, or by the `x-bench-id` header. */
  arrivals: Map<string, number>;
  close(): Promise<void>;
}

/** A local endpoint that answers 200 at once and notes when each request arrived. */
async function startReceiver(): Promise<Receiver> {
  const receiver = { url: '', count: 0, sampleBody: '', arrivals: new Map<string, number>(), close: async () => {} };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const at = performance.now();
      receiver.count++;
      receiver.sampleBody ||= Buffer.concat(chunks).toString('utf8');
      const benchId = request.headers['x-bench-id'];
      const id = typeof benchId === 'string' ? benchId : (JSON.parse(Buffer.concat(chunks).toString('utf8')).data?.id as string | undefined);
      if (id) receiver.arrivals.set(id, at);
      response.writeHead(200).end();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  receiver.close = () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); });
  return receiver;
}

async function until(done: () => boolean, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for deliveries');
    await sleep(5);
  }
}

const dispatcherContext = (sql: Sql, environment: BenchEnvironment) => ({
  sql,
  clock: systemClock,
  log: environment.log,
  config: { pollIntervalSeconds: 300, env },
  secrets,
  send: async () => null,
});

/**
 * The baseline sender: a bare signed `fetch` a hand-written webhook client
 * would make (the hex HMAC of the body and the Standard Webhooks headers).
 */
async function signedFetch(url: string, secret: string, id: string, body: string): Promise<void> {
  const now = new Date();
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-bench-id': id,
      'x-mentions-signature': createHmac('sha256', secret).update(body).digest('hex'),
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign(id, now, body),
    },
    body,
  });
  await response.arrayBuffer();
}

interface Setup {
  sql: Sql;
  workspaceId: string;
  keywordId: string;
  secret: string;
}

/** A workspace that can pay for every mention, one keyword, and an instant rule sending everything to the receiver. */
async function setUp(sql: Sql, receiver: Receiver): Promise<Setup> {
  const { workspace } = await provisionWorkspace(sql, 'Bench');
  await creditWalletByOperator(sql, { workspaceId: workspace.id, cents: 1_000_000, at: new Date() });
  const { keyword } = await createKeyword(sql, workspace.id, { term: 'Benchmark', platforms: ['hackernews'], cap: { mentions: 1_000_000, per: 'month' } }, {});
  const channel = await createChannel(sql, secrets, workspace.id, { kind: 'webhook', url: receiver.url, label: 'bench' }, env, new Date());
  await createAlertRule(sql, keywordDirectory, workspace.id, { name: 'Everything', channelIds: [channel.id] }, new Date());
  return { sql, workspaceId: workspace.id, keywordId: keyword.id, secret: channel.secret! };
}

let posts = 0;
/** Stored, unscored (not yet charged) mentions, as a poll job leaves them. */
async function storeMentions(setup: Setup, count: number): Promise<MentionRow[]> {
  const batch = Array.from({ length: count }, () => {
    const i = ++posts;
    return {
      post: {
        platform: 'hackernews' as const, externalId: `bench-${i}`, url: `https://news.ycombinator.com/item?id=${i}`,
        text: `Has anyone tried Benchmark for alerts? Post ${i} of the run, long enough to look like a real one.`,
        publishedAt: new Date(), replyTo: null, links: [],
        author: { platformId: `u${i % 50}`, name: `u${i % 50}`, handle: `u${i % 50}`, url: 'https://news.ycombinator.com', avatarUrl: null, followers: null },
      },
      matches: [{ keywordId: setup.keywordId, workspaceId: setup.workspaceId, fuzzy: false }],
    };
  });
  const { mentions } = await setup.sql.begin((tx) => storeMatchedPostsUnlinked(tx, batch));
  return readStoredMentions(setup.sql, mentions);
}

/** Scores mentions as the scoring job does: classifications and their instant alerts in one transaction. */
async function score(setup: Setup, mentions: readonly MentionRow[]): Promise<void> {
  const classification = { relevance: 90, sentiment: 'positive' as const, intents: [], automated: false, language: 'en', note: '' };
  const now = new Date();
  await setup.sql.begin(async (tx) => {
    await recordScores(tx, mentions.map((mention) => ({ mention, classification, commentsEnabled: false })), [], now);
    await enqueueMentionAlerts(tx, mentions, now);
  });
}

async function throughputRun(setup: Setup, environment: BenchEnvironment, receiver: Receiver) {
  const warm = await storeMentions(setup, warmUp);
  const timed = [];
  for (let i = 0; i < deliveries; i += 1_000) timed.push(...(await storeMentions(setup, 1_000)));
  const warming = await startDeliveryDispatcher(dispatcherContext(setup.sql, environment));
  await score(setup, warm);
  await until(() => receiver.count >= warmUp);
  await warming.stop();
  // The outbox fills first, so the timing is the dispatcher's alone, not the scoring's.
  for (let i = 0; i < timed.length; i += 1_000) await score(setup, timed.slice(i, i + 1_000));
  const before = receiver.count;
  const started = performance.now();
  const dispatcher = await startDeliveryDispatcher(dispatcherContext(setup.sql, environment));
  try {
    await until(() => receiver.count >= before + deliveries);
    const outbox = deliveries / ((performance.now() - started) / 1000);

    const body = receiver.sampleBody;
    const baselineStarted = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: baselineConcurrency }, async () => {
        while (next < deliveries) {
          const i = next++;
          await signedFetch(receiver.url, setup.secret, `base-${i}`, body);
        }
      }),
    );
    const baseline = deliveries / ((performance.now() - baselineStarted) / 1000);
    return { outbox, baseline };
  } finally {
    await dispatcher.stop();
  }
}

async function latencyRun(setup: Setup, environment: BenchEnvironment, receiver: Receiver) {
  const total = mentionsPerSecond * latencySeconds;
  const stored = await storeMentions(setup, total);
  const scoredAt = new Map<string, number>();
  const dispatcher = await startDeliveryDispatcher(dispatcherContext(setup.sql, environment));
  try {
    const started = performance.now();
    const pending: Promise<void>[] = [];
    for (const [i, mention] of stored.entries()) {
      const wait = started + (i * 1000) / mentionsPerSecond - performance.now();
      if (wait > 0) await sleep(wait);
      pending.push(score(setup, [mention]).then(() => void scoredAt.set(mention.id, performance.now())));
    }
    await Promise.all(pending);
    await until(() => stored.every((mention) => receiver.arrivals.has(mention.id)));
    const latencies = stored.map((mention) => receiver.arrivals.get(mention.id)! - scoredAt.get(mention.id)!);

    const sentAt = new Map<string, number>();
    const sends: Promise<void>[] = [];
    const baselineStarted = performance.now();
    for (let i = 0; i < total; i++) {
      const wait = baselineStarted + (i * 1000) / mentionsPerSecond - performance.now();
      if (wait > 0) await sleep(wait);
      sentAt.set(`lat-base-${i}`, performance.now());
      sends.push(signedFetch(receiver.url, setup.secret, `lat-base-${i}`, receiver.sampleBody));
    }
    await Promise.all(sends);
    const baseline = [...sentAt].map(([id, at]) => receiver.arrivals.get(id)! - at);
    return { p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), baseP50: percentile(baseline, 0.5), baseP99: percentile(baseline, 0.99) };
  } finally {
    await dispatcher.stop();
  }
}

/**
 * Issue 12: signed webhook deliveries a second from one worker's outbox
 * dispatcher to a local receiver, and the time from a mention scored to its
 * alert arriving at 200 mentions a second, each beside a bare loop of signed
 * `fetch` calls to the same receiver.
 */
async function runDeliveryBenchmark(environment: BenchEnvironment): Promise<BenchReport> {
  const sql = connect(await environment.createDatabase());
  const receiver = await startReceiver();
  try {
    await migrate(sql);
    const setup = await setUp(sql, receiver);
    const throughput = await throughputRun(setup, environment, receiver);
    const latency = await latencyRun(setup, environment, receiver);
    const met = throughput.outbox >= aims.perSecond && latency.p99 < aims.p99Ms;
    return {
      description:
        `${deliveries} instant alerts (signed, about 1 kB each) waiting in the outbox, sent by one dispatcher to a receiver on loopback, after ${warmUp} to warm up; ` +
        `then ${mentionsPerSecond} mentions a second for ${latencySeconds} s, each scored with its instant alert enqueued in one transaction, timed to the receiver. ` +
        `Baseline: a bare loop of signed fetch calls (${baselineConcurrency} in flight; then ${mentionsPerSecond} a second).`,
      columns: ['deliveries/s', 'p50 ms', 'p99 ms'],
      rows: [
        { label: 'outbox dispatcher', values: [throughput.outbox, latency.p50, latency.p99] },
        { label: 'bare signed fetch', values: [throughput.baseline, latency.baseP50, latency.baseP99] },
      ],
      verdict: `Aim: at least ${aims.perSecond} deliveries/s and p99 under ${aims.p99Ms} ms from scored to received: ${met ? 'met' : 'not met'}.`,
    };
  } finally {
    await receiver.close();
    await sql.end();
  }
}

export const deliveryThroughput: Benchmark = { name: 'Webhook deliveries', run: runDeliveryBenchmark };
