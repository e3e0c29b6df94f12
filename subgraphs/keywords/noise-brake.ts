import type { Queryable } from '../../runtime/database.ts';
import { workspacesOnWelcomeCredit } from '../billing/index.ts';
import { keywordWindowCounts } from '../mentions/index.ts';
import { isNoisy } from './keyword-health.ts';
import { findRunningKeywords, pauseKeywordsForNoise } from './keyword-run-state-store.ts';

const fourteenDays = 14 * 86_400_000;

/**
 * The noise brake (spec 3.1), for the scoring job to call after each batch
 * with the keywords whose matches it scored, in its transaction. A running
 * keyword of a workspace on its welcome credit is muted with
 * `pausedForNoise` when, over the last 14 days by match time, at least 20
 * of its matches were scored and under 30% were relevant. Matches from
 * before its last change of rules (or unmute) are not held against it, so a
 * keyword resumed by a change is judged afresh. No account event (6.4 has
 * none). Returns the ids it muted.
 */
export async function applyNoiseBrake(tx: Queryable, keywordIds: readonly string[], now: Date): Promise<string[]> {
  const running = await findRunningKeywords(tx, [...new Set(keywordIds)]);
  if (running.length === 0) return [];
  const onWelcome = await workspacesOnWelcomeCredit(tx, [...new Set(running.map((keyword) => keyword.workspaceId))]);
  const windowStart = new Date(now.getTime() - fourteenDays);
  const since = new Map(
    running
      .filter((keyword) => onWelcome.has(keyword.workspaceId))
      .map((keyword) => [keyword.id, keyword.judgedSince && keyword.judgedSince > windowStart ? keyword.judgedSince : windowStart]),
  );
  const counts = await keywordWindowCounts(tx, since);
  const noisy = [...since.keys()].filter((id) => {
    const window = counts.get(id);
    return window !== undefined && isNoisy(window.relevant, window.filtered);
  });
  return (await pauseKeywordsForNoise(tx, noisy)).map((keyword) => keyword.id);
}
