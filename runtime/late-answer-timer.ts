/**
 * Calls `late` when `ms` have passed and the sockets have been read since.
 * An event loop kept busy (a burst of requests, a long synchronous step)
 * runs its due timers before it reads the answers that came in meanwhile,
 * so a timer alone would call an answer late that is already there: the
 * check waits for the poll phase, then runs. Returns the cancel.
 */
export function whenAnswerIsLate(ms: number, late: () => void): () => void {
  let immediate: NodeJS.Immediate | undefined;
  const timer = setTimeout(() => {
    immediate = setImmediate(late);
  }, ms);
  return () => {
    clearTimeout(timer);
    if (immediate) clearImmediate(immediate);
  };
}
