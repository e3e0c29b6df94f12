/**
 * Thrown by a handler when only some jobs of its batch failed: pg-boss fails
 * or completes a batch whole, so without it a retry ran again the jobs that
 * had already succeeded (a poll recorded twice, its wait doubled once more).
 * The queue fails the jobs at these indexes of the batch and completes the rest.
 */
export class SomeJobsFailed extends Error {
  constructor(readonly failures: ReadonlyMap<number, unknown>) {
    super(`${failures.size} job(s) of the batch failed: ${String([...failures.values()][0])}`);
  }
}

/** Runs every job of a batch at once; those that fail are failed alone (SomeJobsFailed). */
export async function runEachJob<Payload>(payloads: readonly Payload[], run: (payload: Payload) => Promise<void>): Promise<void> {
  const outcomes = await Promise.allSettled(payloads.map(run));
  const failures = new Map(outcomes.flatMap((outcome, index) => (outcome.status === 'rejected' ? [[index, outcome.reason as unknown] as const] : [])));
  if (failures.size > 0) throw new SomeJobsFailed(failures);
}
