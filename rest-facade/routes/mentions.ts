import { z } from 'zod';
import { keywordDirectory } from '../../subgraphs/keywords/index.ts';
import {
  exportColumns,
  exportRowLimit,
  exportsPerMinute,
  maxBulkMentions,
  maxFilterItems,
  maxFilterListItems,
  mentionFilterQuery,
  mentionPatchInput,
  mentionSorts,
  mentionsBulkInput,
  openMentionExport,
} from '../../subgraphs/mentions/index.ts';
import type { GraphQLRoute, RestRequest, StreamedRoute } from '../route.ts';
import { notFoundResponse, readOnlyKeyResponse, unauthorizedResponse } from '../route-responses.ts';
import { pageLimit } from '../query-parameters.ts';

/** Every field of the mention record (spec 2.4). */
export const mentionFields = `
  id status relevant delivered priority
  keyword { id term }
  post { platform url text publishedAt replyTo links }
  author { id name handle url avatarUrl followers tags }
  classification { relevance sentiment intents automated language note failed feedback { relevant sentiment original { relevance relevant sentiment } } }
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
            original: z
              .object({ relevance: z.number().int().min(0).max(100).nullable(), relevant: z.boolean(), sentiment: sentiment.nullable() })
              .meta({ description: "The classifier's own values; `relevance` is its score where a relevance write showed 100 in its place" }),
          })
          .nullable(),
      })
      .nullable(),
    triage: z.object({ assignee: z.string().nullable(), snoozedUntil: timestamp.nullable(), note: z.string().nullable() }),
    createdAt: timestamp,
  })
  .meta({ id: 'Mention' });

const filterNames = Object.keys(mentionFilterQuery.shape);

/** The filter parameters a request gave, as the GraphQL `MentionFilter` (null when none). */
function filterOf({ query }: RestRequest): Record<string, unknown> | null {
  const given = filterNames.filter((name) => query[name] !== undefined);
  return given.length ? Object.fromEntries(given.map((name) => [name, query[name]])) : null;
}

const filterRefusals =
  'An unknown query parameter or a bad value of one (`validation_error`, with `field`: the parameter), ' +
  `or a filter over its size (\`filter_too_complex\`: at most ${maxFilterListItems} items in one list, ${maxFilterItems} in all)`;

export const mentionRoutes: (GraphQLRoute | StreamedRoute)[] = [
  {
    method: 'GET',
    path: '/v1/mentions',
    operationId: 'listMentions',
    summary:
      'Mentions passing every filter given, newest match first (or `sort=priority`); relevant only unless `relevant=false`, and none snoozed unless `snoozed=true`. ' +
      'List parameters are repeatable (`platforms=a&platforms=b`) or comma-separated. Pass `nextCursor` back as `cursor`',
    tag: 'Mentions',
    query: z.object({
      limit: pageLimit,
      cursor: z.string().min(1).optional().meta({ description: 'The `nextCursor` of the page before, with the same `sort`' }),
      sort: z.enum(mentionSorts).optional().meta({ description: '`newest` (default): newest match first; `priority`: highest attention score first' }),
      ...mentionFilterQuery.shape,
    }),
    responses: {
      200: {
        description: 'A page of mentions',
        schema: z.object({ data: z.array(mentionSchema), nextCursor: z.string().nullable() }).meta({ id: 'MentionPage' }),
      },
      400: { description: `${filterRefusals}, or a bad cursor (\`invalid_cursor\`)` },
      401: unauthorizedResponse,
      404: { description: 'An `alertId`, `viewId` or keyword id that is no rule, view or keyword of this workspace (`not_found`, with `field`)' },
    },
    operation: `query ListMentions($filter: MentionFilter, $sort: MentionSort, $first: Int, $after: String) {
      mentions(filter: $filter, sort: $sort, first: $first, after: $after) {
        nodes { ${mentionFields} } nextCursor
      }
    }`,
    variables: (request) => ({
      filter: filterOf(request),
      sort: request.query.sort ?? null,
      first: request.query.limit ?? null,
      after: request.query.cursor ?? null,
    }),
    result: (data) => ({ status: 200, body: { data: data.mentions.nodes, nextCursor: data.mentions.nextCursor } }),
  },
  {
    method: 'GET',
    path: '/v1/mentions/export.csv',
    operationId: 'exportMentions',
    summary:
      `The mentions the list would show for the same filters, as CSV (RFC 4180, UTF-8), newest match first, at most ${exportRowLimit.toLocaleString('en')} rows, ` +
      `text cut to 1,000 characters; ${exportsPerMinute} exports a minute per workspace`,
    tag: 'Mentions',
    query: mentionFilterQuery,
    responses: {
      200: {
        description: `Columns \`${exportColumns.join(', ')}\`: \`intents\` pipe-separated, \`links\` space-separated, unknown followers and an unscored mention's \`relevance\` and \`sentiment\` empty`,
        contentType: 'text/csv; charset=utf-8',
        headers: {
          'X-Mentions-Truncated': `\`true\` when more than ${exportRowLimit.toLocaleString('en')} mentions matched and the rest were left out, else \`false\``,
          'Content-Disposition': '`attachment; filename="mentions.csv"`',
        },
      },
      400: { description: filterRefusals },
      401: unauthorizedResponse,
      404: { description: 'An `alertId`, `viewId` or keyword id that is no rule, view or keyword of this workspace (`not_found`, with `field`)' },
      429: { description: `More than ${exportsPerMinute} exports in a minute (\`rate_limited\`): retry after \`Retry-After\` seconds (also \`retryAfterSeconds\`)` },
    },
    operation: `query StartMentionExport($filter: MentionFilter) { mentionExport(filter: $filter) { id } }`,
    variables: (request) => ({ filter: filterOf(request) }),
    async stream(data, sql) {
      const opened = await openMentionExport(sql, keywordDirectory, data.mentionExport.id);
      return (
        opened && {
          contentType: 'text/csv; charset=utf-8',
          headers: { 'x-mentions-truncated': String(opened.truncated), 'content-disposition': 'attachment; filename="mentions.csv"' },
          chunks: opened.chunks,
        }
      );
    },
  },
  {
    method: 'POST',
    path: '/v1/mentions/bulk',
    operationId: 'updateMentions',
    summary: `The same change (\`changes\`, as the body of \`PATCH /v1/mentions/{id}\`) on up to ${maxBulkMentions} mentions (\`ids\`) at once: all of them change, or none`,
    tag: 'Mentions',
    body: mentionsBulkInput,
    responses: {
      200: { description: 'The mentions after the change, in the order of `ids`', schema: z.object({ data: z.array(mentionSchema) }).meta({ id: 'MentionList' }) },
      400: { description: 'A field is unknown, of the wrong type or breaks its rule (`validation_error`, with `field`) or the assignee is no member (`invalid_assignee`)' },
      401: unauthorizedResponse,
      403: readOnlyKeyResponse,
      404: { description: 'An id that is no mention of this workspace (`not_found`, `field` naming it: `ids.3`); nothing changed' },
      409: { description: 'A verdict on a mention not classified yet (`classification_pending`, `field` naming it); nothing changed' },
    },
    operation: `mutation UpdateMentions($ids: [ID!]!, $changes: MentionPatchInput!) { updateMentions(ids: $ids, changes: $changes) { ${mentionFields} } }`,
    variables: ({ body }) => body as Record<string, unknown>,
    result: (data) => ({ status: 200, body: { data: data.updateMentions } }),
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
    summary:
      'Moves a mention (`status`), assigns it to a member (`assigneeId`), snoozes it (`snoozedUntil`), notes it (`note`), or records a verdict (`relevant`, `sentiment`); null withdraws any of them. Verdicts never bill or unbill',
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
