const hourMs = 3_600_000;
const dayMs = 24 * hourMs;

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
