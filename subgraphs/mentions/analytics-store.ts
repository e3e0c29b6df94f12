import type postgres from 'postgres';
import type { Queryable } from '../../runtime/database.ts';
import { intents } from '../../vocabulary/classification-values.ts';
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
 * for no value (unscored, language not known).
 */
function dimensionKey(sql: Queryable, by: Exclude<AnalyticsDimension, 'intent'>) {
  switch (by) {
    case 'sentiment':
      return sql`coalesce(m.verdict_sentiment, m.sentiment, 'unknown')`;
    case 'language':
      return sql`coalesce(m.language, 'unknown')`;
    case 'platform':
      return sql`m.platform`;
    case 'keyword':
      return sql`m.keyword_id`;
  }
}

/**
 * The cells of the count, from the matching mentions: per bucket and key
 * (`total` false) and per bucket (`key` null, `total` true). A mention
 * counts under each of its intents, `none` without any, and once in its
 * bucket's total; the five intents are counted side by side in one pass and
 * turned into cells after, which costs half what unnesting each mention's
 * intents does.
 */
function countedCells(sql: Queryable, by: AnalyticsDimension, start: postgres.Fragment, matching: postgres.Fragment) {
  if (by !== 'intent') {
    const key = dimensionKey(sql, by);
    return sql`
      select ${start} as start, ${key} as key, count(*)::int as count, grouping(${key}) = 1 as total
      from mentions m where ${matching}
      group by grouping sets ((1, 2), (1))`;
  }
  const column = (index: number) => sql(`intent_${index}`);
  return sql`
    select per_bucket.start, cell.key, cell.count, cell.key is null as total
    from (
      select ${start} as start, count(*)::int as mentions,
             ${intents.map((intent, index) => sql`count(*) filter (where ${intent} = any(m.intents))::int as ${column(index)},`)}
             count(*) filter (where coalesce(cardinality(m.intents), 0) = 0)::int as no_intent
      from mentions m where ${matching}
      group by 1
    ) per_bucket
    cross join lateral (values (null::text, per_bucket.mentions),
                               ${intents.map((intent, index) => sql`(${intent}::text, per_bucket.${column(index)}),`)}
                               ('none', per_bucket.no_intent)) as cell(key, count)
    where cell.key is null or cell.count > 0`;
}

/**
 * Where the bucket holding `at` starts. Hours, days and weeks are fixed
 * lengths of absolute time binned from a Monday at 00:00 UTC, which is plain
 * arithmetic (`date_bin`) and half the cost of cutting each row in a time
 * zone; months are calendar months, cut in UTC.
 */
function bucketStart(sql: Queryable, bucket: AnalyticsBucket, at: postgres.Fragment) {
  return bucket === 'month'
    ? sql`date_trunc('month', ${at}, 'UTC')`
    : sql`date_bin(${fixedSteps[bucket]}::interval, ${at}, '2000-01-03T00:00:00Z'::timestamptz)`;
}

/** Bucket lengths in hours: exact whatever the session's time zone, where `1 day` would follow its clock changes. */
const fixedSteps = { hour: '1 hour', day: '24 hours', week: '168 hours' } as const;

/** Every bucket start of the range, oldest first. */
function bucketSeries(sql: Queryable, query: AnalyticsQuery) {
  return query.bucket === 'month'
    ? sql`select slot at time zone 'UTC' as start
          from generate_series(date_trunc('month', ${query.since}::timestamptz, 'UTC') at time zone 'UTC',
                               ${query.until}::timestamptz at time zone 'UTC', '1 month'::interval) as slot`
    : sql`select slot as start
          from generate_series(${bucketStart(sql, query.bucket, sql`${query.since}::timestamptz`)}, ${query.until}::timestamptz,
                               ${fixedSteps[query.bucket]}::interval) as slot`;
}

/**
 * The counts of a workspace's mentions published in the range, per bucket
 * and key, with each bucket's total and every bucket of the range present
 * even when empty, in one statement. It reads only the
 * `mentions_by_publication` index (workspace, publication time, and every
 * column counted or filtered on), never the posts. Buckets are cut in UTC
 * whatever the session's time zone.
 */
export async function countMentions(sql: Queryable, workspaceId: string, query: AnalyticsQuery): Promise<AnalyticsCell[]> {
  const matching = sql`
    m.workspace_id = ${workspaceId} and m.published_at >= ${query.since} and m.published_at <= ${query.until}
    ${query.keywordIds?.length ? sql`and m.keyword_id = any(${sql.array(query.keywordIds)})` : sql``}
    ${query.platforms?.length ? sql`and m.platform = any(${sql.array(query.platforms)})` : sql``}
    ${query.relevant === true ? sql`and ${relevantSql(sql)}` : sql``}
    ${query.relevant === false ? sql`and not ${relevantSql(sql)}` : sql``}`;
  return sql<AnalyticsCell[]>`
    /* countMentions */
    with buckets as (
      ${bucketSeries(sql, query)}
    ), counted as (
      ${countedCells(sql, query.by, bucketStart(sql, query.bucket, sql`m.published_at`), matching)}
    )
    select buckets.start, counted.key, coalesce(counted.count, 0) as count, coalesce(counted.total, false) as total
    from buckets left join counted on counted.start = buckets.start
    order by buckets.start, counted.total desc nulls last, counted.key`;
}
