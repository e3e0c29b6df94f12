import os from 'node:os';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { ingestPosts } from '../jobs/ingest-posts.ts';
import { systemClock } from '../runtime/clock.ts';
import { connect, freePort, type Sql } from '../runtime/database.ts';
import { migrate } from '../runtime/migrate.ts';
import { creditWalletByOperator } from '../subgraphs/billing/index.ts';
import { createKeyword, createMatcher, loadActiveMatchRules } from '../subgraphs/keywords/index.ts';
import { type MentionRow, mentionCreatedChannel, readStoredMentions, recordScores } from '../subgraphs/mentions/index.ts';
import { provisionWorkspace } from '../subgraphs/team/index.ts';
import type { NormalizedPost } from '../vocabulary/normalized-post.ts';
import type { BenchEnvironment } from './bench-environment.ts';
import type { Benchmark, BenchReport, BenchRow } from './benchmark.ts';
import { answersHttp, type BenchProcess, startBenchProcess, startSubgraphProcesses } from './processes.ts';
import { databaseBackendCpuSeconds } from './database-cpu.ts';
import { percentile } from './percentile.ts';

/** `EARSHOT_BENCH_SUBSCRIBERS=100` makes a small run, to check the benchmark works without the load of the real one. */
const subscribers = Number(process.env.EARSHOT_BENCH_SUBSCRIBERS ?? 1_000);
const gatewayProcesses = 2;
const mentionsPerSecond = 200;
const seconds = 10;
/** Scoring transactions a second; each scores `mentionsPerSecond / ticksPerSecond` mentions, as the scoring job's batches do. */
const ticksPerSecond = 20;
/** Rounds of warm-up mentions, each 2 s apart, for the subscriptions to go live. */
const warmUpRounds = 8;
/** Issue 18, aim 6: scored → client p99 under 100 ms. */
const aimP99Ms = 100;

const fullSelection = 'id priority classification { relevance sentiment } keyword { term }';
const mentionsOnlySelection = 'id priority classification { relevance sentiment }';

/** How subscribers spread over workspaces (each scored mention reaches every subscriber of its workspace), and what they ask for. */
const layouts = [
  { workspaces: subscribers, subscribersPerWorkspace: 1, selection: fullSelection },
  { workspaces: subscribers / 10, subscribersPerWorkspace: 10, selection: fullSelection },
  // What fan-out costs without the one field the keywords subgraph answers on every event.
  { workspaces: subscribers / 10, subscribersPerWorkspace: 10, selection: mentionsOnlySelection },
  { workspaces: subscribers, subscribersPerWorkspace: 1, selection: mentionsOnlySelection },
];

function post(workspace: number, i: number): NormalizedPost {
  return {
    platform: 'hackernews',
    externalId: `fan-out-${workspace}-${i}`,
    url: `https://news.ycombinator.com/item?id=${workspace * 1_000 + i}`,
    text: `We moved our alerts to Product${workspace} last week and the team likes it.`,
    publishedAt: new Date(),
    replyTo: null,
    links: [],
    author: { platformId: `user${i}`, name: `user${i}`, handle: `user${i}`, url: `https://news.ycombinator.com/user?id=user${i}`, avatarUrl: null, followers: null },
  };
}

/** Workspaces with one keyword each, and each workspace's stored, not yet scored mentions. */
async function seed(environment: BenchEnvironment, sql: Sql, workspaces: number, mentions: number): Promise<{ apiKeys: string[]; unscored: MentionRow[][] }> {
  const apiKeys: string[] = [];
  const workspaceIds: string[] = [];
  // Twenty at a time: a thousand workspaces one by one would take minutes.
  for (let first = 0; first < workspaces; first += 20) {
    const chunk = Array.from({ length: Math.min(20, workspaces - first) }, (_, i) => first + i);
    const provisioned = await Promise.all(
      chunk.map(async (w) => {
        const { workspace, apiKey } = await provisionWorkspace(sql, `Fan-out ${w}`);
        await creditWalletByOperator(sql, { workspaceId: workspace.id, cents: 1_000_000, at: new Date() });
        await createKeyword(sql, workspace.id, { term: `Product${w}`, platforms: ['hackernews'] }, {});
        return { apiKey, workspaceId: workspace.id };
      }),
    );
    apiKeys.push(...provisioned.map((made) => made.apiKey));
    workspaceIds.push(...provisioned.map((made) => made.workspaceId));
  }
  const { rules, filters } = await loadActiveMatchRules(sql, { platform: 'hackernews' });
  const matcher = createMatcher(rules, filters);
  const posts = Array.from({ length: mentions }, (_, i) => post(i % workspaces, Math.floor(i / workspaces)));
  const context = { sql, clock: systemClock, log: environment.log, send: async () => 'unworked' };
  const { stored } = await ingestPosts(context, posts, (candidate) => matcher.match(candidate));
  if (stored.length !== mentions) throw new Error(`Seeded ${stored.length} mentions of ${mentions}`);
  // Storing does not keep the posts' order: each workspace's own come from its id.
  const indexOf = new Map(workspaceIds.map((id, index) => [id, index]));
  const unscored = workspaceIds.map((): MentionRow[] => []);
  for (const mention of await readStoredMentions(sql, stored)) unscored[indexOf.get(mention.workspaceId)!].push(mention);
  return { apiKeys, unscored };
}

const classification = { relevance: 80, sentiment: 'positive' as const, intents: [], automated: false, language: 'en', note: '' };

interface FanOutResult {
  expected: number;
  received: number;
  /** Subscriptions refused 503 at the start and made again. */
  resubscribed: number;
  latenciesMs: number[];
  /** The baseline: each timed mention's NOTIFY as a bare LISTEN connection in the benchmark's process hears it. */
  bareLatenciesMs: number[];
  /** CPU time each process used from the first timed scoring to the last delivery (`cpu()`'s order). */
  cpuMs: number[];
}

/**
 * Scores `mentions` at the set rate, each batch in one transaction as the
 * scoring job commits it, and times every `mentionCreated` event from the
 * start of its batch's transaction to its arrival at each subscriber.
 */
async function measure(
  sql: Sql,
  clients: { client: Client; workspace: number }[],
  unscored: MentionRow[][],
  layout: (typeof layouts)[number],
  cpu: () => number[],
): Promise<FanOutResult> {
  const scoredAt = new Map<string, number>();
  const latenciesMs: number[] = [];
  const bareLatenciesMs: number[] = [];
  const warmUp = unscored.map((mentions) => mentions.slice(0, warmUpRounds));
  // Round robin over the workspaces, as mentions of many workspaces arrive.
  const timed = unscored.flatMap((mentions) => mentions.slice(warmUpRounds).map((mention, i) => ({ mention, i }))).sort((a, b) => a.i - b.i).map(({ mention }) => mention);
  const warmedUp = new Set<number>();
  let received = 0;
  let resubscribed = 0;
  let failure: Error | undefined;
  const subscriptions: (() => void)[] = [];
  const subscribe = (index: number) => {
    const { client, workspace } = clients[index];
    subscriptions[index] = client.subscribe<{ mentionCreated: { id: string } | null }>(
      { query: `subscription { mentionCreated { ${layout.selection} } }` },
      {
        next: ({ data, errors }) => {
          // A subscription refused 503 (its rate-limit count not answered in time under the burst) is made again, as a client retries.
          if (errors?.length && !warmedUp.has(index) && errors.every((error) => error.extensions?.code === 'service_unavailable')) {
            resubscribed++;
            return void setTimeout(() => subscribe(index), 1_000);
          }
          if (errors?.length) return void (failure ??= new Error(`A subscriber got errors: ${JSON.stringify(errors)}`));
          const id = data?.mentionCreated?.id;
          const started = id ? scoredAt.get(id) : undefined;
          if (started === undefined) {
            warmedUp.add(index);
            return;
          }
          received++;
          latenciesMs.push(performance.now() - started);
        },
        error: (error) => console.error(`subscriber of workspace ${workspace}:`, error),
        complete: () => {},
      },
    );
  };
  clients.forEach((_, index) => subscribe(index));
  const scoreBatch = async (batch: MentionRow[], timedBatch: boolean) => {
    const started = performance.now();
    if (timedBatch) for (const mention of batch) scoredAt.set(mention.id, started);
    await sql.begin((tx) => recordScores(tx, batch.map((mention) => ({ mention, classification, commentsEnabled: false })), [], new Date()));
  };
  // graphql-ws says nothing when a subscription is live: each round scores one more warm-up mention in every workspace
  // that has a subscriber with none seen yet, until all have seen one.
  for (let round = 0; warmedUp.size < clients.length; round++) {
    if (failure) throw failure;
    if (round === warmUpRounds) throw new Error(`Only ${warmedUp.size} of ${clients.length} subscriptions went live in ${warmUpRounds} rounds`);
    const cold = new Set(clients.filter((_, index) => !warmedUp.has(index)).map(({ workspace }) => workspace));
    const batch = [...cold].map((workspace) => warmUp[workspace][round]);
    for (let first = 0; first < batch.length; first += 100) await scoreBatch(batch.slice(first, first + 100), false);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }

  const bare = await sql.listen(mentionCreatedChannel, (payload) => {
    const started = scoredAt.get((JSON.parse(payload) as { id: string }).id);
    if (started !== undefined) bareLatenciesMs.push(performance.now() - started);
  });
  const perTick = mentionsPerSecond / ticksPerSecond;
  const cpuBefore = cpu();
  const runStarted = performance.now();
  for (let tick = 0; tick * perTick < timed.length; tick++) {
    const due = runStarted + (tick * 1000) / ticksPerSecond;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    scoreBatch(timed.slice(tick * perTick, (tick + 1) * perTick), true).catch((error) => (failure ??= error));
  }
  const expected = timed.length * layout.subscribersPerWorkspace;
  const deadline = performance.now() + 10_000;
  while (received < expected && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  const cpuMs = cpu().map((after, i) => after - cpuBefore[i]);
  await bare.unlisten();
  for (const unsubscribe of subscriptions) unsubscribe();
  if (failure) throw failure;
  return { expected, received, resubscribed, latenciesMs, bareLatenciesMs, cpuMs };
}

const labelOf = (layout: (typeof layouts)[number]) =>
  `${layout.workspaces} workspaces × ${layout.subscribersPerWorkspace}${layout.selection === fullSelection ? '' : ', no `keyword { term }`'}`;

async function runLayout(environment: BenchEnvironment, layout: (typeof layouts)[number]): Promise<BenchRow> {
  const { workspaces } = layout;
  const databaseUrl = await environment.createDatabase();
  const sql = connect(databaseUrl);
  const processes: BenchProcess[] = [];
  const clients: { client: Client; workspace: number }[] = [];
  try {
    await migrate(sql);
    const { apiKeys, unscored } = await seed(environment, sql, workspaces, workspaces * warmUpRounds + mentionsPerSecond * seconds);
    const common = { DATABASE_URL: databaseUrl, HOST: '127.0.0.1', EARSHOT_LOG_LEVEL: 'warn', EARSHOT_BLUESKY_LIVE: '0', EARSHOT_RATE_LIMIT_PER_MINUTE: '1000000000' };
    const subgraphs = await startSubgraphProcesses(common);
    processes.push(...subgraphs.processes);
    const gatewayUrls: string[] = [];
    for (let g = 0; g < gatewayProcesses; g++) {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}/graphql`;
      processes.push(await startBenchProcess('main.ts', ['--role', 'gateway'], { ...common, ...subgraphs.gatewayEnv, PORT: String(port) }, () => answersHttp(url)));
      gatewayUrls.push(url.replace('http', 'ws'));
    }
    // Fifty connections at a time, each acknowledged before the next fifty: a thousand at once would measure a connection storm.
    for (let first = 0; first < subscribers; first += 50) {
      const batch = Array.from({ length: Math.min(50, subscribers - first) }, (_, i) => {
        const s = first + i;
        const workspace = s % workspaces;
        const client = createClient({
          url: gatewayUrls[s % gatewayUrls.length],
          webSocketImpl: WebSocket,
          connectionParams: { authorization: `Bearer ${apiKeys[workspace]}` },
          retryAttempts: 0,
          lazy: false,
        });
        clients.push({ client, workspace });
        return new Promise<void>((resolve, reject) => {
          client.on('connected', () => resolve());
          client.on('closed', (event) => reject(new Error(`A subscriber's connection closed before it was acknowledged: ${(event as { reason?: string }).reason}`)));
        });
      });
      await Promise.all(batch);
    }
    // processes: the four subgraphs (keywords, mentions, billing, team), then the gateways.
    const cpu = () => [...processes.map((process) => process.cpuMs()), (databaseBackendCpuSeconds(databaseUrl) ?? Number.NaN) * 1000];
    const result = await measure(sql, clients, unscored, layout, cpu);
    const { latenciesMs: latencies, bareLatenciesMs: bare, cpuMs } = result;
    const perDelivery = (ms: number) => ms / result.received;
    const gatewaysMs = cpuMs.slice(4, 4 + gatewayProcesses).reduce((sum, ms) => sum + ms, 0);
    return {
      label: labelOf(layout),
      values: [
        result.resubscribed,
        result.expected,
        result.received,
        percentile(latencies, 0.5),
        percentile(latencies, 0.99),
        percentile(latencies, 1),
        percentile(bare, 0.5),
        percentile(bare, 0.99),
        perDelivery(gatewaysMs),
        perDelivery(cpuMs[1]),
        perDelivery(cpuMs[0]),
        perDelivery(cpuMs.at(-1)!),
      ],
    };
  } finally {
    await Promise.all(clients.map(({ client }) => client.dispose()));
    await Promise.all(processes.map((process) => process.stop()));
    await sql.end();
  }
}

/**
 * Issue 18, aim 6: a thousand graphql-ws subscribers of `mentionCreated`
 * (a mention is announced when it is scored and charged) spread over two gateway processes (the four subgraphs as processes of
 * their own, as a scaled deployment runs them), while mentions are scored at
 * a steady rate; how long each scoring takes to reach every subscriber of
 * its workspace.
 */
export const liveFanOut: Benchmark = {
  name: 'Live fan-out: scored mentions to graphql-ws subscribers',
  async run(environment) {
    const rows: BenchRow[] = [];
    for (const layout of layouts) {
      // A layout that fails (its subscriptions not all live) is a row saying so; the others are still measured.
      rows.push(await runLayout(environment, layout).catch((error: Error) => ({ label: `${labelOf(layout)}: ${error.message}`, values: [] })));
      // Each row as soon as it is measured: the table comes at the end of the run.
      process.stderr.write(`${JSON.stringify(rows.at(-1))}\n`);
    }
    const meets = (row: BenchRow) => row.values[1] === row.values[2] && (row.values[4] as number) < aimP99Ms;
    const judged = rows.map((row) => `${row.label}: ${meets(row) ? 'met' : 'missed'}`).join('; ');
    const [loadAverage] = os.loadavg();
    return {
      description:
        `${subscribers} graphql-ws subscribers of \`mentionCreated\`, half on each of ${gatewayProcesses} gateway processes (\`--role gateway\`; each subgraph a process of its own), ` +
        `while ${mentionsPerSecond} mentions a second are scored for ${seconds} s in ${ticksPerSecond} transactions a second. Latency runs from the start of a mention's scoring transaction ` +
        `to its arrival at a subscriber; the subscribers run in the benchmark's process, on the same cores as the servers. ` +
        `Baseline, in the same run: the same mentions' NOTIFYs as a bare LISTEN connection in the benchmark's process hears them (once per mention). ` +
        `CPU ms per delivery: the processes' CPU time from the first timed scoring to the last delivery, over the deliveries; PostgreSQL's includes the scoring itself. ` +
        `Load average ${loadAverage.toFixed(1)} when the last layout ended.`,
      columns: ['subscriptions refused 503 and made again', 'deliveries expected', 'received', 'p50 ms', 'p99 ms', 'max ms', 'bare LISTEN p50 ms', 'bare LISTEN p99 ms', 'CPU ms/delivery: gateways', 'mentions subgraph', 'keywords subgraph', 'PostgreSQL'],
      rows,
      verdict: `Aim: every event delivered, p99 under ${aimP99Ms} ms. ${judged}.`,
    };
  },
};
