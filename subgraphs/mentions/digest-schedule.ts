const hourMs = 3_600_000;
const dayMs = 24 * hourMs;

const periodMs: Record<string, number> = { hourly: hourMs, daily: dayMs, weekly: 7 * dayMs };

/**
 * Where a digest run's span starts: at the last run, or, for a rule's first
 * run, one period (an hour, a day, a week) back, so a new daily digest sums
 * up the day before it as every later one does, not the minutes since the
 * rule was made.
 */
export function digestSpanStart(rule: { mode: string; lastRunAt: Date | null; createdAt: Date }, now: Date): Date {
  if (rule.lastRunAt) return rule.lastRunAt;
  return new Date(Math.min(rule.createdAt.getTime(), now.getTime() - (periodMs[rule.mode] ?? dayMs)));
}

/**
 * When a digest rule runs next: the first time after its last run (or its
 * creation) at its UTC hour, on its weekday for a weekly rule; an hourly
 * rule at the start of the next hour.
 */
export function nextDigestRun(rule: { mode: string; scheduleHour: number | null; scheduleWeekday: number | null; lastRunAt: Date | null; createdAt: Date }): Date {
  const after = (rule.lastRunAt ?? rule.createdAt).getTime();
  if (rule.mode === 'hourly') return new Date(after - (after % hourMs) + hourMs);
  const startOfDay = after - (after % dayMs);
  let candidate = startOfDay + (rule.scheduleHour ?? 0) * hourMs;
  while (candidate <= after || (rule.mode === 'weekly' && new Date(candidate).getUTCDay() !== rule.scheduleWeekday)) candidate += dayMs;
  return new Date(candidate);
}
