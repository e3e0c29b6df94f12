import { readConfig } from '../runtime/config.ts';
import { connect } from '../runtime/database.ts';
import { startEarshot } from '../server/start.ts';
import { provisionWorkspace } from '../subgraphs/team/index.ts';
import type { Benchmark } from './benchmark.ts';
import { generateLoad, type LoadResult } from './load-generator.ts';
import { startWhoamiBaseline } from './whoami-baseline.ts';

const connections = 20;
const warmUpSeconds = 3;
// The targets take turns, so a machine whose background load drifts burdens both alike.
const rounds = 3;
const secondsPerRound = 5;
// High enough that the run never meets it; every request is still counted, as in production.
const rateLimitPerMinute = 1_000_000_000;
// Issue 2's aim for the REST path: a p50 within 3x of the bare handler's.
const aimedP50Ratio = 3;

function meanOf(samples: LoadResult[]): LoadResult {
  const mean = (pick: (sample: LoadResult) => number) => samples.reduce((sum, sample) => sum + pick(sample), 0) / samples.length;
  return {
    requestsPerSecond: mean((sample) => sample.requestsPerSecond),
    p50Ms: mean((sample) => sample.p50Ms),
    p99Ms: mean((sample) => sample.p99Ms),
    requests: samples.reduce((sum, sample) => sum + sample.requests, 0),
    failures: samples.reduce((sum, sample) => sum + sample.failures, 0),
  };
}

/**
 * GET /v1/whoami through the whole REST path (public port → facade →
 * gateway → team subgraph → PostgreSQL) against a bare Node handler running
 * the same SQL, on the same database and the same key.
 */
export const whoamiPath: Benchmark = {
  name: 'GET /v1/whoami: full path vs bare handler',
  async run(environment) {
    const databaseUrl = await environment.createDatabase();
    // The live Bluesky stream would measure the network, not the request path.
    const config = { ...readConfig({}), databaseUrl, port: 0, host: '127.0.0.1', logLevel: 'warn' as const, rateLimitPerMinute, blueskyLive: false };
    const earshot = await startEarshot(config, 'all', environment.log);
    const sql = connect(databaseUrl);
    const baseline = await startWhoamiBaseline(sql, rateLimitPerMinute);
    try {
      const { apiKey } = await provisionWorkspace(sql, 'Bench');
      const headers = { authorization: `Bearer ${apiKey}` };
      const targets = { baseline: `${baseline.url}/v1/whoami`, earshot: `${earshot.url}/v1/whoami` };

      const bodies = await Promise.all(Object.values(targets).map(async (url) => (await fetch(url, { headers })).text()));
      if (bodies[0] !== bodies[1]) throw new Error(`The two targets answer differently:\n${bodies.join('\n')}`);

      const names = Object.keys(targets) as (keyof typeof targets)[];
      for (const name of names) await generateLoad({ url: targets[name], headers, connections, seconds: warmUpSeconds });
      const samples: Record<keyof typeof targets, LoadResult[]> = { baseline: [], earshot: [] };
      for (let round = 0; round < rounds; round++) {
        for (const name of names) {
          const sample = await generateLoad({ url: targets[name], headers, connections, seconds: secondsPerRound });
          if (sample.failures > 0) throw new Error(`${name}: ${sample.failures} failed requests`);
          samples[name].push(sample);
        }
      }
      // autocannon stops with requests still in flight; let them finish before the servers go away.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const [bare, full] = [meanOf(samples.baseline), meanOf(samples.earshot)];
      const p50Ratio = full.p50Ms / bare.p50Ms;
      return {
        description:
          `autocannon in a child process, ${connections} connections; after a ${warmUpSeconds} s warm-up each, ` +
          `the targets take ${rounds} turns of ${secondsPerRound} s; figures are the means of the turns`,
        columns: ['req/s', 'p50 ms', 'p99 ms'],
        rows: [
          { label: 'baseline: bare Node handler, same SQL', values: [bare.requestsPerSecond, bare.p50Ms, bare.p99Ms] },
          { label: 'Earshot: facade → gateway → subgraph', values: [full.requestsPerSecond, full.p50Ms, full.p99Ms] },
          {
            label: 'ratio Earshot / baseline',
            values: [full.requestsPerSecond / bare.requestsPerSecond, p50Ratio, full.p99Ms / bare.p99Ms].map((ratio) => `${ratio.toFixed(2)}x`),
          },
        ],
        verdict: `aim p50 ≤ ${aimedP50Ratio}x baseline: ${p50Ratio <= aimedP50Ratio ? 'met' : 'not met'} (${p50Ratio.toFixed(1)}x)`,
      };
    } finally {
      await baseline.close();
      await sql.end();
      await earshot.stop();
    }
  },
};
