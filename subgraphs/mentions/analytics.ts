import { z } from 'zod';
import { sentiments } from '../../vocabulary/classification-values.ts';
import { platforms } from '../../vocabulary/normalized-post.ts';
import type { Sql } from '../../runtime/database.ts';
import { domainError } from '../domain-error.ts';
import type { PothosBuilder, PothosObjectRef } from '../pothos-builder.ts';
import { requireAuth } from '../require-auth.ts';
import { parseInput, withoutNullKeys } from '../validate-input.ts';
import { analyticsBuckets, type AnalyticsBucket, analyticsDimensions, type AnalyticsQuery, countMentions } from './analytics-store.ts';
import { checkFilterKeywords } from './mention-filter-lookups.ts';

/** The most buckets one request may ask for: 41 days of hours, or more than two years of days. */
export const maxAnalyticsBuckets = 1000;

/** The range a request without `since` covers, ending at `until`. */
const defaultSpan: Record<AnalyticsBucket, (until: Date) => Date> = {
  hour: (until) => new Date(until.getTime() - 24 * 3_600_000),
  day: (until) => new Date(until.getTime() - 30 * 86_400_000),
  week: (until) => new Date(until.getTime() - 12 * 7 * 86_400_000),
  month: (until) => new Date(Date.UTC(until.getUTCFullYear(), until.getUTCMonth() - 11, 1)),
};

/** The counting request (GraphQL arguments, and the REST query once parsed). */
export const analyticsInput = z.strictObject({
  by: z.enum(analyticsDimensions),
  bucket: z.enum(analyticsBuckets).optional(),
  since: z.date().optional(),
  until: z.date().optional(),
  keywordIds: z.array(z.string().min(1).max(100)).max(100).optional(),
  platforms: z.array(z.enum(platforms)).optional(),
  intents: z.array(z.string().min(1).max(100)).max(100).optional(),
  sentiments: z.array(z.enum(sentiments)).optional(),
  relevanceBuckets: z.array(z.number().int().min(0).max(2)).optional(),
  relevant: z.boolean().nullable().optional(),
});

const hourMs = 3_600_000;
// 1970-01-05 was a Monday: weeks counted from it start on Mondays, as PostgreSQL's date_trunc cuts them.
const mondayMs = 4 * 24 * hourMs;
const bucketIndex: Record<AnalyticsBucket, (at: Date) => number> = {
  hour: (at) => Math.floor(at.getTime() / hourMs),
  day: (at) => Math.floor(at.getTime() / (24 * hourMs)),
  week: (at) => Math.floor((at.getTime() - mondayMs) / (7 * 24 * hourMs)),
  month: (at) => at.getUTCFullYear() * 12 + at.getUTCMonth(),
};

/** How many `bucket` buckets the range from `since` to `until` (both included) touches. */
export const analyticsBucketCount = (bucket: AnalyticsBucket, since: Date, until: Date): number => bucketIndex[bucket](until) - bucketIndex[bucket](since) + 1;

/** The request with its defaults, or `validation_error` for a range backwards or of more than `maxAnalyticsBuckets` buckets. */
export function settleAnalyticsQuery(rawInput: unknown, now: Date): AnalyticsQuery {
  const input = parseInput(analyticsInput, rawInput);
  const bucket = input.bucket ?? 'day';
  const until = input.until ?? now;
  const since = input.since ?? defaultSpan[bucket](until);
  if (since > until) throw domainError('validation_error', 'since: must not be after until', { field: 'since' });
  const buckets = analyticsBucketCount(bucket, since, until);
  if (buckets > maxAnalyticsBuckets) {
    throw domainError(
      'validation_error',
      `bucket: the range holds ${buckets} ${bucket} buckets, at most ${maxAnalyticsBuckets}; choose a larger bucket or a shorter range`,
      { field: 'bucket' },
    );
  }
  return {
    by: input.by,
    bucket,
    since,
    until,
    keywordIds: input.keywordIds,
    platforms: input.platforms,
    intents: input.intents,
    sentiments: input.sentiments,
    relevanceBuckets: input.relevanceBuckets,
    relevant: input.relevant === undefined ? true : input.relevant,
  };
}

export interface AnalyticsPoint {
  start: Date;
  count: number;
}

export interface AnalyticsReport {
  by: AnalyticsQuery['by'];
  bucket: AnalyticsBucket;
  since: Date;
  until: Date;
  /** Mentions counted; a mention with two intents once. */
  total: number;
  /** Each bucket's mentions, every bucket of the range. */
  totals: AnalyticsPoint[];
  /** One series per key met, largest first; each has every bucket of the range. */
  series: { key: string; total: number; points: AnalyticsPoint[] }[];
}

/**
 * Counts of the workspace's mentions by sentiment, language, platform,
 * keyword or intent per UTC bucket (issue 14 point 5), from one SQL
 * statement. Verdicts are written through (spec 2.4): a corrected sentiment
 * counts as corrected, and `relevant` follows the user's relevance verdict.
 * Every mention in the range counts whatever its status, snooze or muting:
 * this is what was said, not what is left to read.
 */
export async function mentionAnalytics(sql: Sql, workspaceId: string, rawInput: unknown, now: Date): Promise<AnalyticsReport> {
  return reportAnalytics(sql, workspaceId, settleAnalyticsQuery(rawInput, now));
}

/** The counts of a settled request. */
async function reportAnalytics(sql: Sql, workspaceId: string, query: AnalyticsQuery): Promise<AnalyticsReport> {
  const cells = await countMentions(sql, workspaceId, query);
  const starts = [...new Map(cells.map((cell) => [cell.start.getTime(), cell.start])).values()];
  const totals = new Map<number, number>();
  const byKey = new Map<string, Map<number, number>>();
  for (const cell of cells) {
    if (cell.total) totals.set(cell.start.getTime(), cell.count);
    else if (cell.key !== null) byKey.set(cell.key, (byKey.get(cell.key) ?? new Map()).set(cell.start.getTime(), cell.count));
  }
  const pointsOf = (counts: Map<number, number>) => starts.map((start) => ({ start, count: counts.get(start.getTime()) ?? 0 }));
  const series = [...byKey].map(([key, counts]) => ({ key, total: [...counts.values()].reduce((sum, n) => sum + n, 0), points: pointsOf(counts) }));
  series.sort((a, b) => b.total - a.total || a.key.localeCompare(b.key));
  return {
    by: query.by,
    bucket: query.bucket,
    since: query.since,
    until: query.until,
    total: [...totals.values()].reduce((sum, n) => sum + n, 0),
    totals: pointsOf(totals),
    series,
  };
}

/** The `MentionAnalytics` type and the `mentionAnalytics` query; answers the type, which the compatibility API's counts share. */
export function addAnalyticsType(builder: PothosBuilder, Keyword: PothosObjectRef<{ id: string }>): PothosObjectRef<AnalyticsReport> {
  const AnalyticsPointType = builder.objectRef<AnalyticsPoint>('AnalyticsPoint').implement({
    fields: (t) => ({
      start: t.expose('start', { type: 'DateTime', description: 'Where the bucket starts (UTC)' }),
      count: t.exposeInt('count'),
    }),
  });

  const AnalyticsSeries = builder.objectRef<AnalyticsReport['series'][number] & { by: string }>('AnalyticsSeries').implement({
    fields: (t) => ({
      key: t.exposeString('key', {
        description: 'The sentiment, language, platform, keyword id or intent; `unknown` for no sentiment or language, `none` for no intent',
      }),
      keyword: t.field({ type: Keyword, nullable: true, description: 'The keyword, when counting by keyword', resolve: (s) => (s.by === 'keyword' ? { id: s.key } : null) }),
      total: t.exposeInt('total'),
      points: t.field({ type: [AnalyticsPointType], description: 'Every bucket of the range, oldest first', resolve: (s) => s.points }),
    }),
  });

  const Analytics = builder.objectRef<AnalyticsReport>('MentionAnalytics').implement({
    description: 'Mentions counted per bucket and key over a range of publication times',
    fields: (t) => ({
      by: t.exposeString('by'),
      bucket: t.exposeString('bucket'),
      since: t.expose('since', { type: 'DateTime' }),
      until: t.expose('until', { type: 'DateTime' }),
      total: t.exposeInt('total', { description: 'Mentions counted; one with two intents counts once' }),
      totals: t.field({ type: [AnalyticsPointType], description: "Each bucket's mentions", resolve: (r) => r.totals }),
      series: t.field({
        type: [AnalyticsSeries],
        description: 'One per key met in the range, largest first',
        resolve: (r) => r.series.map((s) => ({ ...s, by: r.by })),
      }),
    }),
  });

  builder.queryField('mentionAnalytics', (t) =>
    t.field({
      type: Analytics,
      description: `Counts of mentions by ${analyticsDimensions.join(', ')} in UTC buckets (${analyticsBuckets.join(', ')}); at most ${maxAnalyticsBuckets} buckets`,
      args: {
        by: t.arg.string({ required: true }),
        bucket: t.arg.string({ description: 'Default day' }),
        since: t.arg({ type: 'DateTime', description: 'Published at or after; default a span before `until` fitting the bucket' }),
        until: t.arg({ type: 'DateTime', description: 'Published at or before; default now' }),
        keywordIds: t.arg.idList(),
        platforms: t.arg.stringList(),
        relevant: t.arg.boolean({ description: 'Default true: relevant only; false: the rest, unclassified included; null: every mention' }),
      },
      resolve: async (_root, args, ctx) => {
        // `relevant: null` asks for every mention; other keys sent as null are not sent.
        const { relevant, ...rest } = args;
        const input = { ...withoutNullKeys({ ...rest, keywordIds: rest.keywordIds?.map(String) }), ...(relevant === undefined ? {} : { relevant }) };
        const { workspaceId } = requireAuth(ctx);
        const query = settleAnalyticsQuery(input, ctx.clock.now());
        // As the mention list: a keyword id of another workspace, or of none, is `not_found` rather than a count of nothing.
        if (query.keywordIds) await checkFilterKeywords(ctx.sql, ctx.keywordDirectory, workspaceId, { keywordIds: query.keywordIds });
        return reportAnalytics(ctx.sql, workspaceId, query);
      },
    }),
  );
  return Analytics;
}
