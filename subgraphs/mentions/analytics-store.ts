import type postgres from 'postgres';
import type { Queryable } from '../../runtime/database.ts';
import { intents } from '../../vocabulary/classification-values.ts';
import { relevanceBucketSql, relevantSql } from './relevance.ts';

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
  /** Only these keywords; left out, every keyword (an empty list counts nothing). */
  keywordIds?: string[];
  /** Only these platforms; left out, every platform (an empty list counts nothing). */
  platforms?: string[];
  /** Only mentions with any of these intents; left out, every mention (an empty list counts nothing). */
  intents?: string[];
  /** Only mentions with any of these sentiments, a corrected one as corrected; left out, every mention. */
  sentiments?: string[];
  /** Only mentions in these of Octolens's relevance buckets (spec 4.8); left out, every mention. */
  relevanceBuckets?: number[];
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
 * (`total` false) and per bucket (`key` null, `total` true). Rows are
 * grouped first by `start`, the bucket, or for months the UTC day, which
 * `regroup` then folds into months: cutting a calendar month costs a time
 * zone lookup, done once per day rather than once per mention. A mention
 * counts under each of its intents, `none` without any, and once in its
 * bucket's total. Mentions are grouped by their set of intents first, of
 * which a bucket holds a few, and each intent's count summed from those
 * groups: testing every intent against every mention cost as much as the
 * rest of the count.
 */
function countedCells(sql: Queryable, by: AnalyticsDimension, grouping: { start: postgres.Fragment; regroup: (column: postgres.Fragment) => postgres.Fragment }, matching: postgres.Fragment) {
  const { start, regroup } = grouping;
  if (by !== 'intent') {
    return sql`
      with per_start as (
        select ${start} as start, ${dimensionKey(sql, by)} as key, count(*)::int as count
        from mentions m where ${matching}
        group by 1, 2
      ), per_key as (
        select ${regroup(sql`start`)} as start, key, sum(count)::int as count from per_start group by 1, 2
      )
      select start, key, count, false as total from per_key
      union all
      select start, null, sum(count)::int, true from per_key group by start`;
  }
  const column = (index: number) => sql(`intent_${index}`);
  return sql`
    with per_set as (
      select ${start} as start, m.intents, count(*)::int as mentions
      from mentions m where ${matching}
      group by 1, 2
    ), per_bucket as (
      select ${regroup(sql`start`)} as start, sum(mentions)::int as mentions,
             ${intents.map((intent, index) => sql`coalesce(sum(mentions) filter (where ${intent} = any(intents)), 0)::int as ${column(index)},`)}
             coalesce(sum(mentions) filter (where coalesce(cardinality(intents), 0) = 0), 0)::int as no_intent
      from per_set group by 1
    )
    select per_bucket.start, cell.key, cell.count, cell.key is null as total
    from per_bucket
    cross join lateral (values (null::text, per_bucket.mentions),
                               ${intents.map((intent, index) => sql`(${intent}::text, per_bucket.${column(index)}),`)}
                               ('none', per_bucket.no_intent)) as cell(key, count)
    where cell.key is null or cell.count > 0`;
}

/**
 * Where the bucket holding `at` starts. Hours, days and weeks are fixed
 * lengths of absolute time binned from a Monday at 00:00 UTC, which is plain
 * arithmetic (`date_bin`); months are calendar months, cut in UTC.
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
 * even when empty, in one statement. It reads one range of the
 * `mentions_by_relevance_and_publication` index (workspace, relevance,
 * publication time, and every column counted or filtered on; migration
 * 048), two for every mention (`relevant` null), never the table or the
 * posts. Buckets are cut in UTC whatever the session's time zone. A
 * mention is published no later than it is matched (storeMatchedPosts), so
 * the range bounds the match time too, which reads only its months
 * (migration 053, whose index includes the match time, so the scan stays
 * index-only).
 */
export async function countMentions(sql: Queryable, workspaceId: string, query: AnalyticsQuery): Promise<AnalyticsCell[]> {
  const matching = sql`
    m.workspace_id = ${workspaceId} and m.published_at >= ${query.since} and m.published_at <= ${query.until}
    and m.created_at >= ${query.since}
    ${query.keywordIds ? sql`and m.keyword_id = any(${sql.array(query.keywordIds)}::text[])` : sql``}
    ${query.platforms ? sql`and m.platform = any(${sql.array(query.platforms)}::text[])` : sql``}
    ${query.intents ? sql`and coalesce(m.intents && ${sql.array(query.intents)}::text[], false)` : sql``}
    ${query.sentiments ? sql`and coalesce(m.verdict_sentiment, m.sentiment) = any(${sql.array(query.sentiments)}::text[])` : sql``}
    ${query.relevanceBuckets ? sql`and ${relevanceBucketSql(sql)} = any(${sql.array(query.relevanceBuckets)}::int[])` : sql``}
    ${query.relevant === true ? sql`and ${relevantSql(sql)}` : sql``}
    ${query.relevant === false ? sql`and not ${relevantSql(sql)}` : sql``}`;
  return sql<AnalyticsCell[]>`
    /* countMentions */
    with buckets as (
      ${bucketSeries(sql, query)}
    ), counted as (
      ${countedCells(sql, query.by, {
        start: bucketStart(sql, query.bucket === 'month' ? 'day' : query.bucket, sql`m.published_at`),
        regroup: (column) => (query.bucket === 'month' ? bucketStart(sql, 'month', column) : column),
      }, matching)}
    )
    select buckets.start, counted.key, coalesce(counted.count, 0) as count, coalesce(counted.total, false) as total
    from buckets left join counted on counted.start = buckets.start
    order by buckets.start, counted.total desc nulls last, counted.key`;
}
