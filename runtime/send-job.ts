import type postgres from 'postgres';

/**
 * Enqueues work for the job workers: a queue's name and its payload, checked
 * against that queue's schema when sent and when run. Every process may
 * send; only workers work the queues. With `transaction`, the job is written
 * in that transaction: it exists exactly when what it is about was committed.
 */
export type SendJob = (
  queue: string,
  data: object,
  options?: {
    singletonKey?: string;
    startAfter?: Date | number;
    retryLimit?: number;
    priority?: number;
    transaction?: postgres.TransactionSql<{}>;
    /** The job's uuid: a job already queued under it keeps its place, and this send queues nothing (null). */
    id?: string;
  },
) => Promise<string | null>;

/** For jobs a user waits on, a new keyword's or source's look-back: taken before a backlog of regular polls. */
export const userAwaited = { priority: 1 } as const;
