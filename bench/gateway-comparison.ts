import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { subgraphNames } from '../runtime/config.ts';
import { connect, freePort } from '../runtime/database.ts';
import type { RequestAuth } from '../runtime/gateway-signature.ts';
import { migrate } from '../runtime/migrate.ts';
import { createKeyword } from '../subgraphs/keywords/index.ts';
import { provisionWorkspace } from '../subgraphs/team/index.ts';
import type { Benchmark, BenchRow } from './benchmark.ts';
import { databaseBackendCpuSeconds } from './database-cpu.ts';
import { generateLoad, type LoadResult, meanOfLoads } from './load-generator.ts';
import { seedMentions } from './mentions-list-export.ts';
import { answersHttp, type BenchProcess, startBenchProcess, startSubgraphProcesses } from './processes.ts';
import { countStatements, trackStatements } from './statement-counts.ts';

const connections = 20;
const warmUpSeconds = 3;
const rounds = 3;
const secondsPerRound = 5;
const countedRequests = 30;
const supergraphPath = fileURLToPath(new URL('../schema/supergraph.graphql', import.meta.url));

/** The three-subgraph query of issue 18: team (whoami), billing (the wallet), keywords (stats and cost of a page). */
const threeSubgraphQuery = `{
  whoami { workspace { id name wallet { status balanceCents pendingCents effectiveCents dailyBurnCents } } auth { kind scope apiKeyId expiresAt } }
  keywords(first: 10) {
    nodes {
      id term
      stats {
        mentions relevant last7d thisMonth lastMentionAt
        noise { scored relevant noisy }
        health
        cost { keywordDays keywordCents billableMentions mentionCents billableComments commentCents totalCents }
      }
    }
  }
}`;
/** `bare`: a node:http server answering `{ __typename }` with its fixed answer and doing nothing else, measured beside the gateways as the ceiling of that query on this machine. */
const queries = [
  { label: '`{ __typename }`', query: '{ __typename }', aim: 3, bare: true },
  { label: 'three-subgraph query (whoami + wallet + 10 keywords with stats and cost)', query: threeSubgraphQuery, aim: 1.5, bare: false },
];

interface Target {
  name: 'earshot' | 'apollo' | 'bare';
  url: string;
  process: BenchProcess;
}

interface Sample extends LoadResult {
  gatewayCpuMsPerRequest: number;
  /** The four subgraph processes and PostgreSQL's backends together, shared by both gateways: each serves one gateway's turn at a time. */
  backendCpuMsPerRequest: number;
}

/** What the gateways share: the subgraph processes and the benchmark's database. */
interface Backends {
  processes: BenchProcess[];
  databaseUrl: string;
}

/** CPU ms used so far by each subgraph process (in `subgraphNames` order, as started) and by the database's backends. */
const sharedCpuMs = ({ processes, databaseUrl }: Backends): Record<string, number> => ({
  ...Object.fromEntries(subgraphNames.map((name, index) => [name, processes[index].cpuMs()])),
  PostgreSQL: 1000 * (databaseBackendCpuSeconds(databaseUrl) ?? 0),
});

const backendCpuMs = (backends: Backends) => Object.values(sharedCpuMs(backends)).reduce((sum, ms) => sum + ms, 0);

function meanOf(samples: Sample[]): Sample {
  const mean = (key: 'gatewayCpuMsPerRequest' | 'backendCpuMsPerRequest') => samples.reduce((sum, sample) => sum + sample[key], 0) / samples.length;
  return { ...meanOfLoads(samples), gatewayCpuMsPerRequest: mean('gatewayCpuMsPerRequest'), backendCpuMsPerRequest: mean('backendCpuMsPerRequest') };
}

/** The first answer without an error, asked up to 5 times: a gateway's first plan of a query, and its subgraphs' first reads, may overrun the request deadline on a busy machine. */
async function firstAnswer(url: string, headers: Record<string, string>, body: string): Promise<Record<string, unknown>> {
  let answer: Record<string, unknown> = {};
  for (let attempt = 0; attempt < 5; attempt++) {
    answer = (await (await fetch(url, { method: 'POST', headers, body })).json()) as Record<string, unknown>;
    if (!('errors' in answer)) break;
  }
  return answer;
}

async function measure(target: Target, backends: Backends, body: string, headers: Record<string, string>, seconds: number): Promise<Sample> {
  const [cpuBefore, backendBefore] = [target.process.cpuMs(), backendCpuMs(backends)];
  const load = await generateLoad({ url: target.url, headers, body, connections, seconds });
  if (load.failures > 0) throw new Error(`${target.name}: ${load.failures} failed requests`);
  return {
    ...load,
    gatewayCpuMsPerRequest: (target.process.cpuMs() - cpuBefore) / load.requests,
    backendCpuMsPerRequest: (backendCpuMs(backends) - backendBefore) / load.requests,
  };
}

/**
 * Earshot's gateway (Hive Gateway runtime, with its plugins: API key,
 * rate limit, request limits, signing) against Apollo Gateway
 * (`@apollo/gateway` on `@apollo/server`) over the same supergraph and the
 * same four subgraph processes, taking turns in one run; each gateway a
 * process of its own, its CPU time per request read from /proc.
 */
export const gatewayComparison: Benchmark = {
  name: 'Gateways: Earshot vs Apollo Gateway, same supergraph and subgraphs',
  async run(environment) {
    const databaseUrl = await environment.createDatabase();
    await trackStatements(environment.adminUrl, databaseUrl);
    const sql = connect(databaseUrl);
    const processes: BenchProcess[] = [];
    try {
      await migrate(sql);
      const { workspace, apiKey, owner } = await provisionWorkspace(sql, 'Bench', { ownerEmail: 'owner@bench.example' });
      const keywordIds = [];
      for (let k = 0; k < 10; k++) keywordIds.push((await createKeyword(sql, workspace.id, { term: `Acme${k}`, platforms: [] }, {})).keyword.id);
      await seedMentions(sql, workspace.id, keywordIds, owner!.id, { mentions: 5000, authors: 500 });
      const [key] = await sql<{ id: string; scope: 'read' | 'write' }[]>`select id, scope from api_keys where workspace_id = ${workspace.id}`;

      const secret = randomBytes(32).toString('base64url');
      const common = { DATABASE_URL: databaseUrl, HOST: '127.0.0.1', EARSHOT_GATEWAY_SECRET: secret, EARSHOT_LOG_LEVEL: 'warn', EARSHOT_BLUESKY_LIVE: '0' };
      const subgraphs = await startSubgraphProcesses(common);
      processes.push(...subgraphs.processes);
      const subgraphUrls = subgraphs.urls;
      const earshotPort = await freePort();
      const earshotUrl = `http://127.0.0.1:${earshotPort}/graphql`;
      const earshotGateway = await startBenchProcess(
        'main.ts',
        ['--role', 'gateway'],
        {
          ...common,
          PORT: String(earshotPort),
          EARSHOT_RATE_LIMIT_PER_MINUTE: '1000000000',
          ...subgraphs.gatewayEnv,
        },
        () => answersHttp(earshotUrl),
      );
      processes.push(earshotGateway);
      const apolloPort = await freePort();
      const apolloUrl = `http://127.0.0.1:${apolloPort}/`;
      const auth: RequestAuth = { workspaceId: workspace.id, kind: 'api_key', scope: key.scope, apiKeyId: key.id, expiresAt: null, userId: null };
      const apolloGateway = await startBenchProcess(
        'bench/apollo-gateway-server.ts',
        [JSON.stringify({ port: apolloPort, supergraphPath, subgraphUrls, secret, context: { auth, requestId: 'bench', clientAddress: null } })],
        {},
        () => answersHttp(apolloUrl),
      );
      processes.push(apolloGateway);
      const barePort = await freePort();
      const bareUrl = `http://127.0.0.1:${barePort}/`;
      const bareServer = await startBenchProcess('bench/bare-answer-server.ts', [String(barePort)], {}, () => answersHttp(bareUrl));
      processes.push(bareServer);

      const gateways: Target[] = [
        { name: 'earshot', url: earshotUrl, process: earshotGateway },
        { name: 'apollo', url: apolloUrl, process: apolloGateway },
      ];
      const bare: Target = { name: 'bare', url: bareUrl, process: bareServer };
      const backends: Backends = { processes: subgraphs.processes, databaseUrl };
      const headers = { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` };
      const rows: BenchRow[] = [];
      const verdicts: string[] = [];
      for (const { label, query, aim, bare: withBare } of queries) {
        const targets = withBare ? [...gateways, bare] : gateways;
        const body = JSON.stringify({ query });
        const answers = await Promise.all(targets.map((target) => firstAnswer(target.url, headers, body)));
        if (answers.some((answer) => !isDeepStrictEqual(answer, answers[0])) || 'errors' in answers[0]) {
          throw new Error(`${label}: the gateways answer differently or fail:\n${answers.map((answer) => JSON.stringify(answer)).join('\n')}`);
        }
        const statements = await countStatements(environment.adminUrl, databaseUrl, countedRequests, async () => {
          await (await fetch(earshotUrl, { method: 'POST', headers, body })).arrayBuffer();
        });
        process.stderr.write(
          `${label}, SQL per request through Earshot (count, mean ms):\n${statements.byName.map((entry) => `  ${entry.perRequest.toFixed(2)}  ${entry.meanMs.toFixed(2)} ms  ${entry.name}`).join('\n')}\n`,
        );
        for (const target of targets) await measure(target, backends, body, headers, warmUpSeconds);
        const samples: Record<Target['name'], Sample[]> = { earshot: [], apollo: [], bare: [] };
        const sharedBefore = sharedCpuMs(backends);
        for (let round = 0; round < rounds; round++) for (const target of targets) samples[target.name].push(await measure(target, backends, body, headers, secondsPerRound));
        const served = [...samples.earshot, ...samples.apollo, ...samples.bare].reduce((sum, sample) => sum + sample.requests, 0);
        const sharedAfter = sharedCpuMs(backends);
        process.stderr.write(
          `${label}, CPU ms per request of what both gateways share: ${Object.keys(sharedAfter)
            .map((name) => `${name} ${((sharedAfter[name] - sharedBefore[name]) / served).toFixed(2)}`)
            .join(', ')}\n`,
        );
        const [earshot, apollo] = [meanOf(samples.earshot), meanOf(samples.apollo)];
        const ratio = earshot.requestsPerSecond / apollo.requestsPerSecond;
        rows.push(
          { label: `${label}: Earshot gateway (authenticates, counts the rate limit)`, values: [earshot.requestsPerSecond, earshot.p50Ms, earshot.p99Ms, earshot.gatewayCpuMsPerRequest, earshot.backendCpuMsPerRequest, statements.perRequest] },
          { label: `${label}: Apollo Gateway (fixed signed context, no auth or rate limit)`, values: [apollo.requestsPerSecond, apollo.p50Ms, apollo.p99Ms, apollo.gatewayCpuMsPerRequest, apollo.backendCpuMsPerRequest, ''] },
          {
            label: `${label}: ratio Earshot / Apollo`,
            values: [
              ratio,
              earshot.p50Ms / apollo.p50Ms,
              earshot.p99Ms / apollo.p99Ms,
              earshot.gatewayCpuMsPerRequest / apollo.gatewayCpuMsPerRequest,
              earshot.backendCpuMsPerRequest / apollo.backendCpuMsPerRequest,
            ]
              .map((value) => `${value.toFixed(2)}x`)
              .concat(''),
          },
        );
        if (withBare) {
          const ceiling = meanOf(samples.bare);
          const ceilingRatio = ceiling.requestsPerSecond / apollo.requestsPerSecond;
          rows.push(
            { label: `${label}: bare node:http server (the fixed answer; no GraphQL, no auth)`, values: [ceiling.requestsPerSecond, ceiling.p50Ms, ceiling.p99Ms, ceiling.gatewayCpuMsPerRequest, '', ''] },
            { label: `${label}: ratio bare server / Apollo (the most any Node gateway could reach here)`, values: [`${ceilingRatio.toFixed(2)}x`, '', '', `${(ceiling.gatewayCpuMsPerRequest / apollo.gatewayCpuMsPerRequest).toFixed(2)}x`, '', ''] },
          );
        }
        verdicts.push(`${label} ≥ ${aim}x: ${ratio >= aim ? 'met' : 'not met'} (${ratio.toFixed(2)}x)`);
      }
      await new Promise((resolve) => setTimeout(resolve, 2000));
      return {
        description:
          `Four subgraph processes (\`--role subgraph:<name>\`) shared by both gateways, each gateway a process of its own, and for \`{ __typename }\` a third turn: a bare node:http server answering its fixed answer, the ceiling on this machine; autocannon in a child process, ${connections} connections, POST /graphql; ` +
          `after a ${warmUpSeconds} s warm-up each, the gateways take ${rounds} turns of ${secondsPerRound} s per query; figures are the means of the turns, gateway CPU from /proc, ` +
          `and so the CPU of what both share (the four subgraph processes and the database's backends) during each gateway's turns. ` +
          `SQL statements per request (all four subgraphs and Earshot's gateway) counted by pg_stat_statements over ${countedRequests} requests made one by one`,
        columns: ['req/s', 'p50 ms', 'p99 ms', 'gateway CPU ms / request', 'subgraphs + PostgreSQL CPU ms / request', 'SQL statements / request'],
        rows,
        verdict: `aims: ${verdicts.join('; ')}`,
      };
    } finally {
      await Promise.all(processes.map((child) => child.stop()));
      await sql.end();
    }
  },
};
