export type CapPeriod = 'day' | 'week' | 'month';

const day = 86_400_000;

/** Start of the cap period holding `now`, UTC: the day, the week from Monday, the calendar month (spec 2.1.1). */
export function capPeriodStart(per: CapPeriod, now: Date): Date {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  if (per === 'day') return new Date(midnight);
  if (per === 'week') return new Date(midnight - ((now.getUTCDay() + 6) % 7) * day);
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

/** Start of the next cap period: when a capped keyword resumes. */
export function nextCapPeriodStart(per: CapPeriod, now: Date): Date {
  const start = capPeriodStart(per, now);
  if (per === 'day') return new Date(start.getTime() + day);
  if (per === 'week') return new Date(start.getTime() + 7 * day);
  return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
}
