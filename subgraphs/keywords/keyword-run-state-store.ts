import type { Queryable } from '../../runtime/database.ts';
import type { KeywordRef } from '../billing/index.ts';

/**
 * The noise brake's writes and reads of a keyword's run state (spec 3.1).
 * The wallet's and the caps' live in billing's keyword accounting; manual
 * mute and unmute stay with the keyword PATCH.
 */

/** Mutes running keywords for noise (3.1); returns the keywords it muted. */
export async function pauseKeywordsForNoise(sql: Queryable, keywordIds: readonly string[]): Promise<KeywordRef[]> {
  if (keywordIds.length === 0) return [];
  return sql<KeywordRef[]>`
    /* pauseKeywordsForNoise */
    update keywords set muted = true, paused_for_noise = true, updated_at = now()
    where id = any(${sql.array(keywordIds as string[])}) and not muted
    returning id, workspace_id, term, kind`;
}

/** Running keywords among `keywordIds`, with when health and the brake start judging them (2.1.4). */
export async function findRunningKeywords(
  sql: Queryable,
  keywordIds: readonly string[],
): Promise<{ id: string; workspaceId: string; judgedSince: Date | null }[]> {
  if (keywordIds.length === 0) return [];
  return sql<{ id: string; workspaceId: string; judgedSince: Date | null }[]>`
    /* findRunningKeywords */
    select id, workspace_id, judged_since from keywords
    where id = any(${sql.array(keywordIds as string[])}) and not muted`;
}
