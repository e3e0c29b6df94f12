import { performance } from 'node:perf_hooks';
import { leasedCounter } from '../gateway/plugins/use-rate-limit.ts';
import { connect } from '../runtime/database.ts';
import { migrate } from '../runtime/migrate.ts';
import { authenticateApiKey, countWorkspaceRequest, provisionWorkspace, startApiKeyCache } from '../subgraphs/team/index.ts';
import type { Benchmark } from './benchmark.ts';

/** Callers at once, as the REST path's 20 connections would be. */
const concurrency = 20;
const secondsPerCase = 3;

/** Calls a second and mean latency of `call`, made by `concurrency` callers at once for `secondsPerCase`. */
async function rate(call: () => Promise<unknown>): Promise<[number, number]> {
  const until = performance.now() + secondsPerCase * 1000;
  let calls = 0;
  let busyMs = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        const begun = performance.now();
        await call();
        busyMs += performance.now() - begun;
        calls++;
      }
    }),
  );
  return [calls / ((performance.now() - started) / 1000), (busyMs / calls) * 1000];
}

/**
 * The REST path's two per-request database costs measured alone, each
 * before and after its change, on one database: counting the request
 * against the rate limit (`request_budgets` logged, as before migration
 * 034, and unlogged, whose commit waits for no disk flush, and claimed in
 * blocks by the gateway's counter), and finding
 * the API key (a statement every request, and the per-process cache).
 */
export const restLevers: Benchmark = {
  name: 'REST levers: rate-limit count and API key lookup, before and after',
  async run(environment) {
    const sql = connect(await environment.createDatabase(), { max: concurrency });
    const cache = await (async () => {
      await migrate(sql);
      return startApiKeyCache(sql);
    })();
    try {
      const { workspace, apiKey } = await provisionWorkspace(sql, 'Bench');
      await sql`alter table request_budgets set logged`;
      const logged = await rate(() => countWorkspaceRequest(sql, workspace.id));
      await sql`alter table request_budgets set unlogged`;
      const unlogged = await rate(() => countWorkspaceRequest(sql, workspace.id));
      const countInBlocks = leasedCounter(1_000_000_000, (workspaceId, requests) => countWorkspaceRequest(sql, workspaceId, requests));
      const inBlocks = await rate(() => countInBlocks(workspace.id));
      const fromDatabase = await rate(() => authenticateApiKey(sql, apiKey));
      const fromMemory = await rate(() => cache.authenticate(apiKey));
      return {
        description: `${concurrency} callers at once in the bench process for ${secondsPerCase} s per case, one workspace, one key; PostgreSQL with the durability \`npm start\` uses`,
        columns: ['calls/s', 'mean µs / call'],
        rows: [
          { label: 'rate-limit count, `request_budgets` logged (before 034): a WAL flush per commit', values: logged },
          { label: 'rate-limit count, `request_budgets` unlogged (034)', values: unlogged },
          { label: 'rate-limit count claimed in blocks per process (at most 50 places a statement; budget far from reached)', values: inBlocks },
          { label: 'API key lookup: a statement per request (before)', values: fromDatabase },
          { label: 'API key lookup: per-process cache, LISTEN/NOTIFY invalidation (035)', values: fromMemory },
        ],
      };
    } finally {
      await cache.stop();
      await sql.end();
    }
  },
};
