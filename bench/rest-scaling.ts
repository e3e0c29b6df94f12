import { randomBytes } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import os from 'node:os';
import { connect, freePort } from '../runtime/database.ts';
import { migrate } from '../runtime/migrate.ts';
import type { Benchmark, BenchRow } from './benchmark.ts';
import { combinedLoad, generateLoad, type LoadResult, meanOfLoads } from './load-generator.ts';
import { answersHttp, type BenchProcess, startBenchProcess, startSubgraphProcesses } from './processes.ts';
import { seedRestWorkspace } from './rest-path.ts';
import { databaseBackendCpuSeconds } from './database-cpu.ts';

/** All the load generators together: the same total whether one facade takes it or two share it. */
const connections = 20;
/** `EARSHOT_BENCH_SECONDS=1` makes a short run, to check the benchmark works without the load of the real one. */
const secondsPerRound = Number(process.env.EARSHOT_BENCH_SECONDS ?? 5);
const warmUpSeconds = Math.min(3, secondsPerRound);
// The layouts take turns, so a machine whose background load drifts burdens both alike.
const rounds = 3;
const paths = ['/v1/whoami', '/v1/mentions'] as const;

/** A deployment answering REST on `url`, and its processes. */
interface Deployment {
  url: string;
  processes: BenchProcess[];
}

/**
 * One request path of processes of its own: the four subgraphs
 * (`--role subgraph:<name>`), a gateway pointed at them and a facade pointed
 * at that gateway. Every process it starts is added to `started` as soon
 * as it answers, so the caller stops them whatever fails later.
 */
async function startRequestPath(common: Record<string, string>, started: BenchProcess[]): Promise<Deployment> {
  const processes: BenchProcess[] = [];
  const keep = (child: BenchProcess) => {
    processes.push(child);
    started.push(child);
  };
  const subgraphs = await startSubgraphProcesses(common);
  subgraphs.processes.forEach(keep);
  const gatewayPort = await freePort();
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  keep(await startBenchProcess('main.ts', ['--role', 'gateway'], { ...common, ...subgraphs.gatewayEnv, PORT: String(gatewayPort) }, () => answersHttp(`${gatewayUrl}/graphql`)));
  const facadePort = await freePort();
  const url = `http://127.0.0.1:${facadePort}`;
  keep(await startBenchProcess('main.ts', ['--role', 'facade'], { ...common, EARSHOT_GATEWAY_URL: gatewayUrl, PORT: String(facadePort) }, () => answersHttp(`${url}/v1/whoami`)));
  return { url, processes };
}

/** One `--role all` process: facade, gateway, subgraphs (in process) and a worker. */
async function startAllInOne(common: Record<string, string>, started: BenchProcess[]): Promise<Deployment> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = await startBenchProcess('main.ts', ['--role', 'all'], { ...common, PORT: String(port) }, () => answersHttp(`${url}/v1/whoami`));
  started.push(child);
  return { url, processes: [child] };
}

interface Turn {
  load: LoadResult;
  /** CPU time of the deployments' Node processes and of the database's backends during the turn. */
  nodeCpuMs: number;
  databaseCpuMs: number;
}

/** One turn on `deployments`, the connections split evenly, one autocannon process per deployment, all at once. */
async function turn(deployments: Deployment[], databaseUrl: string, path: string, headers: Record<string, string>, seconds: number): Promise<Turn> {
  const nodeCpu = () => deployments.flatMap((deployment) => deployment.processes).reduce((sum, child) => sum + child.cpuMs(), 0);
  const databaseCpu = () => (databaseBackendCpuSeconds(databaseUrl) ?? Number.NaN) * 1000;
  const [nodeBefore, databaseBefore] = [nodeCpu(), databaseCpu()];
  const share = connections / deployments.length;
  const load = combinedLoad(await Promise.all(deployments.map(({ url }) => generateLoad({ url: `${url}${path}`, headers, connections: share, seconds }))));
  if (load.failures > 0) throw new Error(`${path} on ${deployments.length} deployment(s): ${load.failures} failed requests`);
  return { load, nodeCpuMs: nodeCpu() - nodeBefore, databaseCpuMs: databaseCpu() - databaseBefore };
}

/**
 * Issue 18 aim 7, the request path: `GET /v1/whoami` and the first page of
 * `GET /v1/mentions` through one, then two, processes of each request-path
 * role (facade, gateway, each subgraph) on one shared PostgreSQL, and the
 * scaling factor; beside it, one and two all-in-one processes (what
 * `npm start` runs), where the hops between roles are calls in process.
 * Every process runs from the start and the layouts take turns, a
 * one-process layout loading the first of its pair alone.
 */
export const restScaling: Benchmark = {
  name: 'REST scale-out: one and two processes of each role',
  async run(environment) {
    const [loadAtStart] = os.loadavg();
    const databaseUrl = await environment.createDatabase();
    const sql = connect(databaseUrl);
    const processes: BenchProcess[] = [];
    try {
      await migrate(sql);
      const { apiKey } = await seedRestWorkspace(sql);
      const common = {
        DATABASE_URL: databaseUrl,
        HOST: '127.0.0.1',
        EARSHOT_GATEWAY_SECRET: randomBytes(32).toString('base64url'),
        // Given, so no process writes a key file of its own under the working directory.
        EARSHOT_SECRETS_KEY: randomBytes(32).toString('base64'),
        EARSHOT_LOG_LEVEL: 'warn',
        EARSHOT_BLUESKY_LIVE: '0',
        // High enough that the run never meets it; every request is still counted, as in production.
        EARSHOT_RATE_LIMIT_PER_MINUTE: '1000000000',
      };
      const requestPaths = [await startRequestPath(common, processes), await startRequestPath(common, processes)];
      const allInOne = [await startAllInOne(common, processes), await startAllInOne(common, processes)];
      const layouts = [
        { label: 'facade, gateway, subgraphs: one process', deployments: requestPaths.slice(0, 1) },
        { label: 'facade, gateway, subgraphs: two processes', deployments: requestPaths },
        { label: 'all-in-one (`--role all`): one process', deployments: allInOne.slice(0, 1) },
        { label: 'all-in-one (`--role all`): two processes', deployments: allInOne },
      ];
      const headers = { authorization: `Bearer ${apiKey}` };

      const rows: BenchRow[] = [];
      for (const path of paths) {
        const bodies = await Promise.all([...requestPaths, ...allInOne].map(async ({ url }) => (await fetch(`${url}${path}`, { headers })).json()));
        if (bodies.some((body) => !isDeepStrictEqual(body, bodies[0]))) throw new Error(`${path}: the deployments answer differently:\n${bodies.map((body) => JSON.stringify(body)).join('\n')}`);
        for (const layout of layouts) await turn(layout.deployments, databaseUrl, path, headers, warmUpSeconds);
        const samples: Turn[][] = layouts.map(() => []);
        for (let round = 0; round < rounds; round++) {
          for (const [i, layout] of layouts.entries()) samples[i].push(await turn(layout.deployments, databaseUrl, path, headers, secondsPerRound));
        }
        const loads = samples.map((turns) => meanOfLoads(turns.map((sample) => sample.load)));
        for (const [i, layout] of layouts.entries()) {
          const perRequest = (pick: (sample: Turn) => number) => samples[i].reduce((sum, sample) => sum + pick(sample), 0) / loads[i].requests;
          // Layouts come in pairs, one process then two of the same kind.
          const scaling = loads[i].requestsPerSecond / loads[i - (i % 2)].requestsPerSecond;
          rows.push({
            label: `${path}, ${layout.label}`,
            values: [
              loads[i].requestsPerSecond,
              loads[i].p50Ms,
              loads[i].p99Ms,
              String(loads[i].failures),
              perRequest((sample) => sample.nodeCpuMs),
              perRequest((sample) => sample.databaseCpuMs),
              `${scaling.toFixed(2)}×`,
            ],
          });
        }
      }
      // autocannon stops with requests still in flight; let them finish before the servers go away.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      return {
        description:
          `On one PostgreSQL, one workspace, its API key and 2,000 mentions: two request paths, each a facade → its own gateway → its own four subgraph processes ` +
          `(no worker: the REST path does not use one), and two \`--role all\` processes. A one-process layout loads the first facade of its pair with ${connections} connections; ` +
          `a two-process layout both at once, ${connections / 2} connections each from an autocannon process each, requests/s summed and p50/p99 the request-weighted mean of the two. ` +
          `After a ${warmUpSeconds} s warm-up each, the layouts take ${rounds} turns of ${secondsPerRound} s per route; figures are the means of the turns, CPU time per request from /proc (the layout's Node processes, and all of the database's backends: the idle deployments add only the workers' polling of the \`--role all\` processes); scaling is two processes' requests/s over one's. ` +
          `PostgreSQL, the load generators and all the processes share the machine's ${os.cpus().length} cores; load average ${loadAtStart.toFixed(1)} when this benchmark began, ${os.loadavg()[0].toFixed(1)} when it ended`,
        columns: ['req/s', 'p50 ms', 'p99 ms', 'failed requests', 'Node CPU ms / request', 'PostgreSQL CPU ms / request', 'scaling'],
        rows,
      };
    } finally {
      await Promise.all(processes.map((process) => process.stop()));
      await sql.end();
    }
  },
};
