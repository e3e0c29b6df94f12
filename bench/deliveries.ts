import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { startDeliveryDispatcher } from '../jobs/deliver/delivery-dispatcher.ts';
import { systemClock } from '../runtime/clock.ts';
import { connect, type Sql } from '../runtime/database.ts';
import { newId } from '../runtime/ids.ts';
import { migrate } from '../runtime/migrate.ts';
import { createKeyword } from '../subgraphs/keywords/index.ts';
import { settleAlertRule } from '../subgraphs/mentions/alert-rule-input.ts';
import { insertAlertRule } from '../subgraphs/mentions/alert-rule-store.ts';
import { saveClassification, storeMatchedPosts } from '../subgraphs/mentions/mention-store.ts';
import { enqueueMentionAlerts, provisionWorkspace } from '../subgraphs/team/index.ts';
import { insertChannel } from '../subgraphs/team/channel-store.ts';
import { envelopeBody } from '../subgraphs/team/delivery-envelope.ts';
import { insertDeliveries } from '../subgraphs/team/delivery-store.ts';
import { signatureHeaders } from '../subgraphs/team/webhook-signature.ts';
import type { BenchEnvironment } from './bench-environment.ts';
import type { Benchmark, BenchReport } from './benchmark.ts';

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

interface Receiver {
  url: string;
  count: number;
  /** Arrival time (performance.now()) by the `data.id` of each body, or by the `x-bench-id` header. */
  arrivals: Map<string, number>;
  close(): Promise<void>;
}

/** A local endpoint that answers 200 at once and notes when each request arrived. */
async function startReceiver(): Promise<Receiver> {
  const receiver = { url: '', count: 0, arrivals: new Map<string, number>(), close: async () => {} };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const at = performance.now();
      receiver.count++;
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

const percentile = (values: number[], share: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? NaN;
};

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
  send: async () => null,
});

/** The same request the dispatcher sends, made by a bare loop: sign, fetch, next. */
async function signedFetch(url: string, secret: string, id: string, body: string): Promise<void> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-bench-id': id, ...signatureHeaders(secret, id, body, new Date()) },
    body,
  });
  await response.arrayBuffer();
}

const sampleData = { message: 'x'.repeat(1_200) };

async function throughputRun(sql: Sql, environment: BenchEnvironment, receiver: Receiver, workspaceId: string) {
  const channel = await insertChannel(sql, { workspaceId, kind: 'webhook', label: 'bench', url: receiver.url, headers: {}, events: [], now: new Date() });
  const enqueue = async (count: number) => {
    const now = new Date();
    const rows = Array.from({ length: count }, () => {
      const id = newId('dlv');
      return { id, workspaceId, channelId: channel.id, kind: 'test' as const, event: 'test', body: envelopeBody({ id, event: 'test', createdAt: now, alert: null, data: sampleData }) };
    });
    for (let i = 0; i < rows.length; i += 1_000) await insertDeliveries(sql, rows.slice(i, i + 1_000), now);
  };
  const dispatcher = await startDeliveryDispatcher(dispatcherContext(sql, environment));
  try {
    await enqueue(warmUp);
    await until(() => receiver.count >= warmUp);
    const before = receiver.count;
    const started = performance.now();
    await enqueue(deliveries);
    await until(() => receiver.count >= before + deliveries);
    const outbox = deliveries / ((performance.now() - started) / 1000);

    const baselineStarted = performance.now();
    let next = 0;
    const body = envelopeBody({ id: 'dlv_bench', event: 'test', createdAt: new Date(), alert: null, data: sampleData });
    await Promise.all(
      Array.from({ length: baselineConcurrency }, async () => {
        while (next < deliveries) {
          const i = next++;
          await signedFetch(receiver.url, channel.secret!, `base-${i}`, body);
        }
      }),
    );
    const baseline = deliveries / ((performance.now() - baselineStarted) / 1000);
    return { outbox, baseline };
  } finally {
    await dispatcher.stop();
  }
}

async function latencyRun(sql: Sql, environment: BenchEnvironment, receiver: Receiver, workspaceId: string) {
  const channel = await insertChannel(sql, { workspaceId, kind: 'webhook', label: 'latency', url: receiver.url, headers: {}, events: [], now: new Date() });
  const { keyword } = await createKeyword(sql, workspaceId, { term: 'Benchmark' }, {});
  await insertAlertRule(sql, workspaceId, settleAlertRule({ name: 'Everything', channelIds: [channel.id] }), new Date());
  const total = mentionsPerSecond * latencySeconds;
  const stored = await storeMatchedPosts(
    sql,
    Array.from({ length: total }, (_, i) => ({
      post: {
        platform: 'hackernews' as const, externalId: `lat-${i}`, url: `https://news.ycombinator.com/item?id=${i}`, text: `Benchmark post ${i}`,
        publishedAt: new Date(), replyTo: null, links: [],
        author: { platformId: `u${i % 50}`, name: `u${i % 50}`, handle: `u${i % 50}`, url: 'https://news.ycombinator.com', avatarUrl: null, followers: null },
      },
      matches: [{ keywordId: keyword.id, workspaceId, fuzzy: false }],
    })),
  );
  const scoredAt = new Map<string, number>();
  const dispatcher = await startDeliveryDispatcher(dispatcherContext(sql, environment));
  try {
    // Each mention is scored the way the scoring job does it: classification and alerts in one transaction.
    const score = async (id: string) => {
      await sql.begin(async (tx) => {
        await saveClassification(tx, id, { relevance: 90, sentiment: 'positive', intents: [], automated: false, language: 'en', note: '', priority: 1 }, new Date());
        await enqueueMentionAlerts(tx, [id], new Date());
      });
      scoredAt.set(id, performance.now());
    };
    const started = performance.now();
    const pending: Promise<void>[] = [];
    for (const [i, mention] of stored.entries()) {
      const due = started + (i * 1000) / mentionsPerSecond;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      pending.push(score(mention.id));
    }
    await Promise.all(pending);
    await until(() => stored.every((mention) => receiver.arrivals.has(mention.id)));
    const latencies = stored.map((mention) => receiver.arrivals.get(mention.id)! - scoredAt.get(mention.id)!);

    const sentAt = new Map<string, number>();
    const baselineStarted = performance.now();
    const sends: Promise<void>[] = [];
    const body = envelopeBody({ id: 'dlv_bench', event: 'mention.matched', createdAt: new Date(), alert: null, data: sampleData });
    for (let i = 0; i < total; i++) {
      const due = baselineStarted + (i * 1000) / mentionsPerSecond;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      sentAt.set(`lat-base-${i}`, performance.now());
      sends.push(signedFetch(receiver.url, channel.secret!, `lat-base-${i}`, body));
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
    const { workspace } = await provisionWorkspace(sql, 'Bench');
    const throughput = await throughputRun(sql, environment, receiver, workspace.id);
    const latency = await latencyRun(sql, environment, receiver, workspace.id);
    const met = throughput.outbox >= aims.perSecond && latency.p99 < aims.p99Ms;
    return {
      description:
        `${deliveries} signed deliveries (1.2 kB bodies) from the outbox by one dispatcher to a receiver on loopback, after ${warmUp} to warm up; ` +
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
