/**
 * Enqueues work for the job workers: a queue's name and its payload, checked
 * against that queue's schema when sent and when run. Every process may
 * send; only workers work the queues.
 */
export type SendJob = (
  queue: string,
  data: object,
  options?: { singletonKey?: string; startAfter?: Date | number; retryLimit?: number },
) => Promise<string | null>;
