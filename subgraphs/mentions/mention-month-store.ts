import type { Queryable } from '../../runtime/database.ts';

/** Months of mentions made ahead of the clock: a month's partition exists well before its first mention is stored. */
const monthsAhead = 1;

/**
 * Makes the mentions table's monthly partitions through `monthsAhead`
 * months after `now` (migration 053's make_months); a no-op once
 * they exist.
 */
export async function makeMentionMonths(sql: Queryable, now: Date): Promise<void> {
  await sql`
    /* makeMentionMonths */
    select make_months('mentions', ${now}::timestamptz + make_interval(months => ${monthsAhead}))`;
}
