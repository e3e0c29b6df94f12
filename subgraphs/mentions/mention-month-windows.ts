import { monthStartUtc, type MonthWindow, monthWindowsBack } from '../month-windows.ts';

/** How far ahead of ours the database's clock may be when the first page is read. */
const clockAheadMs = 3_600_000;

/**
 * The windows a newest-first read of mentions goes through, newest first,
 * together covering every time up to `start` (a cursor's match time, whose
 * month is the newest read) or every time at all (`start` null, the first
 * page, read back from `now`): the start's month, the three before it, the
 * nine before those, then all older (`monthWindowsBack`). A match time is
 * its insert's `now()`, never ahead of the clock, so the first page's window
 * ends where this month does (where the next does in a month's last hour,
 * for a database clock a little ahead of ours): it names one month, where
 * one open above named this month, the month made ahead and `mentions_later`
 * (0.5 ms more at 10,000,000). A statement naming no time was planned over
 * every month (about 10 ms more at 40 months, measured by `npm run bench --
 * partitions`).
 */
export function newestFirstWindows(start: Date | null, now: Date): MonthWindow[] {
  return monthWindowsBack(start ?? now, monthStartUtc(start ?? new Date(now.getTime() + clockAheadMs), -1));
}
