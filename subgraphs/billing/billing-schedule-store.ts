import type { Queryable } from '../../runtime/database.ts';

/** The two things that happen at every UTC midnight. */
export type ScheduledRunKind = 'daily_tick' | 'cap_turn';

/** The last UTC day (`YYYY-MM-DD`) a run of this kind finished for; undefined before the first. */
export async function lastScheduledRunDay(sql: Queryable, kind: ScheduledRunKind): Promise<string | undefined> {
  const [row] = await sql<{ day: string | null }[]>`
    /* lastScheduledRunDay */
    select max(day)::text as day from billing_schedule_runs where kind = ${kind}`;
  return row.day ?? undefined;
}

/** Records that the run for `day` finished; the first record of a day stays. */
export async function recordScheduledRun(sql: Queryable, kind: ScheduledRunKind, day: string, report: object, at: Date): Promise<void> {
  await sql`
    /* recordScheduledRun */
    insert into billing_schedule_runs (kind, day, finished_at, report)
    values (${kind}, ${day}::date, ${at}, ${sql.json(report as never)})
    on conflict (kind, day) do nothing`;
}
