import os from 'node:os';
import { connect, type Sql } from '../runtime/database.ts';
import type { Logger } from '../runtime/logger.ts';
import {
  claimJobs,
  dropSettledClaims,
  type ReleasedJob,
  reassertWorker,
  registerWorker,
  releaseInterruptedJobs,
  releaseJobsOfDeadWorkers,
  releaseUnclaimedJobs,
  removeWorker,
} from './job-store.ts';

/**
 * How often a worker looks for jobs of workers that died, and how long an
 * active job may go unclaimed: a job of a process killed at any moment runs
 * again well within a minute of another worker starting (or running).
 */
const releaseIntervalMs = 10_000;
const unclaimedGraceSeconds = 30;

export interface WorkerRegistry {
  id: number;
  /** Records that this worker took these jobs; a handler calls it before any work. */
  claim(queue: string, jobIds: readonly string[]): Promise<void>;
  /**
   * Sends back to the queue jobs this process's stop cut short, on the
   * worker's own connection, which stays open until the queue has stopped
   * (the shared pools may already be closed: that is what cut them short).
   */
  releaseInterrupted(queue: string, jobIds: readonly string[]): Promise<void>;
  stop(): Promise<void>;
}

/**
 * This process as a worker of the queues, for crash recovery (2): it is
 * registered in job_workers and holds a session advisory lock on a
 * connection of its own for as long as it lives, and claims each job it
 * takes. When a process dies its connection dies with it, and so does the
 * lock: any worker then sees the row without a lock and sends the jobs it
 * held back to the queue, to run at once, instead of waiting out pg-boss's
 * expiry. It does so when it starts and every few seconds after.
 */
export async function startWorkerRegistry(options: { sql: Sql; databaseUrl: string; queues: readonly string[]; log: Logger }): Promise<WorkerRegistry> {
  const { sql, queues, log } = options;
  const host = os.hostname();
  const lockConnection = connect(options.databaseUrl, { max: 1 });
  const id = await registerWorker(lockConnection, host, process.pid);

  const report = (released: ReleasedJob[], why: string) => {
    if (released.length) log.warn(`released jobs: ${why}`, { jobs: released });
  };
  const round = async () => {
    if (await reassertWorker(lockConnection, id, host, process.pid)) log.warn('worker lock taken again after its connection was lost', { workerId: id });
    report(await releaseJobsOfDeadWorkers(sql, id), 'their worker process is gone');
    report(await releaseUnclaimedJobs(sql, queues, unclaimedGraceSeconds), 'active with no live worker holding them');
    await dropSettledClaims(sql, id);
  };
  await round();
  let running: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(round).catch((error) => log.error('releasing jobs of dead workers failed', { error: String(error) }));
  }, releaseIntervalMs);

  return {
    id,
    claim: (queue, jobIds) => claimJobs(sql, id, queue, jobIds),
    async releaseInterrupted(queue, jobIds) {
      report(await releaseInterruptedJobs(lockConnection, queue, jobIds), 'this process stopped while they ran');
    },
    async stop() {
      clearInterval(timer);
      await running;
      await removeWorker(sql, id).catch((error) => log.error('removing the worker failed', { error: String(error) }));
      await lockConnection.end({ timeout: 5 });
    },
  };
}
