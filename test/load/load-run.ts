import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import WebSocket from 'ws';
import { sparePlaces } from '../../gateway/plugins/use-rate-limit.ts';
import { connect } from '../../runtime/database.ts';
import { migrate } from '../../runtime/migrate.ts';
import { secretBox } from '../../runtime/secret-box.ts';
import { creditWalletByOperator } from '../../subgraphs/billing/index.ts';
import { createKeyword, keywordDirectory, syncKeywordPolls } from '../../subgraphs/keywords/index.ts';
import { createAlertRule } from '../../subgraphs/mentions/index.ts';
import { createChannel, provisionWorkspace } from '../../subgraphs/team/index.ts';
import { type HackerNewsHit, hackerNewsStory, startFakeHackerNews } from '../fake-upstreams/hackernews.ts';
import { startWebhookReceiver } from '../fake-upstreams/webhook-receiver.ts';

/**
 * Issue 17 point 6: workspaces driven at their request budget over every
 * public surface, against two Earshot processes on one PostgreSQL, while a
 * fake Hacker News feeds posts (ingestion) and a fake webhook receiver takes
 * the alerts (deliveries). `npm test` runs it small and short; `npm run
 * load` runs it at 100 workspaces for 10 minutes.
 */
export interface LoadOptions {
  databaseUrl: string;
  seconds: number;
  workspaces: number;
  /** The budget each process enforces (`EARSHOT_RATE_LIMIT_PER_MINUTE`). */
  limitPerMinute: number;
  /** Requests a minute each workspace sends; above the budget, so the limit is met and must hold. */
  sendPerMinute: number;
  /** Requests in flight at most, over all workspaces. */
  maxInFlight?: number;
}

export type RouteFamily = 'rest' | 'compat' | 'graphql' | 'mcp';

/** One workspace's requests in one minute window (the window PostgreSQL counts in: `date_trunc('minute', now())`). */
export interface WindowCount {
  workspace: number;
  window: string;
  sent: number;
  accepted: number;
  limited: number;
  /** Answered neither way (a 503 past the request deadline): PostgreSQL may or may not have counted them. */
  uncertain: number;
  /** Sent in one minute and answered in the next: PostgreSQL may have counted them in either. */
  straddling: number;
  /**
   * Sent in an earlier minute and given up on without an answer: the server
   * still reads a request a client has left and may count it in this
   * minute, up to one answer timeout after the client gave up.
   */
  late: number;
  held: boolean;
}

export interface HeapFigures {
  process: string;
  beforeBytes: number;
  afterBytes: number;
  change: number;
}

export interface LoadFigures {
  options: Omit<LoadOptions, 'databaseUrl'>;
  requests: number;
  accepted: number;
  limited: number;
  /** Statuses that are neither a success nor the budget's refusal, with counts. */
  errors: Record<string, number>;
  /** Answers to a refused or failed request that were not in their surface's envelope. */
  badEnvelopes: string[];
  latency: Record<RouteFamily, { requests: number; p50Ms: number; p99Ms: number }>;
  windows: WindowCount[];
  windowsHeld: number;
  postsFed: number;
  mentionsStored: number;
  deliveriesReceived: number;
  heap: HeapFigures[];
  /** Processes still running when the run ended: none may have crashed. */
  processesAlive: number;
  wallSeconds: number;
}

const repoRoot = path.resolve(import.meta.dirname, '../..');

interface EarshotProcess {
  name: string;
  url: string;
  child: ChildProcess;
  inspector: string;
}

/** `npm start` (main.ts) with the inspector on a free port, so its heap can be read after a forced GC without any endpoint of Earshot's own. */
async function startProcess(name: string, databaseUrl: string, env: Record<string, string>): Promise<EarshotProcess> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('EARSHOT_') && key !== 'DATABASE_URL'));
  const child = spawn(process.execPath, ['--inspect=127.0.0.1:0', '--import', 'tsx', 'main.ts'], {
    cwd: repoRoot,
    env: { ...inherited, DATABASE_URL: databaseUrl, PORT: '0', HOST: '127.0.0.1', EARSHOT_LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  return new Promise((resolve, reject) => {
    let inspector = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      if (log.length < 200_000) log += chunk.toString('utf8');
      inspector ||= /Debugger listening on (ws:\/\/\S+)/.exec(log)?.[1] ?? '';
      const ready = /"message":"Earshot all ready on port \d+","url":"([^"]+)"/.exec(log);
      if (ready && inspector) resolve({ name, url: ready[1], child, inspector });
    });
    child.once('exit', (code) => reject(new Error(`${name} exited (${code}) before it was ready:\n${log.slice(-4000)}`)));
  });
}

async function stopProcess(earshot: EarshotProcess): Promise<void> {
  if (earshot.child.exitCode !== null || earshot.child.signalCode !== null) return;
  const exited = new Promise((resolve) => earshot.child.once('exit', resolve));
  earshot.child.kill('SIGTERM');
  const timer = setTimeout(() => earshot.child.kill('SIGKILL'), 20_000);
  await exited;
  clearTimeout(timer);
}

/** The process's used heap after a full garbage collection, through the inspector protocol. */
async function heapAfterGc(inspectorUrl: string): Promise<number> {
  const socket = new WebSocket(inspectorUrl);
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  let next = 0;
  const call = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<any>((resolve) => {
      const id = ++next;
      const onMessage = (message: WebSocket.RawData) => {
        const answer = JSON.parse(String(message));
        if (answer.id !== id) return;
        socket.off('message', onMessage);
        resolve(answer.result);
      };
      socket.on('message', onMessage);
      socket.send(JSON.stringify({ id, method, params }));
    });
  // Twice: objects with finalizers need a second pass to go.
  await call('HeapProfiler.collectGarbage');
  await call('HeapProfiler.collectGarbage');
  const { result } = await call('Runtime.evaluate', { expression: 'process.memoryUsage().heapUsed', returnByValue: true });
  socket.close();
  return result.value as number;
}

/** The secrets key of this run: the seeding seals channel secrets with it, and both processes open them. */
const secretsKey = randomBytes(32);

interface Workspace {
  index: number;
  key: string;
  term: string;
}

async function seedWorkspaces(databaseUrl: string, count: number, receiverUrl: string): Promise<Workspace[]> {
  const sql = connect(databaseUrl, { max: 4 });
  try {
    await migrate(sql);
    const workspaces: Workspace[] = [];
    for (let index = 0; index < count; index++) {
      const { workspace, apiKey } = await provisionWorkspace(sql, `Load ${index}`);
      await creditWalletByOperator(sql, { workspaceId: workspace.id, cents: 100_000, at: new Date() });
      const term = `loadterm${index}x`;
      const { keyword } = await createKeyword(sql, workspace.id, { term, platforms: ['hackernews'] }, {});
      await syncKeywordPolls(sql, keyword.id, ['hackernews'], new Date());
      const channel = await createChannel(sql, secretBox(secretsKey, 'the load run\'s key'), workspace.id, { kind: 'webhook', url: receiverUrl, label: 'load' }, { EARSHOT_ALLOW_PRIVATE_URLS: '1' }, new Date());
      await createAlertRule(sql, keywordDirectory, workspace.id, { name: 'Everything', channelIds: [channel.id] }, new Date());
      workspaces.push({ index, key: apiKey, term });
    }
    return workspaces;
  } finally {
    await sql.end();
  }
}

interface Outcome {
  family: RouteFamily;
  workspace: number;
  sentAt: number;
  answeredAt: number;
  /** `ok`, `limited`, or the status (and code) of anything else. */
  result: string;
  envelopeProblem?: string;
}

/** An answer later than this counts as none: a run must end even when a starved server never answers. */
const answerTimeoutMs = 30_000;
const unanswered = 'no answer';

const jsonHeaders = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' });

/** The mix: each family's requests and how each answers a refusal of the budget in its own envelope. */
const families: { family: RouteFamily; send(url: string, workspace: Workspace): Promise<Response>; judge(status: number, body: any): { result: string; envelopeProblem?: string } }[] = [
  {
    family: 'rest',
    send: (url, workspace) => fetch(`${url}/v1/mentions?limit=20`, { headers: jsonHeaders(workspace.key), signal: AbortSignal.timeout(answerTimeoutMs) }),
    judge: (status, body) => {
      if (status === 200) return { result: 'ok' };
      const envelope = typeof body?.error?.code === 'string' && typeof body.error.requestId === 'string';
      return { result: status === 429 && body?.error?.code === 'rate_limited' ? 'limited' : `${status} ${body?.error?.code}`, envelopeProblem: envelope ? undefined : `rest ${status}: ${JSON.stringify(body).slice(0, 200)}` };
    },
  },
  {
    family: 'compat',
    send: (url, workspace) => fetch(`${url}/compat/octolens/api/v2/keywords`, { headers: jsonHeaders(workspace.key), signal: AbortSignal.timeout(answerTimeoutMs) }),
    judge: (status, body) => {
      if (status === 200) return { result: 'ok' };
      const envelope = typeof body?.error?.code === 'string' && body.error.status === status;
      return { result: status === 429 && body?.error?.code === 'RATE_LIMITED' ? 'limited' : `${status} ${body?.error?.code}`, envelopeProblem: envelope ? undefined : `compat ${status}: ${JSON.stringify(body).slice(0, 200)}` };
    },
  },
  {
    family: 'graphql',
    send: (url, workspace) =>
      fetch(`${url}/graphql`, { method: 'POST', headers: jsonHeaders(workspace.key), signal: AbortSignal.timeout(answerTimeoutMs), body: JSON.stringify({ query: '{ whoami { workspace { id name } } keywords(first: 10) { nodes { id term } } }' }) }),
    judge: (status, body) => {
      if (status === 200 && body?.data && !body.errors) return { result: 'ok' };
      const code = body?.errors?.[0]?.extensions?.code;
      return { result: status === 429 && code === 'rate_limited' ? 'limited' : `${status} ${code}`, envelopeProblem: typeof code === 'string' ? undefined : `graphql ${status}: ${JSON.stringify(body).slice(0, 200)}` };
    },
  },
  {
    family: 'mcp',
    send: (url, workspace) =>
      fetch(`${url}/mcp`, { method: 'POST', headers: jsonHeaders(workspace.key), signal: AbortSignal.timeout(answerTimeoutMs), body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_mentions', arguments: { limit: 10 } } }) }),
    // A tool's refusal is its result (`isError`, text `code: message`) on an HTTP 200, as MCP has it.
    judge: (status, body) => {
      if (status === 200 && body?.result && !body.result.isError) return { result: 'ok' };
      const text: string = body?.result?.content?.[0]?.text ?? '';
      if (status === 200 && body?.result?.isError) return { result: text.startsWith('rate_limited: ') ? 'limited' : `tool ${text.split(':')[0]}` };
      // A JSON-RPC error's code is generic (-32000); Earshot's own code rides in its `data`, as on the other surfaces.
      return { result: `${status} ${body?.error?.data?.code ?? body?.error?.code}`, envelopeProblem: body?.jsonrpc === '2.0' && body.error ? undefined : `mcp ${status}: ${JSON.stringify(body).slice(0, 200)}` };
    },
  },
];

const percentile = (sorted: number[], share: number) => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0;
const minuteOf = (at: number) => Math.floor(at / 60_000);

/**
 * Whether the budget held for each workspace and minute. PostgreSQL counts
 * a request in the minute it reaches the database, between its sending and
 * its answer: a request sent in one minute and answered in the next may be
 * counted in either (straddling); one answered otherwise (a 503 past the
 * request deadline) may or may not have been counted, and one the client
 * gave up on may still be read and counted by the server in a later minute
 * (late). Held: no minute took more than the budget, and none refused a
 * request before taking the budget, give or take those three and the places
 * of the count the other process claimed ahead and had not used (the
 * tolerance).
 */
function windowCounts(outcomes: Outcome[], limit: number): WindowCount[] {
  const windows = new Map<string, WindowCount>();
  const windowOf = (workspace: number, minute: number) => {
    const key = `${workspace} ${minute}`;
    const window = windows.get(key) ?? { workspace, window: new Date(minute * 60_000).toISOString().slice(0, 16), sent: 0, accepted: 0, limited: 0, uncertain: 0, straddling: 0, late: 0, held: true };
    windows.set(key, window);
    return window;
  };
  for (const outcome of outcomes) {
    const minute = minuteOf(outcome.sentAt);
    const window = windowOf(outcome.workspace, minute);
    window.sent++;
    if (outcome.result === 'ok') window.accepted++;
    else if (outcome.result === 'limited') window.limited++;
    else window.uncertain++;
    if (minuteOf(outcome.answeredAt) !== minute) {
      window.straddling++;
      windowOf(outcome.workspace, minute + 1).straddling++;
    }
  }
  for (const outcome of outcomes.filter((each) => each.result.startsWith(unanswered))) {
    for (let later = minuteOf(outcome.sentAt) + 1; later <= minuteOf(outcome.answeredAt + answerTimeoutMs); later++) {
      const window = windows.get(`${outcome.workspace} ${later}`);
      if (window) window.late++;
    }
  }
  for (const window of windows.values()) {
    // The other process may hold places of the count it claimed and has not used yet.
    const tolerance = window.straddling + window.uncertain + window.late + sparePlaces(limit);
    window.held = window.accepted <= limit + window.straddling && (window.limited === 0 || window.accepted >= limit - tolerance);
  }
  return [...windows.values()];
}

export async function runLoad(options: LoadOptions): Promise<LoadFigures> {
  const started = Date.now();
  const receiver = await startWebhookReceiver();
  const hits: HackerNewsHit[] = [];
  const hackerNews = await startFakeHackerNews({ hits });
  const workspaces = await seedWorkspaces(options.databaseUrl, options.workspaces, receiver.url);
  const env = {
    EARSHOT_RATE_LIMIT_PER_MINUTE: String(options.limitPerMinute),
    EARSHOT_POLL_INTERVAL_S: '5',
    EARSHOT_BLUESKY_LIVE: '0',
    EARSHOT_ALLOW_PRIVATE_URLS: '1',
    EARSHOT_UPSTREAM_HACKERNEWS: hackerNews.url,
    EARSHOT_SECRETS_KEY: secretsKey.toString('base64'),
  };
  const processes: EarshotProcess[] = [];
  try {
    // One after the other: both migrate and set up pg-boss on start.
    processes.push(await startProcess('process A', options.databaseUrl, env));
    processes.push(await startProcess('process B', options.databaseUrl, env));

    const outcomes: Outcome[] = [];
    const maxInFlight = options.maxInFlight ?? 400;
    let inFlight = 0;
    let sequence = 0;
    const fire = async (workspace: Workspace) => {
      const turn = sequence++;
      const family = families[turn % families.length];
      const target = processes[Math.floor(turn / families.length) % processes.length];
      inFlight++;
      const sentAt = Date.now();
      try {
        const response = await family.send(target.url, workspace);
        const text = await response.text();
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
        outcomes.push({ family: family.family, workspace: workspace.index, sentAt, answeredAt: Date.now(), ...family.judge(response.status, body) });
      } catch (error) {
        outcomes.push({ family: family.family, workspace: workspace.index, sentAt, answeredAt: Date.now(), result: `${unanswered} (${String((error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name)})` });
      } finally {
        inFlight--;
      }
    };

    // A warm-up of a tenth of the run (10 s at least) before the heap is first read, so start-up's caches are in both figures.
    const warmUpMs = Math.max(10_000, options.seconds * 100);
    const endAt = Date.now() + warmUpMs + options.seconds * 1000;
    const heapBefore = new Map<string, number>();
    let heapRead: Promise<void> | undefined;
    const intervalMs = 60_000 / options.sendPerMinute;
    // Each workspace starts at its own offset in the interval, so the load is even.
    const nextAt = workspaces.map((workspace) => Date.now() + (intervalMs * workspace.index) / workspaces.length);
    let postId = 1;
    let nextPostAt = Date.now();
    const pending = new Set<Promise<void>>();
    while (Date.now() < endAt) {
      const now = Date.now();
      if (!heapRead && now >= endAt - options.seconds * 1000) {
        heapRead = Promise.all(processes.map(async (each) => void heapBefore.set(each.name, await heapAfterGc(each.inspector)))).then(() => undefined);
      }
      // Ingestion: a post naming one workspace's term every 2 s, round the workspaces.
      if (now >= nextPostAt) {
        const workspace = workspaces[postId % workspaces.length];
        hits.push(hackerNewsStory({ id: 900_000 + postId, title: `Trying ${workspace.term} under load, post ${postId}`, createdAt: new Date(now - 1000) }));
        postId++;
        nextPostAt += 2000;
      }
      for (const workspace of workspaces) {
        while (nextAt[workspace.index] <= now && inFlight < maxInFlight) {
          const request = fire(workspace);
          pending.add(request);
          void request.then(() => pending.delete(request));
          nextAt[workspace.index] += intervalMs;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await Promise.all(pending);
    await heapRead;
    // Let the jobs in hand settle before the second reading.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const heap: HeapFigures[] = [];
    for (const each of processes) {
      const afterBytes = await heapAfterGc(each.inspector);
      const beforeBytes = heapBefore.get(each.name)!;
      heap.push({ process: each.name, beforeBytes, afterBytes, change: (afterBytes - beforeBytes) / beforeBytes });
    }

    const processesAlive = processes.filter((each) => each.child.exitCode === null && each.child.signalCode === null).length;
    const measured = outcomes.filter((outcome) => outcome.sentAt >= endAt - options.seconds * 1000);
    const latency = Object.fromEntries(
      families.map(({ family }) => {
        const times = measured.filter((outcome) => outcome.family === family).map((outcome) => outcome.answeredAt - outcome.sentAt).sort((a, b) => a - b);
        return [family, { requests: times.length, p50Ms: percentile(times, 0.5), p99Ms: percentile(times, 0.99) }];
      }),
    ) as LoadFigures['latency'];
    const errors: Record<string, number> = {};
    for (const outcome of outcomes) if (outcome.result !== 'ok' && outcome.result !== 'limited') errors[outcome.result] = (errors[outcome.result] ?? 0) + 1;
    const windows = windowCounts(outcomes, options.limitPerMinute);
    const sql = connect(options.databaseUrl, { max: 1 });
    const [{ count: mentionsStored }] = await sql<{ count: number }[]>`select count(*)::int as count from mentions`;
    await sql.end();
    const { databaseUrl: _databaseUrl, ...shown } = options;
    return {
      options: shown,
      requests: outcomes.length,
      accepted: outcomes.filter((outcome) => outcome.result === 'ok').length,
      limited: outcomes.filter((outcome) => outcome.result === 'limited').length,
      errors,
      badEnvelopes: outcomes.flatMap((outcome) => (outcome.envelopeProblem ? [outcome.envelopeProblem] : [])).slice(0, 20),
      latency,
      windows,
      windowsHeld: windows.filter((window) => window.held).length,
      postsFed: hits.length,
      mentionsStored,
      deliveriesReceived: receiver.received.length,
      heap,
      processesAlive,
      wallSeconds: Math.round((Date.now() - started) / 1000),
    };
  } finally {
    for (const each of processes) await stopProcess(each);
    await hackerNews.close();
    await receiver.close();
  }
}

/** The figures as Markdown: the tables `npm run load` prints and RELIABILITY.md holds. */
export function loadReport(figures: LoadFigures): string {
  const { options } = figures;
  const held = figures.windows.filter((window) => window.held).length;
  const lines = [
    `${options.workspaces} workspaces for ${options.seconds} s (after a warm-up), each sending ${options.sendPerMinute} requests a minute against a budget of ${options.limitPerMinute}, over two Earshot processes on one PostgreSQL; ${figures.wallSeconds} s in all.`,
    '',
    `- Requests: ${figures.requests} (${figures.accepted} answered, ${figures.limited} refused by the budget: 429 \`rate_limited\`, or the tool error on MCP)`,
    `- Rate limit: held in ${held} of ${figures.windows.length} workspace-minutes: none took more than the budget, none refused a request before taking it (tolerance: requests sent in one minute and answered in the next, at most ${Math.max(0, ...figures.windows.map((window) => window.straddling))} in one, and requests answered 503, at most ${Math.max(0, ...figures.windows.map((window) => window.uncertain))} in one, and requests given up on in an earlier minute, at most ${Math.max(0, ...figures.windows.map((window) => window.late))} in one, and ${sparePlaces(options.limitPerMinute)} places of the count the other process may hold unused)`,
    ...figures.windows
      .filter((window) => !window.held)
      .map(
        (window) =>
          `  - did not hold: workspace ${window.workspace}, the minute from ${window.window} UTC: ${window.sent} sent, ${window.accepted} answered, ${window.limited} refused by the budget, ${window.straddling} answered in another minute, ${window.uncertain} answered otherwise, ${window.late} sent earlier and given up on`,
      ),
    `- Other answers: ${Object.keys(figures.errors).length ? Object.entries(figures.errors).map(([status, count]) => `${status}: ${count}`).join(', ') : 'none'}; answers outside their envelope: ${figures.badEnvelopes.length}`,
    `- Processes running at the end: ${figures.processesAlive} of 2`,
    `- Ingestion and deliveries: ${figures.postsFed} posts fed, ${figures.mentionsStored} mentions stored, ${figures.deliveriesReceived} webhook deliveries received`,
    '',
    '| Route family | Requests | p50 | p99 |',
    '|---|---:|---:|---:|',
    ...Object.entries(figures.latency).map(([family, figure]) => `| ${family} | ${figure.requests} | ${figure.p50Ms} ms | ${figure.p99Ms} ms |`),
    '',
    '| Process | Heap before (after GC) | Heap after (after GC) | Change |',
    '|---|---:|---:|---:|',
    ...figures.heap.map((each) => `| ${each.process} | ${(each.beforeBytes / 2 ** 20).toFixed(1)} MiB | ${(each.afterBytes / 2 ** 20).toFixed(1)} MiB | ${(each.change * 100).toFixed(1)} % |`),
  ];
  return lines.join('\n');
}
