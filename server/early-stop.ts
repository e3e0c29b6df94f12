/**
 * Loaded by `npm start` ahead of main.ts (`node --import tsx --import
 * ./server/early-stop.ts main.ts`). Node's own answer to SIGTERM and SIGINT
 * ends the process by the signal, and loading main.ts's modules takes
 * seconds (more than ten on a busy 2-core machine) before main.ts can
 * listen for them: a stop asked for then ended `npm start` by SIGTERM, not
 * with exit code 0. Nothing has started yet at that point, so stopping is
 * exiting 0. main.ts takes the signals over once it runs.
 *
 * The state is the process's, not this module's: the copy `--import` loads
 * and the one main.ts imports are two instances (tsx loads them apart).
 */
const stopSignals = ['SIGTERM', 'SIGINT'] as const;

const state = ((globalThis as { [key: symbol]: { listening: boolean; takenOver: boolean } })[Symbol.for('earshot.early-stop')] ??= {
  listening: false,
  takenOver: false,
});

if (!state.listening) {
  state.listening = true;
  for (const signal of stopSignals) process.on(signal, () => state.takenOver || process.exit(0));
}

/** From now on `stop(signal)` answers SIGTERM and SIGINT, and the exit before the start no longer does. */
export function takeOverStopSignals(stop: (signal: (typeof stopSignals)[number]) => void): void {
  state.takenOver = true;
  for (const signal of stopSignals) process.on(signal, () => stop(signal));
}
