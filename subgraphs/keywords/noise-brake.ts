import type { Queryable } from '../../runtime/database.ts';
import { workspacesOnWelcomeCredit } from '../billing/index.ts';
import { keywordWindowCounts } from '../mentions/index.ts';
import { isNoisy } from './keyword-health.ts';
import { lockKeysUntilCommit } from '../../runtime/transaction-locks.ts';
import { findRunningKeywords, pauseKeywordsForNoise } from './keyword-run-state-store.ts';

const fourteenDays = 14 * 86_400_000;

/** A keyword the brake looks at, with the workspace it belongs to. */
export interface BrakedKeyword {
  id: string;
  workspaceId: string;
}

/**
 * The noise brake (spec 3.1), over the keywords whose matches a scoring
 * batch scored, in its transaction (see scoreWithNoiseBrake). A running
 * keyword of a workspace on its welcome credit is muted with
 * `pausedForNoise` when, over the last 14 days by match time, at least 20
 * of its matches were scored and under 30% were relevant. Matches from
 * before its last change of rules (or unmute) are not held against it, so a
 * keyword resumed by a change is judged afresh. No account event (6.4 has
 * none). The wallets are asked first: a batch of paid workspaces only
 * (the usual one) then reads no keyword. Returns the ids it muted.
 */
export async function applyNoiseBrake(tx: Queryable, keywords: readonly BrakedKeyword[], now: Date): Promise<string[]> {
  if (keywords.length === 0) return [];
  const onWelcome = await workspacesOnWelcomeCredit(tx, [...new Set(keywords.map((keyword) => keyword.workspaceId))]);
  if (onWelcome.size === 0) return [];
  const running = await findRunningKeywords(tx, [...new Set(keywords.filter((keyword) => onWelcome.has(keyword.workspaceId)).map((keyword) => keyword.id))]);
  if (running.length === 0) return [];
  const windowStart = new Date(now.getTime() - fourteenDays);
  const since = new Map(running.map((keyword) => [keyword.id, keyword.judgedSince && keyword.judgedSince > windowStart ? keyword.judgedSince : windowStart]));
  const counts = await keywordWindowCounts(tx, since);
  const noisy = [...since.keys()].filter((id) => {
    const window = counts.get(id);
    return window !== undefined && isNoisy(window.relevant, window.filtered);
  });
  return (await pauseKeywordsForNoise(tx, noisy)).map((keyword) => keyword.id);
}

/**
 * A scoring transaction: `score` records the batch's scores, then the noise
 * brake looks at the keywords scored. Batches are scored at once by several
 * workers, and each counted its own scores and those committed, not those
 * of a batch still open: two batches that took a keyword to its twentieth
 * scored match together each saw it under, and neither braked. The brakes
 * of the batch's keywords are therefore held from the start, before `score`
 * locks any row, so batches of a keyword count one after another; taken
 * only at the count, a brake could wait on a keyword row another batch's
 * charge had locked while that batch waited on the brake.
 */
export async function scoreWithNoiseBrake<T>(tx: Queryable, keywords: readonly BrakedKeyword[], now: Date, score: () => Promise<T>): Promise<T> {
  await lockKeysUntilCommit(tx, 'noise_brake', keywords.map((keyword) => keyword.id));
  const result = await score();
  await applyNoiseBrake(tx, keywords, now);
  return result;
}
