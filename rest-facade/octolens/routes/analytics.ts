import { z } from 'zod';
import { octolensPlatformName, searchPlatformOfOctolensName } from '../../../vocabulary/octolens-platforms.ts';
import { queryList } from '../../../subgraphs/query-list.ts';
import type { GraphQLRoute, RestRequest, RouteResponse } from '../../route.ts';
import { maxKeywordIds, sentimentInAnyCase } from '../mention-filters.ts';
import { integerId } from '../octolens-ids.ts';
import { octolensBase, octolensTag, octolensUnauthorized } from '../octolens-routes.ts';

/** Octolens's sentiment labels, capitalised, in the order its distribution lists them. */
const sentimentLabels = { positive: 'Positive', neutral: 'Neutral', negative: 'Negative' } as const;

/** Octolens's window: ISO 8601 times in UTC (its pattern ends in `Z`). */
const windowEnd = (description: string) => z.iso.datetime().optional().meta({ description });

/** The narrowing every analytics route of Octolens takes. */
const countedMentions = z.object({
  keywordIds: queryList(z.string().regex(/^[1-9]\d*$/, 'must be an integer keyword id').transform(integerId))
    .refine((ids) => new Set(ids).size <= maxKeywordIds, `at most ${maxKeywordIds} keyword ids`)
    .optional()
    .meta({ description: `Integer keyword ids, at most ${maxKeywordIds}, the parameter repeated or comma-separated; ids naming no keyword count nothing` }),
  startDate: windowEnd('Included; default 30 days before `endDate` (ISO 8601, UTC)'),
  endDate: windowEnd('Excluded; default now (ISO 8601, UTC); at most 365 days after `startDate`'),
  platforms: queryList(z.string().min(1).max(50))
    .optional()
    .meta({ description: "Platforms in Octolens's names, the parameter repeated or comma-separated (`twitter`, `dev`, …); one Earshot does not watch counts nothing" }),
  tag: z.string().min(1).max(100).optional().meta({ description: 'Only mentions with this tag (an intent `GET /tags` lists); another tag counts nothing' }),
  sentiment: queryList(sentimentInAnyCase('must be POSITIVE, NEUTRAL or NEGATIVE'))
    .optional()
    .meta({ description: '`POSITIVE`, `NEUTRAL`, `NEGATIVE` (any case), the parameter repeated or comma-separated; a corrected sentiment counts as corrected' }),
  relevance: queryList(z.enum(['0', '1', '2'], { message: 'must be 0, 1 or 2' }).transform(Number))
    .optional()
    .meta({ description: 'Relevance buckets: 0 (70 and up), 1 (40 to 69), 2 (below, or not scored); default 0 and 1, the relevant mentions' }),
});

const badWindow = 'A query parameter the route does not take, a bad value of one, `startDate` not before `endDate`, or a window of more than 365 days (`VALIDATION_ERROR`)';

const countResponses = (description: string, schema: z.ZodType): Record<number, RouteResponse> => ({
  200: { description, schema },
  400: { description: badWindow },
  401: octolensUnauthorized,
});

/** The operation's variables for the narrowing Octolens sent. */
function countedMentionsVariables({ query }: RestRequest) {
  return {
    startDate: query.startDate ?? null,
    endDate: query.endDate ?? null,
    keywordIds: query.keywordIds ?? null,
    // A name we do not know stays as it is and so counts nothing.
    platforms: query.platforms?.map((name: string) => searchPlatformOfOctolensName(name) ?? name) ?? null,
    intents: query.tag === undefined ? null : [query.tag],
    sentiments: query.sentiment ?? null,
    relevance: query.relevance ?? null,
  };
}

/** One `compatMentionAnalytics` operation over the narrowing, by `by`, with `selection` asked of it. */
const countOperation = (name: string, by: string, selection: string, bucket = '') => `query ${name}(
  $startDate: DateTime, $endDate: DateTime, $keywordIds: [Int!], $platforms: [String!], $intents: [String!], $sentiments: [String!], $relevance: [Int!]${bucket ? ', $bucket: String' : ''}
) {
  compatMentionAnalytics(
    by: "${by}", startDate: $startDate, endDate: $endDate, keywordIds: $keywordIds, platforms: $platforms, intents: $intents,
    sentiments: $sentiments, relevance: $relevance${bucket ? ', bucket: $bucket' : ''}
  ) { ${selection} }
}`;

const countsOver = 'of the relevant mentions (or those of the `relevance` buckets named) published in the window (narrowed by keywords, platforms, a tag and sentiments; a corrected verdict counts as corrected)';

const volumeSchema = z
  .object({
    granularity: z.enum(['day', 'hour']).meta({ description: 'The bucket size, as asked (default `day`)' }),
    data: z
      .array(
        z.object({
          bucket: z.string().meta({ description: 'Where the bucket starts in UTC: `YYYY-MM-DD` by day, ISO 8601 by hour', example: '2026-07-01' }),
          count: z.number().int(),
        }),
      )
      .meta({ description: 'Oldest first; buckets without mentions are left out' }),
  })
  .meta({ id: 'OctolensVolume' });

export const octolensAnalyticsRoutes: GraphQLRoute[] = [
  {
    method: 'GET',
    path: `${octolensBase}/analytics/sentiment`,
    operationId: 'octolensAnalyticsSentiment',
    summary: `How many ${countsOver} were positive, neutral and negative; every label listed, 0 when none. Mentions not scored yet are not counted`,
    tag: octolensTag,
    query: countedMentions,
    responses: countResponses(
      'The distribution',
      z.object({ data: z.array(z.object({ sentiment: z.enum(Object.values(sentimentLabels)), count: z.number().int() })) }).meta({ id: 'OctolensSentimentDistribution' }),
    ),
    operation: countOperation('OctolensSentiment', 'sentiment', 'series { key total }'),
    variables: countedMentionsVariables,
    result: (data) => {
      const totals = new Map<string, number>(data.compatMentionAnalytics.series.map((series: { key: string; total: number }) => [series.key, series.total]));
      return {
        status: 200,
        body: { data: Object.entries(sentimentLabels).map(([sentiment, label]) => ({ sentiment: label, count: totals.get(sentiment) ?? 0 })) },
      };
    },
  },
  {
    method: 'GET',
    path: `${octolensBase}/analytics/volume`,
    operationId: 'octolensAnalyticsVolume',
    summary: `How many ${countsOver} fell in each UTC day or hour, oldest first`,
    tag: octolensTag,
    query: countedMentions.extend({
      granularity: z.enum(['day', 'hour']).optional().meta({ description: 'Bucket size, default `day`; at most 1,000 buckets (about 41 days of hours)' }),
    }),
    responses: countResponses('The volume', volumeSchema),
    // `totals` are the same whatever `by` is; a platform is the cheapest key to count.
    operation: countOperation('OctolensVolume', 'platform', 'bucket totals { start count }', 'bucket'),
    variables: (request) => ({ ...countedMentionsVariables(request), bucket: request.query.granularity ?? 'day' }),
    result: (data) => {
      const { bucket, totals } = data.compatMentionAnalytics as { bucket: 'day' | 'hour'; totals: { start: string; count: number }[] };
      return {
        status: 200,
        body: {
          granularity: bucket,
          data: totals
            .filter((point) => point.count > 0)
            .map((point) => ({ bucket: bucket === 'day' ? point.start.slice(0, 10) : point.start, count: point.count })),
        },
      };
    },
  },
  {
    method: 'GET',
    path: `${octolensBase}/analytics/sources`,
    operationId: 'octolensAnalyticsSources',
    summary: `How many ${countsOver} came from each platform, the most first; platforms without mentions are left out`,
    tag: octolensTag,
    query: countedMentions,
    responses: countResponses(
      'Mentions per platform',
      z
        .object({ data: z.array(z.object({ source: z.string().meta({ description: "The platform in Octolens's names (`twitter`, `dev`, `reddit`, …)" }), count: z.number().int() })) })
        .meta({ id: 'OctolensSourceVolume' }),
    ),
    operation: countOperation('OctolensSources', 'platform', 'series { key total }'),
    variables: countedMentionsVariables,
    result: (data) => ({
      status: 200,
      body: { data: data.compatMentionAnalytics.series.map((series: { key: string; total: number }) => ({ source: octolensPlatformName(series.key), count: series.total })) },
    }),
  },
  {
    method: 'GET',
    path: `${octolensBase}/analytics/keywords`,
    operationId: 'octolensAnalyticsKeywords',
    summary: `How many ${countsOver} each keyword matched, the most first (a post two keywords match is one mention of each); keywords without mentions are left out`,
    tag: octolensTag,
    query: countedMentions,
    responses: countResponses(
      'Mentions per keyword',
      z
        .object({
          data: z.array(z.object({ keywordId: z.number().int().meta({ description: 'Integer keyword id' }), keyword: z.string(), count: z.number().int() })),
        })
        .meta({ id: 'OctolensKeywordVolume' }),
    ),
    operation: countOperation('OctolensKeywordVolume', 'keyword', 'series { total keyword { compatId term } }'),
    variables: countedMentionsVariables,
    result: (data) => ({
      status: 200,
      body: {
        data: data.compatMentionAnalytics.series.map((series: { total: number; keyword: { compatId: number; term: string } }) => ({
          keywordId: series.keyword.compatId,
          keyword: series.keyword.term,
          count: series.total,
        })),
      },
    }),
  },
];
