import PgBoss from 'pg-boss';
import type { Clock } from '../runtime/clock.ts';
import type { EarshotConfig } from '../runtime/config.ts';
import type { Sql } from '../runtime/database.ts';
import type { Logger } from '../runtime/logger.ts';
import type { JobContext, JobDefinition } from './job-definition.ts';

export interface JobQueue {
  send: JobContext['send'];
  /** The context handlers get, for loops that run beside the queues (the poll scheduler, live streams). */
  context(name: string): JobContext;
  stop(): Promise<void>;
}

/**
 * pg-boss 10 on the same database (its own small `pg` pool: its migrations
 * run BEGIN/COMMIT scripts that postgres.js refuses on a shared pool). Queues are created, payloads
 * checked on send and on run, handlers get batches, scheduled queues get
 * their cron. `work` is false for processes that only send (gateway, tests).
 */
export async function startJobQueue(options: {
  sql: Sql;
  databaseUrl: string;
  definitions: JobDefinition<any>[];
  clock: Clock;
  log: Logger;
  config: JobContext['config'];
  work: boolean;
}): Promise<JobQueue> {
  const { sql, definitions, clock, log, config } = options;
  const boss = new PgBoss({
    connectionString: options.databaseUrl,
    max: 4,
    application_name: 'earshot-jobs',
    schema: 'pgboss',
    supervise: options.work,
    schedule: options.work,
  });
  boss.on('error', (error) => log.error('pg-boss error', { error: String(error) }));
  await boss.start();

  const byName = new Map(definitions.map((definition) => [definition.name, definition]));
  const send: JobContext['send'] = async (queue, data, sendOptions = {}) => {
    const definition = byName.get(queue);
    if (!definition) throw new Error(`No queue named ${queue}`);
    const payload = definition.payload.parse(data) as object;
    return boss.send(queue, payload, {
      retryLimit: sendOptions.retryLimit ?? definition.retryLimit ?? 3,
      retryDelay: definition.retryDelaySeconds ?? 5,
      retryBackoff: definition.retryBackoff ?? true,
      ...(sendOptions.singletonKey ? { singletonKey: sendOptions.singletonKey } : {}),
      ...(sendOptions.startAfter !== undefined ? { startAfter: sendOptions.startAfter as Date } : {}),
    });
  };

  for (const definition of definitions) {
    await boss.createQueue(definition.name);
    if (!options.work) continue;
    if (definition.schedule) await boss.schedule(definition.name, definition.schedule.cron, definition.schedule.payload as object, { tz: 'UTC' });
    await boss.work<unknown>(
      definition.name,
      { batchSize: definition.batchSize ?? 50, pollingIntervalSeconds: definition.pollingIntervalSeconds ?? 0.5 },
      async (jobs) => {
        const context: JobContext = { sql, clock, config, log: log.child({ queue: definition.name, jobIds: jobs.map((job) => job.id) }), send };
        await definition.handle(jobs.map((job) => definition.payload.parse(job.data)), context);
      },
    );
  }
  return {
    send,
    context: (name) => ({ sql, clock, config, log: log.child({ worker: name }), send }),
    stop: () => boss.stop({ graceful: true, wait: true, timeout: 10_000 }),
  };
}
