/** setTimeout's longest delay; a longer one fires at once. */
const longestTimerMs = 2 ** 31 - 1;

/**
 * Calls `run` once `now()` has reached `dueMs`, never before returning (an
 * instant already past runs on a later turn of the event loop), without
 * holding the process open; returns the cancel. A timer counts from the
 * event loop's cached clock, which lags under load, so it may fire before
 * the instant: it then waits out the rest. A wait past setTimeout's longest
 * is taken in steps.
 */
export function atInstant(dueMs: number, run: () => void, now: () => number = Date.now): () => void {
  const delay = () => Math.min(Math.max(0, dueMs - now()), longestTimerMs);
  const step = () => {
    if (now() >= dueMs) run();
    else timer = setTimeout(step, delay()).unref();
  };
  let timer = setTimeout(step, delay()).unref();
  return () => clearTimeout(timer);
}
