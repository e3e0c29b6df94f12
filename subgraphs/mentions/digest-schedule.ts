const hourMs = 3_600_000;
const dayMs = 24 * hourMs;

/**
 * When a daily or weekly rule runs next: the first time after its last run
 * (or its creation) at its UTC hour, on its weekday for a weekly rule.
 */
export function nextDigestRun(rule: { mode: string; scheduleHour: number | null; scheduleWeekday: number | null; lastRunAt: Date | null; createdAt: Date }): Date {
  const after = (rule.lastRunAt ?? rule.createdAt).getTime();
  const startOfDay = after - (after % dayMs);
  let candidate = startOfDay + (rule.scheduleHour ?? 0) * hourMs;
  while (candidate <= after || (rule.mode === 'weekly' && new Date(candidate).getUTCDay() !== rule.scheduleWeekday)) candidate += dayMs;
  return new Date(candidate);
}
