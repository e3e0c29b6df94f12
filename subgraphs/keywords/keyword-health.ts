export type HealthStatus = 'healthy' | 'noisy' | 'quiet' | 'capped' | 'paused' | 'new';

export interface HealthInput {
  muted: boolean;
  pausedForBalance: boolean;
  pausedForNoise: boolean;
  pausedForCap: boolean;
  createdAt: Date;
  judgedSince: Date | null;
  /** Counts over the window, from `judgedSince` when that is inside it. */
  relevant: number;
  filtered: number;
  windowDays: number;
  now: Date;
}

const day = 86_400_000;
/** Spec part 8: the noise brake and flag. */
export const noiseMinScored = 20;
export const noiseRelevantShare = 0.3;

export const isNoisy = (relevant: number, filtered: number) =>
  relevant + filtered >= noiseMinScored && relevant / (relevant + filtered) < noiseRelevantShare;

/** "today", "1 day ago", "3 days ago": the reasons are read by people (the dashboard shows them as they are). */
function daysAgo(days: number): string {
  const whole = Math.floor(days);
  return whole === 0 ? 'today' : whole === 1 ? '1 day ago' : `${whole} days ago`;
}

/**
 * The health rule of spec 2.1.4, in its order: paused, capped, noisy, new,
 * quiet, healthy. The first reason explains the status.
 */
export function judgeKeywordHealth(input: HealthInput): { status: HealthStatus; reasons: string[] } {
  const scored = input.relevant + input.filtered;
  const share = scored ? Math.round((input.relevant / scored) * 100) : 0;
  const ageDays = (input.now.getTime() - input.createdAt.getTime()) / day;
  const changedRecently = input.judgedSince !== null && input.now.getTime() - input.judgedSince.getTime() < 7 * day;
  const reasons: string[] = [];
  let status: HealthStatus;
  if (input.muted) {
    status = 'paused';
    reasons.push(
      input.pausedForBalance
        ? 'Paused: the wallet cannot cover another day of tracking.'
        : input.pausedForNoise
          ? 'Paused by the noise brake: too few of its matches were relevant.'
          : 'Muted by a user.',
    );
  } else if (input.pausedForCap) {
    status = 'capped';
    reasons.push('At its mention cap: matching resumes when the next period starts.');
  } else if (isNoisy(input.relevant, input.filtered)) {
    status = 'noisy';
    reasons.push(`Noisy: ${input.relevant} of ${scored} scored matches were relevant (${share}%, under 30%).`);
  } else if (ageDays < 7 || (changedRecently && scored < noiseMinScored)) {
    status = 'new';
    reasons.push(
      ageDays < 7
        ? `New: created ${daysAgo(ageDays)}; judged after a week.`
        : `New rules: changed ${daysAgo((input.now.getTime() - input.judgedSince!.getTime()) / day)} with ${scored} scored matches since.`,
    );
  } else if (input.relevant === 0) {
    status = 'quiet';
    reasons.push(`Quiet: nothing relevant in the last ${input.windowDays} days.`);
  } else {
    status = 'healthy';
    reasons.push(`Healthy: ${input.relevant} of ${scored} scored matches were relevant (${share}%).`);
  }
  if (scored > 0 && status !== 'noisy') reasons.push(`${input.relevant} relevant and ${input.filtered} filtered matches in the window.`);
  return { status, reasons };
}
