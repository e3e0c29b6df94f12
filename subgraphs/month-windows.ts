import type { Queryable } from '../runtime/database.ts';

/**
 * The tables partitioned by month (mentions by match time, migration 053;
 * the ledger by entry time, 056) are read newest first a few months at a
 * time: a statement whose time bounds are written into its text is planned
 * over the months it names only, where one naming no time is planned over
 * every month on each call.
 */

/** A range of times, `since` inclusive and `before` exclusive; null is unbounded. */
export interface MonthWindow {
  since: Date | null;
  before: Date | null;
}

/** The months each window reaches back to, counted from the start of the month it starts in (0: that month alone). */
const windowsReachMonths = [0, 3, 12];

/** The start (UTC) of the month `monthsBack` months before `at`'s; negative is ahead. */
export const monthStartUtc = (at: Date, monthsBack: number) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() - monthsBack, 1));

/**
 * Windows that together cover every time before `newestBefore` (null:
 * every time at all), newest first: from the start of `from`'s month, then
 * the three months before, the nine before those, then all older. A read
 * that finds what it needs in the first window, the usual case, costs one
 * statement.
 */
export function monthWindowsBack(from: Date, newestBefore: Date | null): MonthWindow[] {
  const bounds = windowsReachMonths.map((months) => monthStartUtc(from, months));
  return [...bounds, null].map((since, i) => ({ since, before: i === 0 ? newestBefore : bounds[i - 1] }));
}

/**
 * `and <column> <operator> '<at>'`, the time written into the statement's
 * text rather than sent as a parameter (nothing when `at` is null): month
 * starts, so the texts are few. `column` is the code's own name, never input.
 */
export const timeBoundInText = (sql: Queryable, column: string, operator: '>=' | '<', at: Date | null) =>
  at === null ? sql`` : sql`and ${sql.unsafe(`${column} ${operator} '${at.toISOString()}'::timestamptz`)}`;
