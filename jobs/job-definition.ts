import type { z } from 'zod';
import type { Clock } from '../runtime/clock.ts';
import type { EarshotConfig } from '../runtime/config.ts';
import type { Sql } from '../runtime/database.ts';
import type { Logger } from '../runtime/logger.ts';
import type { SecretBox } from '../runtime/secret-box.ts';
import type { SendJob } from '../runtime/send-job.ts';

/** What every job handler gets besides its payloads. */
export interface JobContext {
  sql: Sql;
  clock: Clock;
  log: Logger;
  config: Pick<EarshotConfig, 'pollIntervalSeconds' | 'env'>;
  /** Seals and opens the secrets stored for reading back (what deliveries sign and post with). */
  secrets: SecretBox;
  /** Sends a job to another queue (or this one), checked against that queue's schema. */
  send: SendJob;
}

/**
 * A queue: its name, the payload schema checked when a job is sent and when
 * it runs, and an idempotent handler that takes a batch (pg-boss fetches a
 * batch per polling interval, so one job per tiny item is far too slow).
 */
export interface JobDefinition<Payload = unknown> {
  name: string;
  payload: z.ZodType<Payload>;
  handle(payloads: Payload[], context: JobContext): Promise<void>;
  /**
   * What a process working this queue readies as it starts, beside its other
   * work, so that the first batch does not stop to load it: the built-in
   * classifier's models are two seconds of CPU, which the first mention
   * scored made every request of an all-in-one process wait for.
   */
  prepare?(context: JobContext): Promise<void>;
  batchSize?: number;
  pollingIntervalSeconds?: number;
  /**
   * Batches of this queue a process works on at once (default 1): a pg-boss
   * worker fetches its next batch only when the last is done, so one slow
   * batch would hold every job queued behind it.
   */
  concurrentBatches?: number;
  /** Cron (UTC) for queues that run on a schedule, with the payload each run gets. */
  schedule?: { cron: string; payload: Payload };
  retryLimit?: number;
  retryDelaySeconds?: number;
  retryBackoff?: boolean;
  /**
   * How long a job may stay active before pg-boss gives up waiting for its
   * handler and fails it into a retry: sized to what a batch of this queue
   * really takes, with room. It only catches a handler that hangs; the jobs
   * of a process that died go back to the queue within seconds
   * (worker-registry.ts). Default 15 minutes.
   */
  expireInSeconds?: number;
}
