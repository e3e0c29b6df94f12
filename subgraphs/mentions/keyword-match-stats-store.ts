import type postgres from 'postgres';
import { relevantSql } from './relevance.ts';
import type { Queryable } from '../../runtime/database.ts';

/**
 * Lifetime and calendar figures of a keyword's charged matches (spec 2.1.4:
 * `mentions` is "the number billing counts"). A match is charged when
 * scored, so these count scored matches only; one not scored yet, or whose
 * classification failed, is in the health window's `unscored` instead.
 * `thisMonth` is no count of mentions: it is the month's charged items,
 * read from the ledger with the keyword's cost.
 */
export interface KeywordMatchTotals {
  keywordId: string;
  mentions: number;
  relevant: number;
  last7d: number;
  lastMentionAt: Date | null;
  feedbackRelevant: number;
  feedbackNotRelevant: number;
}

/** Scored and unscored matches of a keyword inside a window (health, noise). */
export interface KeywordWindowCounts {
  keywordId: string;
  matches: number;
  relevant: number;
  filtered: number;
  unscored: number;
}

// A user's verdict overrides the classifier (spec 2.4); a words-close-together
// match that is not scored yet is not billed and so not counted (2.1.3).
export const countedSql = (sql: postgres.Sql<{}> | postgres.TransactionSql<{}>) => sql`not (m.fuzzy and m.relevance is null and m.verdict_relevant is null)`;

// Scored (or judged by a user): what scoring kept and charged.
const scoredSql = (sql: postgres.Sql<{}> | postgres.TransactionSql<{}>) => sql`(m.relevance is not null or m.verdict_relevant is not null)`;

/**
 * A keyword's lifetime figures and its scored matches in one window, read
 * together: the window holds what noise and health judge by, no more (each
 * count is a pass of its own over every match the statement reads).
 */
export interface KeywordMatchCounts {
  totals: KeywordMatchTotals;
  window: Pick<KeywordWindowCounts, 'keywordId' | 'relevant' | 'filtered'>;
}

/** A keyword and the instant its window of matches starts at. */
export interface KeywordMatchWindow {
  keywordId: string;
  since: Date;
}

/**
 * For each window asked (a keyword and a `since`), the keyword's lifetime
 * and calendar figures and its matches made at or after `since`, in one
 * statement: both count the same rows of `mentions`, so one pass over a
 * keyword's matches serves the stats, noise and health of a keyword page.
 * Each window reads its keyword's entries of `mentions_by_keyword_counted`
 * (migration 050), which hold every column counted, and never the table:
 * a sequential scan of every mention hashed to the windows cost three
 * times as much on 5,000 mentions (PERFORMANCE.md, "Gateways"), and grew with the
 * whole table rather than with the keyword. A subquery of a row per
 * window, with its `since`: `windows` is a subquery of `(keyword_id, since)`
 * rows, so the statement that reads the keywords (their page) can hold it.
 */
export const keywordMatchCountsSql = (sql: Queryable, windows: postgres.Fragment, now: Date) => {
  const weekAgo = new Date(now.getTime() - 7 * 86_400_000);
  // The mention's own copy of its post's publication time (migration 027): the totals read no posts.
  return sql`
    select w.keyword_id, w.since, c.*
    from (${windows}) w
    cross join lateral (
      select count(*)::int as mentions,
             count(*) filter (where ${relevantSql(sql)})::int as relevant,
             count(*) filter (where m.published_at >= ${weekAgo})::int as last7d,
             max(m.published_at) as last_mention_at,
             count(*) filter (where m.verdict_relevant)::int as feedback_relevant,
             count(*) filter (where not m.verdict_relevant)::int as feedback_not_relevant,
             count(*) filter (where m.created_at >= w.since and ${relevantSql(sql)})::int as window_relevant,
             count(*) filter (where m.created_at >= w.since and m.relevance is not null and not ${relevantSql(sql)})::int as window_filtered
      from mentions m
      where m.keyword_id = w.keyword_id and ${scoredSql(sql)}
    ) c`;
};

/** A row of `keywordMatchCountsSql`. */
interface KeywordMatchCountsRow extends Omit<KeywordMatchTotals, 'keywordId'> {
  keywordId: string;
  since: Date;
  windowRelevant: number;
  windowFiltered: number;
}

const matchCountsOfRow = (row: KeywordMatchCountsRow): KeywordMatchCounts & { since: Date } => ({
  since: row.since,
  totals: {
    keywordId: row.keywordId,
    mentions: row.mentions,
    relevant: row.relevant,
    last7d: row.last7d,
    lastMentionAt: row.lastMentionAt,
    feedbackRelevant: row.feedbackRelevant,
    feedbackNotRelevant: row.feedbackNotRelevant,
  },
  window: { keywordId: row.keywordId, relevant: row.windowRelevant, filtered: row.windowFiltered },
});

/** The counts of each window of `windows`, a subquery of `(keyword_id, since)` rows, each with its `since`. */
async function keywordMatchCountsOfWindows(sql: Queryable, windows: postgres.Fragment, now: Date): Promise<(KeywordMatchCounts & { since: Date })[]> {
  const rows = await sql<KeywordMatchCountsRow[]>`
    /* keywordMatchCounts */
    ${keywordMatchCountsSql(sql, windows, now)}`;
  return rows.map(matchCountsOfRow);
}

/** Rows of `keywordMatchCountsSql` as a statement's `json_agg` gives them back (column names as keys, instants as text). */
export const keywordMatchCountsOfJson = (rows: Record<string, unknown>[]): (KeywordMatchCounts & { since: Date })[] =>
  rows.map((row) =>
    matchCountsOfRow({
      keywordId: row.keyword_id as string,
      since: new Date(row.since as string),
      mentions: row.mentions as number,
      relevant: row.relevant as number,
      last7d: row.last7d as number,
      lastMentionAt: row.last_mention_at === null ? null : new Date(row.last_mention_at as string),
      feedbackRelevant: row.feedback_relevant as number,
      feedbackNotRelevant: row.feedback_not_relevant as number,
      windowRelevant: row.window_relevant as number,
      windowFiltered: row.window_filtered as number,
    }),
  );

/** The counts of each window asked, in the order of `windows`. */
export async function keywordMatchCounts(sql: Queryable, windows: readonly KeywordMatchWindow[], now: Date): Promise<KeywordMatchCounts[]> {
  if (windows.length === 0) return [];
  const counted = await keywordMatchCountsOfWindows(
    sql,
    sql`select * from unnest(${sql.array(windows.map((window) => window.keywordId))}::text[], ${sql.array(windows.map((window) => window.since.toISOString()))}::timestamptz[]) as w(keyword_id, since)`,
    now,
  );
  const windowKey = ({ keywordId, since }: KeywordMatchWindow) => `${keywordId}@${since.getTime()}`;
  const byWindow = new Map(counted.map((counts) => [windowKey({ keywordId: counts.totals.keywordId, since: counts.since }), counts]));
  return windows.map((window) => {
    const { totals, window: counts } = byWindow.get(windowKey(window))!;
    return { totals, window: counts };
  });
}

/** Per keyword, matches made at or after `since[keywordId]` (by match time). */
export async function keywordWindowCounts(
  sql: Queryable,
  since: ReadonlyMap<string, Date>,
): Promise<Map<string, KeywordWindowCounts>> {
  if (since.size === 0) return new Map();
  const rows = await sql<KeywordWindowCounts[]>`
    /* keywordWindowCounts */
    select w.keyword_id,
           count(m.id)::int as matches,
           count(m.id) filter (where ${relevantSql(sql)})::int as relevant,
           count(m.id) filter (where m.relevance is not null and not ${relevantSql(sql)})::int as filtered,
           count(m.id) filter (where m.relevance is null and m.verdict_relevant is null)::int as unscored
    from unnest(${sql.array([...since.keys()])}::text[], ${sql.array([...since.values()].map((d) => d.toISOString()))}::timestamptz[])
         as w(keyword_id, since)
    left join mentions m on m.keyword_id = w.keyword_id and m.created_at >= w.since and ${countedSql(sql)}
    group by w.keyword_id`;
  return new Map(rows.map((row) => [row.keywordId, row]));
}

export type KeywordPlatformCounts = Omit<KeywordWindowCounts, 'keywordId'> & { platform: string };

/** One keyword's matches made at or after `since`, per platform of the post (the health report's byPlatform). */
export async function keywordPlatformWindowCounts(sql: Queryable, keywordId: string, since: Date): Promise<KeywordPlatformCounts[]> {
  return sql<KeywordPlatformCounts[]>`
    /* keywordPlatformWindowCounts */
    select p.platform,
           count(*)::int as matches,
           count(*) filter (where ${relevantSql(sql)})::int as relevant,
           count(*) filter (where m.relevance is not null and not ${relevantSql(sql)})::int as filtered,
           count(*) filter (where m.relevance is null and m.verdict_relevant is null)::int as unscored
    from mentions m join posts p on p.id = m.post_id
    where m.keyword_id = ${keywordId} and m.created_at >= ${since} and ${countedSql(sql)}
    group by p.platform
    order by count(*) desc, p.platform`;
}

/** The workspace's matches since `since`, for a keyword's share of them. */
export async function workspaceMatchCount(sql: Queryable, workspaceId: string, since: Date): Promise<number> {
  const [row] = await sql<{ count: number }[]>`
    /* workspaceMatchCount */
    select count(*)::int as count from mentions m where m.workspace_id = ${workspaceId} and m.created_at >= ${since}
      and ${countedSql(sql)}`;
  return row.count;
}
