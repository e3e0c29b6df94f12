import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runEachJob } from '../jobs/each-job.ts';
import type { JobDefinition } from '../jobs/job-definition.ts';
import { type JobQueue, startJobQueue } from '../jobs/job-queue.ts';
import { systemClock } from '../runtime/clock.ts';
import { connect, type Sql } from '../runtime/database.ts';
import { createLogger } from '../runtime/logger.ts';
import { createTestDatabase, eventually, testSecrets } from './harness.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('a batch in which one job fails', () => {
  // pg-boss fails a batch whole: a failing look-back ran the regular polls beside it again, each recorded twice.
  it('retries the failing job alone; the others of its batch complete and run once', async () => {
    const url = await createTestDatabase();
    const sql: Sql = connect(url, { max: 4 });
    cleanups.push(() => sql.end());
    const runs: number[] = [];
    const partlyFailing: JobDefinition<{ n: number }> = {
      name: 'partly-failing',
      payload: z.object({ n: z.number() }),
      batchSize: 4,
      retryLimit: 1,
      retryDelaySeconds: 1,
      retryBackoff: false,
      async handle(payloads) {
        await runEachJob(payloads, async ({ n }) => {
          runs.push(n);
          if (n === 2) throw new Error('the second job fails');
        });
      },
    };
    const options = { sql, databaseUrl: url, definitions: [partlyFailing], clock: systemClock, log: createLogger('silent'), config: { pollIntervalSeconds: 300, env: {} }, secrets: testSecrets };
    // Sent before any worker runs, so that one fetch takes all three.
    const sender: JobQueue = await startJobQueue({ ...options, work: false });
    const ids: (string | null)[] = [];
    for (const n of [1, 2, 3]) ids.push(await sender.send('partly-failing', { n }));
    await sender.stop();
    const worker = await startJobQueue({ ...options, work: true });
    cleanups.push(() => worker.stop());

    const states = () => sql<{ id: string; state: string; retryCount: number }[]>`select id, state, retry_count from pgboss.job where id = any(${ids as string[]}) order by data->>'n'`;
    const settled = await eventually(states, (jobs) => jobs.every((job) => job.state === 'completed' || job.state === 'failed'), 20_000);
    expect(settled.map(({ state, retryCount }) => ({ state, retryCount }))).toEqual([
      { state: 'completed', retryCount: 0 },
      { state: 'failed', retryCount: 1 },
      { state: 'completed', retryCount: 0 },
    ]);
    expect(runs.sort()).toEqual([1, 2, 2, 3]);
  });
});
