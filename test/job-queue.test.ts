import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runEachJob } from '../jobs/each-job.ts';
import type { JobDefinition } from '../jobs/job-definition.ts';
import { type JobQueue, startJobQueue } from '../jobs/job-queue.ts';
import { systemClock } from '../runtime/clock.ts';
import { connect, type Sql } from '../runtime/database.ts';
import { createLogger } from '../runtime/logger.ts';
import { userAwaited } from '../runtime/send-job.ts';
import { createTestDatabase, eventually, testSecrets } from './harness.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * A fresh database and `definition`'s queue, with `sends` queued before any
 * worker runs (so that the first fetch sees them all), then a worker started.
 */
async function queueWithJobsSent<Payload>(definition: JobDefinition<Payload>, sends: [Payload, { priority?: number }?][]): Promise<{ sql: Sql; ids: (string | null)[] }> {
  const url = await createTestDatabase();
  const sql: Sql = connect(url, { max: 4 });
  cleanups.push(() => sql.end());
  const options = { sql, databaseUrl: url, definitions: [definition], clock: systemClock, log: createLogger('silent'), config: { pollIntervalSeconds: 300, env: {} }, secrets: testSecrets };
  const sender: JobQueue = await startJobQueue({ ...options, work: false });
  const ids: (string | null)[] = [];
  for (const [payload, sendOptions] of sends) ids.push(await sender.send(definition.name, payload as object, sendOptions));
  await sender.stop();
  const worker = await startJobQueue({ ...options, work: true });
  cleanups.push(() => worker.stop());
  return { sql, ids };
}

describe('a batch in which one job fails', () => {
  // pg-boss fails a batch whole: a failing look-back ran the regular polls beside it again, each recorded twice.
  it('retries the failing job alone; the others of its batch complete and run once', async () => {
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
    const { sql, ids } = await queueWithJobsSent(partlyFailing, [[{ n: 1 }], [{ n: 2 }], [{ n: 3 }]]);

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

describe('a job a user waits on', () => {
  // A new keyword's look-back used to wait behind every regular poll already queued.
  it('is taken before older jobs of its queue', async () => {
    const runs: string[] = [];
    const oneAtATime: JobDefinition<{ name: string }> = {
      name: 'one-at-a-time',
      payload: z.object({ name: z.string() }),
      batchSize: 1,
      async handle(payloads) {
        for (const { name } of payloads) runs.push(name);
      },
    };
    await queueWithJobsSent(oneAtATime, [[{ name: 'regular 1' }], [{ name: 'regular 2' }], [{ name: 'regular 3' }], [{ name: 'look-back' }, userAwaited]]);
    await eventually(() => Promise.resolve(runs.length), (count) => count === 4, 20_000);
    expect(runs).toEqual(['look-back', 'regular 1', 'regular 2', 'regular 3']);
  });
});

describe('a queue with something to ready', () => {
  // The built-in classifier's models were loaded by the first mention scored, holding every request of the process for two seconds then.
  it('is readied once when a worker starts, before any job is sent, and not by a process that only sends', async () => {
    const readied: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const readying: JobDefinition<{ n: number }> = {
      name: 'readying',
      payload: z.object({ n: z.number() }),
      async prepare(context) {
        readied.push(typeof context.send);
        await held;
      },
      async handle(payloads) {
        readied.push(...payloads.map(({ n }) => `job ${n}`));
      },
    };
    const url = await createTestDatabase();
    const sql: Sql = connect(url, { max: 4 });
    cleanups.push(() => sql.end());
    const options = { sql, databaseUrl: url, definitions: [readying], clock: systemClock, log: createLogger('silent'), config: { pollIntervalSeconds: 300, env: {} }, secrets: testSecrets };
    const sender = await startJobQueue({ ...options, work: false });
    cleanups.push(() => sender.stop());
    expect(readied).toEqual([]);
    // Started while the readying is still under way: the worker does not wait for it to take jobs.
    const worker = await startJobQueue({ ...options, work: true });
    cleanups.push(() => worker.stop());
    expect(readied).toEqual(['function']);
    await sender.send('readying', { n: 1 });
    await eventually(async () => readied.length, (count) => count === 2);
    release();
    expect(readied).toEqual(['function', 'job 1']);
  });
});
