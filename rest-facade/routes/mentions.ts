import { z } from 'zod';
import { platforms } from '../../vocabulary/normalized-post.ts';
import { mentionPatchInput } from '../../subgraphs/mentions/index.ts';
import type { GraphQLRoute } from '../route.ts';
import { notFoundResponse, readOnlyKeyResponse, unauthorizedResponse } from '../route-responses.ts';

/** Every field of the mention record (spec 2.4). */
export const mentionFields = `
  id status relevant delivered priority
  keyword { id term }
  post { platform url text publishedAt replyTo links }
  author { id name handle url avatarUrl followers tags }
  classification { relevance sentiment intents automated language note failed feedback { relevant sentiment original { relevant sentiment } } }
  triage { assignee snoozedUntil note }
  createdAt`;

const timestamp = z.iso.datetime();
const sentiment = z.enum(['positive', 'negative', 'neutral']);

export const mentionSchema = z
  .object({
    id: z.string().meta({ example: 'mm_01jd8x3m5c2v7q9r4t6w8y0z1a' }),
    status: z.enum(['open', 'done', 'ignored']),
    relevant: z.boolean(),
    delivered: z.boolean(),
    priority: z.number(),
    keyword: z.object({ id: z.string(), term: z.string() }),
    post: z.object({
      platform: z.string(), url: z.string(), text: z.string(), publishedAt: timestamp, replyTo: z.string().nullable(), links: z.array(z.string()),
    }),
    author: z.object({
      id: z.string(), name: z.string(), handle: z.string(), url: z.string(), avatarUrl: z.string().nullable(), followers: z.number().int(), tags: z.array(z.string()),
    }),
    classification: z
      .object({
        relevance: z.number().int().min(0).max(100).nullable(),
        sentiment: sentiment.nullable(),
        intents: z.array(z.enum(['buy_intent', 'question', 'complaint', 'praise', 'comparison'])),
        automated: z.boolean(),
        language: z.string().nullable(),
        note: z.string().nullable(),
        failed: z.boolean(),
        feedback: z
          .object({
            relevant: z.boolean().nullable(),
            sentiment: sentiment.nullable(),
            original: z.object({ relevant: z.boolean(), sentiment: sentiment.nullable() }),
          })
          .nullable(),
      })
      .nullable(),
    triage: z.object({ assignee: z.string().nullable(), snoozedUntil: timestamp.nullable(), note: z.string().nullable() }),
    createdAt: timestamp,
  })
  .meta({ id: 'Mention' });

/** A comma-separated query parameter, each item checked by `item` (a bad one is named by its position, `platforms.1`). */
const commaSeparated = <Item extends z.ZodType<unknown, string>>(item: Item) =>
  z
    .string()
    .transform((value) => value.split(',').map((entry) => entry.trim()).filter(Boolean))
    .pipe(z.array(item).min(1, 'must name at least one'));
const platform = z.enum(platforms);
const booleanText = z.enum(['true', 'false']).transform((value) => value === 'true');

export const mentionRoutes: GraphQLRoute[] = [
  {
    method: 'GET',
    path: '/v1/mentions',
    operationId: 'listMentions',
    summary: 'Mentions, newest match first; relevant only unless `relevant=false`. Pass `nextCursor` back as `cursor`',
    tag: 'Mentions',
    query: z.object({
      limit: z.coerce.number().int().min(1).max(100).optional().meta({ description: 'Page size, 1 to 100 (default 50)' }),
      cursor: z.string().min(1).optional(),
      keywordId: z.string().min(1).optional(),
      keywordIds: commaSeparated(z.string()).optional().meta({ description: 'Comma-separated keyword ids' }),
      relevant: booleanText.optional().meta({ description: 'true (default): scored relevant; false: the rest, unclassified included' }),
      status: z.enum(['open', 'done', 'ignored']).optional(),
      platform: platform.optional(),
      platforms: commaSeparated(platform).optional().meta({ description: 'Comma-separated platforms' }),
      alertId: z.string().min(1).optional().meta({ description: 'Only the mentions this alert rule sends (its filter applied)' }),
    }),
    responses: {
      200: {
        description: 'A page of mentions',
        schema: z.object({ data: z.array(mentionSchema), nextCursor: z.string().nullable() }).meta({ id: 'MentionPage' }),
      },
      400: { description: 'An unknown query parameter or a bad value of one (`validation_error`, with `field`), or a bad cursor (`invalid_cursor`)' },
      401: unauthorizedResponse,
      404: { description: 'An `alertId` that is no rule of this workspace (`not_found`)' },
    },
    operation: `query ListMentions($first: Int, $after: String, $keywordIds: [ID!], $relevant: Boolean, $status: String, $platforms: [String!], $alertId: ID) {
      mentions(first: $first, after: $after, keywordIds: $keywordIds, relevant: $relevant, status: $status, platforms: $platforms, alertId: $alertId) {
        nodes { ${mentionFields} } nextCursor
      }
    }`,
    variables: ({ query }) => {
      const keywordIds = [...(query.keywordId ? [query.keywordId] : []), ...(query.keywordIds ?? [])];
      const onPlatforms = [...(query.platform ? [query.platform] : []), ...(query.platforms ?? [])];
      return {
        first: query.limit ?? null,
        after: query.cursor ?? null,
        keywordIds: keywordIds.length ? keywordIds : null,
        relevant: query.relevant ?? true,
        status: query.status ?? null,
        platforms: onPlatforms.length ? onPlatforms : null,
        alertId: query.alertId ?? null,
      };
    },
    result: (data) => ({ status: 200, body: { data: data.mentions.nodes, nextCursor: data.mentions.nextCursor } }),
  },
  {
    method: 'GET',
    path: '/v1/mentions/{id}',
    operationId: 'getMention',
    summary: 'One mention with its post, author, classification and triage',
    tag: 'Mentions',
    responses: {
      200: { description: 'The mention', schema: mentionSchema },
      401: unauthorizedResponse,
      404: notFoundResponse('mention'),
    },
    operation: `query GetMention($id: ID!) { mention(id: $id) { ${mentionFields} } }`,
    variables: ({ params }) => ({ id: params.id }),
    result: (data) => ({ status: 200, body: data.mention }),
  },
  {
    method: 'PATCH',
    path: '/v1/mentions/{id}',
    operationId: 'updateMention',
    summary: 'Moves a mention (`status`), assigns it, or records a verdict (`relevant`, `sentiment`; null withdraws it). Verdicts never bill or unbill',
    tag: 'Mentions',
    body: mentionPatchInput,
    responses: {
      200: { description: 'The mention after the change', schema: mentionSchema },
      400: { description: 'A field is unknown, of the wrong type or breaks its rule (`validation_error`, with `field`) or the assignee is no member (`invalid_assignee`)' },
      401: unauthorizedResponse,
      403: readOnlyKeyResponse,
      404: notFoundResponse('mention'),
      409: { description: 'A verdict on a mention not classified yet (`classification_pending`)' },
    },
    operation: `mutation UpdateMention($id: ID!, $input: MentionPatchInput!) { updateMention(id: $id, input: $input) { ${mentionFields} } }`,
    variables: ({ params, body }) => ({ id: params.id, input: body }),
    result: (data) => ({ status: 200, body: data.updateMention }),
  },
  {
    method: 'GET',
    path: '/v1/mentions/{id}/comments',
    operationId: 'listMentionComments',
    summary: 'Comments read in the thread under a mention, newest first (only when its keyword has comments enabled)',
    tag: 'Mentions',
    responses: {
      200: {
        description: 'The comments',
        schema: z
          .object({
            data: z.array(
              z.object({
                id: z.string().meta({ example: 'cmt_01jd8x3m5c2v7q9r4t6w8y0z1a' }),
                url: z.string(),
                text: z.string(),
                publishedAt: timestamp,
                author: z.object({ name: z.string(), handle: z.string(), url: z.string() }),
                createdAt: timestamp,
              }),
            ),
          })
          .meta({ id: 'CommentList' }),
      },
      401: unauthorizedResponse,
      404: notFoundResponse('mention'),
    },
    operation: `query MentionComments($id: ID!) { mention(id: $id) { comments { id url text publishedAt author { name handle url } createdAt } } }`,
    variables: ({ params }) => ({ id: params.id }),
    result: (data) => ({ status: 200, body: { data: data.mention.comments } }),
  },
];
