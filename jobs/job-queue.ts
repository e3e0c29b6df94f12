import type postgres from 'postgres';
import PgBoss from 'pg-boss';
import type { Clock } from '../runtime/clock.ts';
import type { EarshotConfig } from '../runtime/config.ts';
import type { Sql } from '../runtime/database.ts';
import type { Logger } from '../runtime/logger.ts';
import type { SecretBox } from '../runtime/secret-box.ts';
import { SomeJobsFailed } from './each-job.ts';
import type { JobContext, JobDefinition } from './job-definition.ts';
import { jobSchema } from './job-store.ts';
import { startWorkerRegistry } from './worker-registry.ts';

export interface JobQueue {
  send: JobContext['send'];
  /** The context handlers get, for loops that run beside the queues (the poll scheduler, live streams). */
  context(name: string): JobContext;
  stop(): Promise<void>;
}

/** pg-boss's default expiry, for queues that name none. */
const defaultExpireInSeconds = 900;

/**
 * pg-boss runs its statements through an object with `executeSql`; this one
 * runs them in the caller's postgres.js transaction, so a job sent there
 * exists exactly when the transaction commits. postgres.js learns each
 * parameter's type from the server (the payload goes to a jsonb as JSON)
 * but takes no `undefined`, which pg-boss passes for options left out.
 */
function inTransaction(tx: postgres.TransactionSql<{}>) {
  return {
    async executeSql(text: string, values: unknown[] = []) {
      const parameters = values.map((value) => (value === undefined ? null : value));
      return { rows: await tx.unsafe(text, parameters as postgres.ParameterOrJSON<never>[]) };
    },
  };
}

/**
 * pg-boss 10 on the same database (its own small `pg` pool: its migrations
 * run BEGIN/COMMIT scripts that postgres.js refuses on a shared pool). Queues are created, payloads
 * checked on send and on run, handlers get batches, scheduled queues get
 * their cron. `work` is false for processes that only send (gateway, tests);
 * a process that works the queues registers as a worker and claims the jobs
 * it takes, so that after it dies they run again at once (worker-registry.ts).
 */
export async function startJobQueue(options: {
  sql: Sql;
  databaseUrl: string;
  definitions: JobDefinition<any>[];
  clock: Clock;
  log: Logger;
  config: JobContext['config'];
  secrets: SecretBox;
  work: boolean;
}): Promise<JobQueue> {
  const { sql, definitions, clock, log, config, secrets } = options;
  const boss = new PgBoss({
    connectionString: options.databaseUrl,
    max: 4,
    application_name: 'earshot-jobs',
    schema: jobSchema,
    supervise: options.work,
    schedule: options.work,
  });
  // A worker's errors come as plain objects (its error's fields, the queue's name), where String() would say "[object Object]".
  boss.on('error', (error: { message?: string; queue?: string }) =>
    log.error('pg-boss error', { error: error instanceof Error ? String(error) : String(error.message), ...(error.queue ? { queue: error.queue } : {}) }),
  );
  await boss.start();

  /** From the start of `stop()`: a handler failing from then on was most likely cut short by it. */
  let stopping = false;
  const byName = new Map(definitions.map((definition) => [definition.name, definition]));
  const send: JobContext['send'] = async (queue, data, sendOptions = {}) => {
    const definition = byName.get(queue);
    if (!definition) throw new Error(`No queue named ${queue}`);
    const payload = definition.payload.parse(data) as object;
    return boss.send(queue, payload, {
      retryLimit: sendOptions.retryLimit ?? definition.retryLimit ?? 3,
      retryDelay: definition.retryDelaySeconds ?? 5,
      retryBackoff: definition.retryBackoff ?? true,
      expireInSeconds: definition.expireInSeconds ?? defaultExpireInSeconds,
      ...(sendOptions.transaction ? { db: inTransaction(sendOptions.transaction) } : {}),
      ...(sendOptions.singletonKey ? { singletonKey: sendOptions.singletonKey } : {}),
      ...(sendOptions.id ? { id: sendOptions.id } : {}),
      ...(sendOptions.startAfter !== undefined ? { startAfter: sendOptions.startAfter as Date } : {}),
      ...(sendOptions.priority !== undefined ? { priority: sendOptions.priority } : {}),
    });
  };

  for (const definition of definitions) await boss.createQueue(definition.name);
  // Before taking any job: the jobs of workers that died go back to the queue first.
  const workers = options.work
    ? await startWorkerRegistry({ sql, databaseUrl: options.databaseUrl, queues: definitions.map((d) => d.name), log }).catch(async (error) => {
        await boss.stop({ graceful: false });
        throw error;
      })
    : undefined;
  /** What a handler, a queue's readying or a named worker runs with: this queue's services and a logger of its own. */
  const contextWith = (childLog: Logger): JobContext => ({ sql, clock, config, secrets, log: childLog, send });
  for (const definition of definitions) {
    if (!workers) break;
    const expireInSeconds = definition.expireInSeconds ?? defaultExpireInSeconds;
    if (definition.schedule) await boss.schedule(definition.name, definition.schedule.cron, definition.schedule.payload as object, { tz: 'UTC', expireInSeconds });
    if (definition.prepare) {
      const preparing = contextWith(log.child({ queue: definition.name }));
      // Not waited for: the queue's batches wait for what they need themselves, and a failure here is the first batch's to report.
      definition.prepare(preparing).catch((error) => preparing.log.warn('Readying the queue failed', { error: error instanceof Error ? error.message : String(error) }));
    }
    const workBatch = async (jobs: { id: string; data: unknown }[]) => {
      const jobIds = jobs.map((job) => job.id);
      await workers.claim(definition.name, jobIds);
      const context = contextWith(log.child({ queue: definition.name, jobIds }));
      try {
        await definition.handle(jobs.map((job) => definition.payload.parse(job.data)), context);
      } catch (error) {
        // Failing it would spend one of its retries on this process's stop; released, pg-boss's completion of it finds nothing active to complete.
        if (stopping) return workers.releaseInterrupted(definition.name, jobIds);
        if (!(error instanceof SomeJobsFailed)) throw error;
        // Failed here, they are no longer active when pg-boss completes the batch, so only the others complete.
        for (const [index, reason] of error.failures) await boss.fail(definition.name, jobIds[index], reason instanceof Error ? reason : new Error(String(reason)));
      }
    };
    for (let i = 0; i < (definition.concurrentBatches ?? 1); i++) {
      await boss.work<unknown>(definition.name, { batchSize: definition.batchSize ?? 50, pollingIntervalSeconds: definition.pollingIntervalSeconds ?? 0.5 }, workBatch);
    }
  }
  return {
    send,
    context: (name) => contextWith(log.child({ worker: name })),
    async stop() {
      stopping = true;
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
      await workers?.stop();
    },
  };
}
