import { z } from 'zod';
import { platforms } from '../../vocabulary/normalized-post.ts';
import { analyticsBuckets as buckets, analyticsDimensions as dimensions, instantParameter, maxAnalyticsBuckets as maxBuckets } from '../../subgraphs/mentions/index.ts';
import type { GraphQLRoute } from '../route.ts';
import { unauthorizedResponse } from '../route-responses.ts';
import { queryList } from '../../subgraphs/query-list.ts';

const pointSchema = z.object({ start: z.iso.datetime().meta({ description: 'Where the bucket starts (UTC)' }), count: z.number().int() });

const analyticsSchema = z
  .object({
    by: z.enum(dimensions),
    bucket: z.enum(buckets),
    since: z.iso.datetime(),
    until: z.iso.datetime(),
    total: z.number().int().meta({ description: 'Mentions counted; one with two intents counts once' }),
    totals: z.array(pointSchema).meta({ description: "Each bucket's mentions, every bucket of the range, oldest first" }),
    series: z
      .array(
        z.object({
          key: z.string().meta({ description: 'The sentiment, language, platform, keyword id or intent; `unknown` for no sentiment or language, `none` for no intent' }),
          keyword: z.object({ id: z.string(), term: z.string() }).nullable().meta({ description: 'The keyword, when counting by keyword' }),
          total: z.number().int(),
          points: z.array(pointSchema).meta({ description: 'Every bucket of the range, oldest first' }),
        }),
      )
      .meta({ description: 'One per key met in the range, largest first' }),
  })
  .meta({ id: 'MentionAnalytics' });

export const analyticsRoutes: GraphQLRoute[] = [
  {
    method: 'GET',
    path: '/v1/analytics',
    operationId: 'mentionAnalytics',
    summary:
      'Counts of mentions by sentiment, language, platform, keyword or intent per UTC bucket (weeks start on Monday) over a range of ' +
      'publication times, verdicts written through; every bucket is present, empty ones at 0',
    tag: 'Analytics',
    query: z.object({
      by: z.enum(dimensions).meta({ description: 'What the series are' }),
      bucket: z.enum(buckets).optional().meta({ description: `Default day; at most ${maxBuckets} buckets in the range` }),
      since: instantParameter('start').optional().meta({
        description: 'Published at or after (ISO 8601 or epoch ms); default 24 hours, 30 days, 12 weeks or 12 months before `until`, after the bucket',
      }),
      until: instantParameter('end').optional().meta({ description: 'Published at or before (ISO 8601 or epoch ms; a date alone means through its end, UTC); default now' }),
      keywordIds: queryList(z.string().min(1).max(100)).optional().meta({ description: 'Keyword ids, repeated or comma-separated' }),
      platforms: queryList(z.enum(platforms)).optional().meta({ description: 'Platforms, repeated or comma-separated' }),
      relevant: z
        .enum(['true', 'false', 'all'])
        .optional()
        .meta({ description: 'true (default): relevant mentions, as the list shows them; false: the rest, unclassified included; all: every mention' }),
    }),
    responses: {
      200: { description: 'The counts', schema: analyticsSchema },
      400: {
        description: `An unknown query parameter or a bad value of one, \`since\` after \`until\`, or more than ${maxBuckets} buckets in the range (\`validation_error\`, with \`field\`)`,
      },
      401: unauthorizedResponse,
      404: { description: 'A keyword id that is no keyword of this workspace (`not_found`, with `field` `keywordIds`)' },
    },
    operation: `query MentionAnalytics($by: String!, $bucket: String, $since: DateTime, $until: DateTime, $keywordIds: [ID!], $platforms: [String!], $relevant: Boolean) {
      mentionAnalytics(by: $by, bucket: $bucket, since: $since, until: $until, keywordIds: $keywordIds, platforms: $platforms, relevant: $relevant) {
        by bucket since until total totals { start count } series { key keyword { id term } total points { start count } }
      }
    }`,
    variables: ({ query }) => ({
      by: query.by,
      ...(query.bucket ? { bucket: query.bucket } : {}),
      ...(query.since ? { since: (query.since as Date).toISOString() } : {}),
      ...(query.until ? { until: (query.until as Date).toISOString() } : {}),
      ...(query.keywordIds ? { keywordIds: query.keywordIds } : {}),
      ...(query.platforms ? { platforms: query.platforms } : {}),
      ...(query.relevant ? { relevant: query.relevant === 'all' ? null : query.relevant === 'true' } : {}),
    }),
    result: (data) => ({ status: 200, body: data.mentionAnalytics }),
  },
];
