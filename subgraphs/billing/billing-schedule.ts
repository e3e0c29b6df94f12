import type { Sql } from '../../runtime/database.ts';
import { billingDayOf, startOfBillingDay } from './billing-day.ts';
import { lastScheduledRunDay, recordScheduledRun } from './billing-schedule-store.ts';
import { resumeCapsAtPeriodTurn } from './cap-transitions.ts';
import { chargeDailyKeywordFees, type DailyTickReport } from './daily-tick.ts';

const dayMs = 86_400_000;

/**
 * The UTC days a catch-up through `through` runs: every day after the last
 * one run, oldest first, up to `through`; with no run yet (a fresh install),
 * `through` alone. `through` itself is always run, even when it already was:
 * both runs are idempotent, and a second look costs one query.
 */
export function daysToRun(lastRun: string | undefined, through: string): string[] {
  if (lastRun === undefined || lastRun >= through) return [through];
  const days: string[] = [];
  for (let at = startOfBillingDay(lastRun).getTime() + dayMs; at <= startOfBillingDay(through).getTime(); at += dayMs) days.push(billingDayOf(new Date(at)));
  return days;
}

export interface TickedDay extends DailyTickReport {
  day: string;
}

/**
 * The daily tick for `through` (`YYYY-MM-DD`) and for every day before it
 * not ticked yet, oldest first: a service down at midnight charges the days
 * it missed when it starts, once each (3.1). Oldest first is not a nicety:
 * ticking a day settles each wallet through it, so a day skipped over could
 * never be charged afterwards. Each day is recorded once every wallet is
 * settled for it; a crash half-way leaves the day unrecorded and the next
 * run resumes it, charging each keyword-day once.
 */
export async function runDailyTicksThrough(sql: Sql, through: string, at: Date): Promise<TickedDay[]> {
  const ticked: TickedDay[] = [];
  for (const day of daysToRun(await lastScheduledRunDay(sql, 'daily_tick'), through)) {
    const report = await chargeDailyKeywordFees(sql, day, { at });
    await recordScheduledRun(sql, 'daily_tick', day, report, at);
    ticked.push({ day, ...report });
  }
  return ticked;
}

/**
 * The cap period turns of today and of every day before it not turned yet,
 * oldest first (a period starts at a UTC midnight: 3.1). A missed turn is
 * judged as of its own midnight, so a keyword resumes, and its
 * keyword.resumed is dated, at the turn of the period that gave it room;
 * today's is judged as of `now`.
 */
export async function turnCapPeriodsThrough(sql: Sql, now: Date): Promise<{ day: string; resumed: number }[]> {
  const today = billingDayOf(now);
  const turned: { day: string; resumed: number }[] = [];
  for (const day of daysToRun(await lastScheduledRunDay(sql, 'cap_turn'), today)) {
    const resumed = await resumeCapsAtPeriodTurn(sql, day === today ? now : startOfBillingDay(day));
    await recordScheduledRun(sql, 'cap_turn', day, { resumed }, now);
    turned.push({ day, resumed });
  }
  return turned;
}
