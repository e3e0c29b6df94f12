import { z } from 'zod';
import { searchPlatformOfOctolensName } from '../../../vocabulary/octolens-platforms.ts';
import { commaSeparated } from '../../query-parameters.ts';
import { type GraphQLRoute, RequestRefusal } from '../../route.ts';
import { octolensBase, octolensTag, octolensUnauthorized } from '../octolens-routes.ts';

/** Octolens's sentiment labels, capitalised, in the order its distribution lists them. */
const sentimentLabels = { positive: 'Positive', neutral: 'Neutral', negative: 'Negative' } as const;

/** Octolens's window: ISO 8601 times in UTC (its pattern ends in `Z`). */
const windowEnd = (description: string) => z.iso.datetime().optional().meta({ description });

export const octolensAnalyticsRoutes: GraphQLRoute[] = [
  {
    method: 'GET',
    path: `${octolensBase}/analytics/sentiment`,
    operationId: 'octolensAnalyticsSentiment',
    summary:
      'How many relevant mentions published in the window were positive, neutral and negative (a corrected sentiment counts as corrected); ' +
      'every label listed, 0 when none. Mentions not scored yet are not counted',
    tag: octolensTag,
    query: z.object({
      keywordIds: commaSeparated(z.string().regex(/^[1-9]\d{0,8}$/, 'must be an integer keyword id').transform(Number))
        .optional()
        .meta({ description: 'Comma-separated integer keyword ids; ids naming no keyword count nothing' }),
      startDate: windowEnd('Included; default 30 days before `endDate` (ISO 8601, UTC)'),
      endDate: windowEnd('Excluded; default now (ISO 8601, UTC)'),
      platforms: commaSeparated(z.string().min(1).max(50))
        .optional()
        .meta({ description: "Comma-separated platforms in Octolens's names (`twitter`, `dev`, …); one Earshot does not watch counts nothing" }),
      tag: z.string().optional().meta({ description: 'Answers 501 `FEATURE_DISABLED`: counts by tag are not offered' }),
    }),
    responses: {
      200: {
        description: 'The distribution',
        schema: z
          .object({ data: z.array(z.object({ sentiment: z.enum(Object.values(sentimentLabels)), count: z.number().int() })) })
          .meta({ id: 'OctolensSentimentDistribution' }),
      },
      400: { description: 'A query parameter the route does not take, a bad value of one, or `startDate` not before `endDate` (`VALIDATION_ERROR`)' },
      401: octolensUnauthorized,
      501: { description: 'A `tag`: counts narrowed to a tag are not offered (`FEATURE_DISABLED`)' },
    },
    operation: `query OctolensSentiment($startDate: DateTime, $endDate: DateTime, $keywordIds: [Int!], $platforms: [String!]) {
      compatMentionAnalytics(by: "sentiment", startDate: $startDate, endDate: $endDate, keywordIds: $keywordIds, platforms: $platforms) { series { key total } }
    }`,
    variables: ({ query }) => {
      if (query.tag !== undefined) throw new RequestRefusal({ code: 'feature_disabled', message: 'Sentiment counts narrowed to a tag are not offered' });
      return {
        startDate: query.startDate ?? null,
        endDate: query.endDate ?? null,
        keywordIds: query.keywordIds ?? null,
        // A name we do not know stays as it is and so counts nothing.
        platforms: query.platforms?.map((name: string) => searchPlatformOfOctolensName(name) ?? name) ?? null,
      };
    },
    result: (data) => {
      const totals = new Map<string, number>(data.compatMentionAnalytics.series.map((series: { key: string; total: number }) => [series.key, series.total]));
      return {
        status: 200,
        body: { data: Object.entries(sentimentLabels).map(([sentiment, label]) => ({ sentiment: label, count: totals.get(sentiment) ?? 0 })) },
      };
    },
  },
];
