import type { Queryable } from '../../runtime/database.ts';
import type { KeywordKind } from './keyword-store.ts';

/**
 * Every write of a keyword's run state by the wallet, the caps and the
 * noise brake (spec 3.1). Set-based, because the daily tick pauses the
 * keywords of thousands of workspaces in one statement. Manual mute and
 * unmute stay with the keyword PATCH.
 */

/** What an account event says about a keyword (spec 6.4 `keyword`). */
export interface KeywordRef {
  id: string;
  workspaceId: string;
  term: string;
  kind: KeywordKind;
}

/** A workspace's keywords by run state, for the wallet's figures and decisions. */
export interface KeywordRunCounts {
  /** Unmuted: polled, matched (unless at cap) and charged a day by each tick. */
  running: number;
  /** Running and created before `dueBefore`: what a tick for that day charges. */
  due: number;
  /** Running but at their cap. */
  capped: number;
  pausedForBalance: number;
  /** Paused for balance and for nothing else: a credit that covers them resumes them. */
  resumable: number;
  /** Muted by a user or by the noise brake (not by the wallet). */
  muted: number;
}

export const noKeywords: KeywordRunCounts = { running: 0, due: 0, capped: 0, pausedForBalance: 0, resumable: 0, muted: 0 };

export async function countKeywordRunStates(
  sql: Queryable,
  workspaceIds: readonly string[],
  dueBefore: Date,
): Promise<Map<string, KeywordRunCounts>> {
  const rows = await sql<({ workspaceId: string } & KeywordRunCounts)[]>`
    /* countKeywordRunStates */
    select workspace_id,
           count(*) filter (where not muted)::int as running,
           count(*) filter (where not muted and created_at < ${dueBefore})::int as due,
           count(*) filter (where not muted and paused_for_cap)::int as capped,
           count(*) filter (where paused_for_balance)::int as paused_for_balance,
           count(*) filter (where paused_for_balance and not paused_for_noise)::int as resumable,
           count(*) filter (where muted and not paused_for_balance)::int as muted
    from keywords
    where workspace_id = any(${sql.array(workspaceIds as string[])})
    group by workspace_id`;
  return new Map(rows.map(({ workspaceId, ...counts }) => [workspaceId, counts]));
}

/** Mutes every running keyword of these workspaces for lack of balance (3.2: all pause together). */
export async function pauseRunningKeywordsForBalance(sql: Queryable, workspaceIds: readonly string[]): Promise<KeywordRef[]> {
  if (workspaceIds.length === 0) return [];
  return sql<KeywordRef[]>`
    /* pauseRunningKeywordsForBalance */
    update keywords set muted = true, paused_for_balance = true, updated_at = now()
    where workspace_id = any(${sql.array(workspaceIds as string[])}) and not muted
    returning id, workspace_id, term, kind`;
}

/**
 * Lifts the wallet's pause from every keyword of the workspace; a keyword
 * also paused by the noise brake stays muted (a top-up does not resume it,
 * 3.1). Returns the keywords that listen again.
 */
export async function resumeKeywordsPausedForBalance(sql: Queryable, workspaceId: string): Promise<KeywordRef[]> {
  return sql<KeywordRef[]>`
    /* resumeKeywordsPausedForBalance */
    with lifted as (
      update keywords set paused_for_balance = false, muted = paused_for_noise, updated_at = now()
      where workspace_id = ${workspaceId} and paused_for_balance
      returning id, workspace_id, term, kind, muted
    )
    select id, workspace_id, term, kind from lifted where not muted order by id`;
}

/** Sets or clears `pausedForCap`; returns the keywords whose flag changed. */
export async function setPausedForCap(sql: Queryable, keywordIds: readonly string[], paused: boolean): Promise<(KeywordRef & { muted: boolean })[]> {
  if (keywordIds.length === 0) return [];
  return sql<(KeywordRef & { muted: boolean })[]>`
    /* setPausedForCap */
    update keywords set paused_for_cap = ${paused}, updated_at = now()
    where id = any(${sql.array(keywordIds as string[])}) and paused_for_cap <> ${paused}
    returning id, workspace_id, term, kind, muted`;
}

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
