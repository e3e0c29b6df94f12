import type { Queryable } from '../../runtime/database.ts';
import { relevantSql } from './relevance.ts';

/** What mentions are counted by (issue 14 point 5). */
export const analyticsDimensions = ['sentiment', 'language', 'platform', 'keyword', 'intent'] as const;
export type AnalyticsDimension = (typeof analyticsDimensions)[number];

/** Bucket sizes, each starting on its UTC boundary (weeks on Monday). */
export const analyticsBuckets = ['hour', 'day', 'week', 'month'] as const;
export type AnalyticsBucket = (typeof analyticsBuckets)[number];

export interface AnalyticsQuery {
  by: AnalyticsDimension;
  bucket: AnalyticsBucket;
  /** Published at or after. */
  since: Date;
  /** Published at or before. */
  until: Date;
  keywordIds?: string[];
  platforms?: string[];
  /** true: relevant only; false: the rest, unclassified included; null: every mention. */
  relevant: boolean | null;
}

/**
 * One row of the count: a bucket's start with one key's count, a bucket's
 * total (`key` null, `total` true; a mention with two intents counts once
 * there), or an empty bucket (`key` null, `total` false).
 */
export interface AnalyticsCell {
  start: Date;
  key: string | null;
  count: number;
  total: boolean;
}

/**
 * The key a mention counts under, with a user's verdict written through
 * (spec 2.4): a corrected sentiment counts as corrected. `unknown` stands
 * for no value (unscored, language not known). Intents come one row per
 * intent, `none` for a mention without any; `n` is 1 on a mention's first
 * row so its total counts it once.
 */
function keySource(sql: Queryable, by: AnalyticsDimension) {
  switch (by) {
    case 'sentiment':
      return { from: sql``, key: sql`coalesce(m.verdict_sentiment, m.sentiment, 'unknown')`, mentions: sql`count(*)` };
    case 'language':
      return { from: sql``, key: sql`coalesce(m.language, 'unknown')`, mentions: sql`count(*)` };
    case 'platform':
      return { from: sql``, key: sql`m.platform`, mentions: sql`count(*)` };
    case 'keyword':
      return { from: sql``, key: sql`m.keyword_id`, mentions: sql`count(*)` };
    case 'intent':
      return {
        from: sql`cross join lateral unnest(coalesce(nullif(m.intents, '{}'), '{none}')) with ordinality as intent(key, n)`,
        key: sql`intent.key`,
        mentions: sql`count(*) filter (where intent.n = 1)`,
      };
  }
}

const stepOf: Record<AnalyticsBucket, string> = { hour: '1 hour', day: '1 day', week: '7 days', month: '1 month' };

/**
 * The counts of a workspace's mentions published in the range, per bucket
 * and key, with each bucket's total and every bucket of the range present
 * even when empty, in one statement. It reads only the
 * `mentions_by_publication` index (workspace, publication time, and every
 * column counted or filtered on), never the posts. Buckets are cut in UTC
 * whatever the session's time zone.
 */
export async function countMentions(sql: Queryable, workspaceId: string, query: AnalyticsQuery): Promise<AnalyticsCell[]> {
  const source = keySource(sql, query.by);
  return sql<AnalyticsCell[]>`
    /* countMentions */
    with buckets as (
      select slot at time zone 'UTC' as start
      from generate_series(date_trunc(${query.bucket}, ${query.since}::timestamptz, 'UTC') at time zone 'UTC',
                           ${query.until}::timestamptz at time zone 'UTC', ${stepOf[query.bucket]}::interval) as slot
    ), counted as (
      select date_trunc(${query.bucket}, m.published_at, 'UTC') as start, ${source.key} as key,
             count(*)::int as count, ${source.mentions}::int as mentions, grouping(${source.key}) = 1 as total
      from mentions m ${source.from}
      where m.workspace_id = ${workspaceId} and m.published_at >= ${query.since} and m.published_at <= ${query.until}
        ${query.keywordIds?.length ? sql`and m.keyword_id = any(${sql.array(query.keywordIds)})` : sql``}
        ${query.platforms?.length ? sql`and m.platform = any(${sql.array(query.platforms)})` : sql``}
        ${query.relevant === true ? sql`and ${relevantSql(sql)}` : sql``}
        ${query.relevant === false ? sql`and not ${relevantSql(sql)}` : sql``}
      group by grouping sets ((1, 2), (1))
    )
    select buckets.start, case when counted.total then null else counted.key end as key,
           coalesce(case when counted.total then counted.mentions else counted.count end, 0) as count,
           coalesce(counted.total, false) as total
    from buckets left join counted on counted.start = buckets.start
    order by buckets.start, counted.total desc nulls last, counted.key`;
}
