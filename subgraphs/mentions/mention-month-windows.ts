/** A range of match times, `since` inclusive and `before` exclusive; null is unbounded. */
export interface MatchTimeWindow {
  since: Date | null;
  before: Date | null;
}

/** The months each window of a newest-first read reaches back to, counted from the start of the month it starts in (0: that month alone). */
const windowsReachMonths = [0, 3, 12];

/** How far ahead of ours the database's clock may be when the first page is read. */
const clockAheadMs = 3_600_000;

const monthStartUtc = (at: Date, monthsBack: number) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() - monthsBack, 1));

/**
 * The windows a newest-first read of mentions goes through, newest first,
 * together covering every time up to `start` (a cursor's match time, whose
 * month is the newest read) or every time at all (`start` null, the first
 * page, read back from `now`): the start's month, the three before it, the
 * nine before those, then all older. A match time is its insert's `now()`,
 * never ahead of the clock, so the first page's window ends where this
 * month does (where the next does in a month's last hour, for a database
 * clock a little ahead of ours): it names one month, where one open above
 * named this month, the month made ahead and `mentions_later` (0.5 ms more
 * at 10,000,000).
 * The mentions table is partitioned by month of match time (migration
 * 053); a statement bounded by month starts written into its text is
 * planned over those months only, where one naming no time was planned over
 * every month (about 10 ms more at 40 months, measured by `npm run bench --
 * partitions`). A page full within the first window, the usual case, costs
 * one statement.
 */
export function newestFirstWindows(start: Date | null, now: Date): MatchTimeWindow[] {
  const bounds = windowsReachMonths.map((months) => monthStartUtc(start ?? now, months));
  const newest = monthStartUtc(start ?? new Date(now.getTime() + clockAheadMs), -1);
  return [...bounds, null].map((since, i) => ({ since, before: i === 0 ? newest : bounds[i - 1] }));
}
