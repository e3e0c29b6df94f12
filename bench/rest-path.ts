import { isDeepStrictEqual } from 'node:util';
import { readConfig } from '../runtime/config.ts';
import { connect, type Sql } from '../runtime/database.ts';
import { startEarshot } from '../server/start.ts';
import { createKeyword } from '../subgraphs/keywords/index.ts';
import { provisionWorkspace } from '../subgraphs/team/index.ts';
import type { Benchmark, BenchRow } from './benchmark.ts';
import { generateLoad, type LoadResult, meanOfLoads } from './load-generator.ts';
import { seedMentions } from './mentions-list-export.ts';
import { startRestBaseline } from './rest-baseline.ts';
import { countStatements, trackStatements } from './statement-counts.ts';

const connections = 20;
const warmUpSeconds = 3;
// The targets take turns, so a machine whose background load drifts burdens both alike.
const rounds = 3;
const secondsPerRound = 5;
// High enough that the run never meets it; every request is still counted, as in production.
const rateLimitPerMinute = 1_000_000_000;
/** Issue 18's aims for the REST path: at least half the bare handler's requests/s, a p50 at most twice its. */
const aims = { throughputShare: 0.5, p50Ratio: 2 };
/** Requests made one by one while pg_stat_statements counts their statements. */
const countedRequests = 50;
const paths = ['/v1/whoami', '/v1/mentions'] as const;

/** The workspace the REST benchmarks read: two keywords, 2,000 mentions by 200 authors, and its API key. */
export async function seedRestWorkspace(sql: Sql): Promise<{ apiKey: string }> {
  const { workspace, apiKey, owner } = await provisionWorkspace(sql, 'Bench', { ownerEmail: 'owner@bench.example' });
  const keywordIds = [];
  for (const term of ['Acme', 'Widget']) keywordIds.push((await createKeyword(sql, workspace.id, { term, platforms: [] }, {})).keyword.id);
  await seedMentions(sql, workspace.id, keywordIds, owner!.id, { mentions: 2000, authors: 200 });
  return { apiKey };
}

/**
 * `GET /v1/whoami` and the first page of `GET /v1/mentions` (50 of 2,000
 * mentions) through the whole REST path (public port → facade → gateway →
 * subgraphs → PostgreSQL) against a bare Node handler making the same reads
 * with the same store functions but counting no rate limit, on the same
 * database and key; with the SQL statements each makes per request.
 */
export const restPath: Benchmark = {
  name: 'REST path: GET /v1/whoami and GET /v1/mentions, full path vs bare handler',
  async run(environment) {
    const databaseUrl = await environment.createDatabase();
    await trackStatements(environment.adminUrl, databaseUrl);
    // The live Bluesky stream would measure the network, not the request path.
    const config = { ...readConfig({}), databaseUrl, port: 0, host: '127.0.0.1', logLevel: 'warn' as const, rateLimitPerMinute, blueskyLive: false };
    const earshot = await startEarshot(config, 'all', environment.log);
    const sql = connect(databaseUrl);
    const baseline = await startRestBaseline(sql);
    try {
      const { apiKey } = await seedRestWorkspace(sql);
      const headers = { authorization: `Bearer ${apiKey}` };

      const rows: BenchRow[] = [];
      const verdicts: string[] = [];
      for (const path of paths) {
        const targets = { baseline: `${baseline.url}${path}`, earshot: `${earshot.url}${path}` };
        const bodies = await Promise.all(Object.values(targets).map(async (url) => (await fetch(url, { headers })).json()));
        if (!isDeepStrictEqual(bodies[0], bodies[1])) throw new Error(`${path}: the two targets answer differently:\n${bodies.map((body) => JSON.stringify(body)).join('\n')}`);
        const statements = {
          baseline: await countStatements(environment.adminUrl, databaseUrl, countedRequests, async () => void (await fetch(targets.baseline, { headers })).arrayBuffer()),
          earshot: await countStatements(environment.adminUrl, databaseUrl, countedRequests, async () => void (await fetch(targets.earshot, { headers })).arrayBuffer()),
        };
        process.stderr.write(`${path} statements per request through Earshot: ${statements.earshot.byName.map((entry) => `${entry.name} ${entry.perRequest.toFixed(2)}`).join(', ')}\n`);

        const names = Object.keys(targets) as (keyof typeof targets)[];
        for (const name of names) await generateLoad({ url: targets[name], headers, connections, seconds: warmUpSeconds });
        const samples: Record<keyof typeof targets, LoadResult[]> = { baseline: [], earshot: [] };
        for (let round = 0; round < rounds; round++) {
          for (const name of names) {
            const sample = await generateLoad({ url: targets[name], headers, connections, seconds: secondsPerRound });
            if (sample.failures > 0) throw new Error(`${path} ${name}: ${sample.failures} failed requests`);
            samples[name].push(sample);
          }
        }
        const [bare, full] = [meanOfLoads(samples.baseline), meanOfLoads(samples.earshot)];
        const share = full.requestsPerSecond / bare.requestsPerSecond;
        const p50Ratio = full.p50Ms / bare.p50Ms;
        rows.push(
          { label: `${path} baseline: bare Node handler, same reads, no rate-limit count`, values: [bare.requestsPerSecond, bare.p50Ms, bare.p99Ms, statements.baseline.perRequest] },
          { label: `${path} Earshot: facade → gateway → subgraphs`, values: [full.requestsPerSecond, full.p50Ms, full.p99Ms, statements.earshot.perRequest] },
          {
            label: `${path} ratio Earshot / baseline`,
            values: [share, p50Ratio, full.p99Ms / bare.p99Ms, statements.earshot.perRequest / statements.baseline.perRequest].map((ratio) => `${ratio.toFixed(2)}x`),
          },
        );
        const met = share >= aims.throughputShare && p50Ratio <= aims.p50Ratio;
        verdicts.push(`${path}: ${met ? 'met' : 'not met'} (${(100 * share).toFixed(0)}% of the requests/s, p50 ${p50Ratio.toFixed(1)}x)`);
      }
      // autocannon stops with requests still in flight; let them finish before the servers go away.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      return {
        description:
          `autocannon in a child process, ${connections} connections; after a ${warmUpSeconds} s warm-up each, ` +
          `the targets take ${rounds} turns of ${secondsPerRound} s per route; figures are the means of the turns. ` +
          `SQL statements per request counted by pg_stat_statements over ${countedRequests} requests made one by one (the job queue's own left out)`,
        columns: ['req/s', 'p50 ms', 'p99 ms', 'SQL statements / request'],
        rows,
        verdict: `aim ≥ ${100 * aims.throughputShare}% of the baseline's requests/s and p50 ≤ ${aims.p50Ratio}x: ${verdicts.join('; ')}`,
      };
    } finally {
      await baseline.close();
      await sql.end();
      await earshot.stop();
    }
  },
};
