import { recordPollError, recordPollFailure } from '../../subgraphs/keywords/index.ts';
import { UpstreamConfigurationError, UpstreamError } from '../../runtime/upstream-http.ts';
import type { JobContext } from '../job-definition.ts';

export interface FailedPoll {
  platform: string;
  keywordIds: readonly string[];
  lookback: boolean;
}

/**
 * What a poll does when reading its platform failed. The error goes on the
 * keywords' `polling` entries (`lastError`, `lastErrorAt`); a regular poll
 * backs off, doubling from the base interval with each failure in a row
 * (reviews included: an upstream's health does not follow their daily pace),
 * and returns, because the schedule is its retry; the log says it once per
 * platform, error and back-off step, by the first poll of the platform to
 * reach that step with that error, not once per keyword, per retry or per
 * worker. A look-back leaves the
 * schedule alone and rethrows, so pg-boss retries it: it runs only once.
 *
 * A platform without its settings is not failing: the start-up table already
 * said why it is off, so the reason is recorded without a log line.
 */
export async function handleFailedPoll(context: JobContext, poll: FailedPoll, error: unknown): Promise<void> {
  const now = context.clock.now();
  const reason = error instanceof UpstreamError ? error.reason : String(error);
  if (error instanceof UpstreamConfigurationError) {
    await recordPollError(context.sql, { platform: poll.platform, keywordIds: poll.keywordIds, error: reason, now });
    return;
  }
  if (poll.lookback) {
    await recordPollError(context.sql, { platform: poll.platform, keywordIds: poll.keywordIds, error: reason, now });
    context.log.warn('look-back poll failed', { platform: poll.platform, error: reason, keywordIds: poll.keywordIds });
    throw error;
  }
  const failure = await recordPollFailure(context.sql, {
    platform: poll.platform,
    keywordIds: poll.keywordIds,
    error: reason,
    now,
    baseIntervalSeconds: context.config.pollIntervalSeconds,
    retryAfterSeconds: error instanceof UpstreamError ? error.retryAfterSeconds : undefined,
  });
  if (failure.backoffStep > failure.platformBackoffStepBefore) {
    context.log.warn('poll failed; backing off', {
      platform: poll.platform,
      error: reason,
      backoffStep: failure.backoffStep,
      nextPollAt: failure.nextPollAt?.toISOString() ?? null,
    });
  }
}
