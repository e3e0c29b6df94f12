/**
 * Where "now" comes from. Production uses the system clock; tests pass a
 * clock they move, to cross midnights, Mondays and month ends.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests set and advance by hand. */
export function manualClock(start: Date): Clock & { set(to: Date): void; advance(ms: number): void } {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    set: (to) => {
      current = to.getTime();
    },
    advance: (ms) => {
      current += ms;
    },
  };
}
