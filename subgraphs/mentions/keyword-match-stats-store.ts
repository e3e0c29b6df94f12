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
 * and calendar figures and its scored matches made at or after `since`, in
 * one statement, from the keyword's rows of `keyword_match_days`
 * (migration 072: its scored matches counted per match day and
 * publication day, kept exact by triggers on mentions), whatever the
 * keyword's size. Each time edge falls inside a day: a window's first day
 * and the first publication day of `last7d` are counted from the matches
 * of those days alone, an index range of `mentions_by_keyword_counted`
 * (migration 050) each. Counting every scored match of each keyword on
 * each request cost about 2.4 ms of PostgreSQL a keyword page on the
 * benchmark's 5,000 mentions and 790 ms for a keyword of 1,000,000
 * (PERFORMANCE.md, "Gateways"). `windows` is a subquery of
 * `(keyword_id, since)` rows, so the statement that reads the keywords
 * (their page) can hold it.
 */
export const keywordMatchCountsSql = (sql: Queryable, windows: postgres.Fragment, now: Date) => {
  const weekAgo = new Date(now.getTime() - 7 * 86_400_000);
  const weekAgoDay = sql`utc_day(${weekAgo}::timestamptz)`;
  return sql`
    select w.keyword_id, w.since, c.mentions, c.relevant, c.last7d + e.last7d as last7d, c.last_mention_at,
           c.feedback_relevant, c.feedback_not_relevant,
           c.window_relevant + e.window_relevant as window_relevant, c.window_filtered + e.window_filtered as window_filtered
    from (${windows}) w
    cross join lateral (
      select coalesce(sum(d.mentions), 0)::int as mentions,
             coalesce(sum(d.relevant), 0)::int as relevant,
             coalesce(sum(d.mentions) filter (where d.published_day > ${weekAgoDay}), 0)::int as last7d,
             max(d.last_published_at) as last_mention_at,
             coalesce(sum(d.feedback_relevant), 0)::int as feedback_relevant,
             coalesce(sum(d.feedback_not_relevant), 0)::int as feedback_not_relevant,
             coalesce(sum(d.relevant) filter (where d.match_day > utc_day(w.since)), 0)::int as window_relevant,
             coalesce(sum(d.filtered) filter (where d.match_day > utc_day(w.since)), 0)::int as window_filtered
      from keyword_match_days d
      where d.keyword_id = w.keyword_id
    ) c
    cross join lateral (
      select count(*) filter (where m.created_at >= w.since and ${relevantSql(sql)})::int as window_relevant,
             count(*) filter (where m.created_at >= w.since and m.relevance is not null and not ${relevantSql(sql)})::int as window_filtered,
             (select count(*)::int
              from keyword_match_days d
              join mentions m on m.keyword_id = d.keyword_id
                and m.created_at >= utc_day_start(d.match_day) and m.created_at < utc_day_start(d.match_day + 1)
              where d.keyword_id = w.keyword_id and d.published_day = ${weekAgoDay}
                and m.published_at >= ${weekAgo} and utc_day(m.published_at) = d.published_day and ${scoredSql(sql)}) as last7d
      from mentions m
      where m.keyword_id = w.keyword_id and ${scoredSql(sql)}
        and m.created_at >= utc_day_start(utc_day(w.since)) and m.created_at < utc_day_start(utc_day(w.since) + 1)
    ) e`;
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

/**
 * Counts these keywords' rows of `keyword_match_days` again from their
 * mentions (migration 072), for mentions written with the triggers off,
 * as a bulk load does.
 */
export async function recountKeywordMatchDays(sql: Queryable, keywordIds: readonly string[]): Promise<void> {
  await sql`/* recountKeywordMatchDays */ select recount_keyword_match_days(${sql.array(keywordIds as string[])})`;
}
