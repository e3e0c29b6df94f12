import type postgres from 'postgres';
import type { KeywordRow } from './keyword-store.ts';
import { isWholeLookback, type OwedLookback, oweLookback, takeOwedLookback, takeOwedLookbacksOfRunningKeywords } from './owed-lookback-store.ts';
import { deferPollsBehindLookback } from './poll-schedule-store.ts';
import { platformOfStorefrontKey } from './review-sources.ts';

/** Queues a look-back job in the transaction given: the caller's queue (a subgraph's context, a job's). */
export type SendLookback = (tx: postgres.TransactionSql<{}>, lookback: OwedLookback) => Promise<unknown>;

/** A muted keyword (by hand, for balance or for noise) or one at its cap matches nothing: a look-back then would store nothing. */
export const keywordRuns = (keyword: Pick<KeywordRow, 'muted' | 'pausedForCap'>) => !keyword.muted && !keyword.pausedForCap;

/** The poll rows a look-back reads (null: every one of the keyword, a new keyword's). */
function polledPlatformsOf(lookback: OwedLookback): string[] | null {
  if (isWholeLookback(lookback)) return null;
  return [...(lookback.platforms ?? []), ...(lookback.feedUrls?.length ? ['rss'] : []), ...(lookback.storefronts ?? []).map(platformOfStorefrontKey)];
}

async function startLookback(tx: postgres.TransactionSql<{}>, lookback: OwedLookback, firstPollAt: Date, send: SendLookback) {
  await deferPollsBehindLookback(tx, lookback.keywordId, polledPlatformsOf(lookback), firstPollAt);
  await send(tx, lookback);
}

/**
 * In the transaction of a keyword's write: records the look-back the write
 * owes (`owed`, if any) beside what the keyword was owed already, and when
 * the keyword runs after the write (created running, unmuted, resumed from
 * noise, its cap raised or removed) queues all it is owed at once, the
 * regular polls of what it reads moved to `firstPollAt`. A keyword that does
 * not run keeps its record, read when it starts: nothing waits in the queue.
 */
export async function lookBackOrWait(
  tx: postgres.TransactionSql<{}>,
  keyword: Pick<KeywordRow, 'id' | 'muted' | 'pausedForCap'>,
  owed: OwedLookback | undefined,
  firstPollAt: Date,
  send: SendLookback,
): Promise<void> {
  if (owed) await oweLookback(tx, owed);
  if (!keywordRuns(keyword)) return;
  const lookback = await takeOwedLookback(tx, keyword.id);
  if (lookback) await startLookback(tx, lookback, firstPollAt, send);
}

/**
 * Queues the look-backs of keywords that run again without a write of the
 * keywords subgraph (billing's: a top-up, a new cap period, the own caps of a
 * first top-up), up to `limit`, each with its regular polls moved to
 * `firstPollAt`. The poll scheduler calls it before it claims polls, in the
 * same transaction. Returns how many it queued.
 */
export async function startLookbacksOfRunningKeywords(tx: postgres.TransactionSql<{}>, firstPollAt: Date, limit: number, send: SendLookback): Promise<number> {
  const lookbacks = await takeOwedLookbacksOfRunningKeywords(tx, limit);
  for (const lookback of lookbacks) await startLookback(tx, lookback, firstPollAt, send);
  return lookbacks.length;
}
