import { z } from 'zod';
import { reviewPlatforms, searchPlatforms } from '../../vocabulary/normalized-post.ts';
import { keywordCreateInput, keywordPatchInput } from '../../subgraphs/keywords/index.ts';
import type { GraphQLRoute } from '../route.ts';
import { invalidBodyResponse, notFoundResponse, readOnlyKeyResponse, unauthorizedResponse } from '../route-responses.ts';
import { pageLimit } from '../query-parameters.ts';
import { keywordKinds } from '../../vocabulary/keyword-kinds.ts';

/** Every field of the keyword record (spec 2.1), selected by every keyword route. */
export const keywordFields = `
  id term kind muted pausedForBalance pausedForNoise pausedForCap
  cap { mentions per used welcome own ownPer resumesAt }
  comments { enabled maxPerPost }
  group { id name externalId isDefault }
  platforms
  feeds { url title connectedAt }
  reviewSources { platform id url countries language connectedAt }
  context
  matching {
    requiredTerms requiredMode excludedTerms excludedAuthors caseSensitive exactPhrase
    subreddits { only excluded }
    repositories { events minStars minWeeklyStars }
  }
  stats {
    mentions relevant last7d thisMonth lastMentionAt
    feedback { relevant notRelevant }
    noise { scored relevant noisy }
    health
    cost { keywordDays keywordCents billableMentions mentionCents billableComments commentCents totalCents }
  }
  polling { platform lastPolledAt emptyPolls lastError lastErrorAt }
  createdAt`;

const timestamp = z.iso.datetime();
const period = z.enum(['day', 'week', 'month']);
const count = z.number().int();

export const keywordSchema = z
  .object({
    id: z.string().meta({ example: 'kw_01jd8x3m5c2v7q9r4t6w8y0z1a' }),
    term: z.string(),
    kind: z.enum(keywordKinds),
    muted: z.boolean(),
    pausedForBalance: z.boolean(),
    pausedForNoise: z.boolean(),
    pausedForCap: z.boolean(),
    cap: z
      .object({
        mentions: count, per: period, used: count, welcome: z.boolean(), own: count.nullable(), ownPer: period.nullable(), resumesAt: timestamp.nullable(),
      })
      .nullable(),
    comments: z.object({ enabled: z.boolean(), maxPerPost: count }),
    group: z.object({ id: z.string(), name: z.string(), externalId: z.string().nullable(), isDefault: z.boolean() }),
    platforms: z.array(z.enum(searchPlatforms)).nullable(),
    feeds: z.array(z.object({ url: z.string(), title: z.string().nullable(), connectedAt: timestamp })),
    reviewSources: z.array(
      z.object({
        platform: z.enum(reviewPlatforms), id: z.string(), url: z.string(), countries: z.array(z.string()), language: z.string().nullable(), connectedAt: timestamp,
      }),
    ),
    context: z.string().nullable(),
    matching: z.object({
      requiredTerms: z.array(z.string()),
      requiredMode: z.enum(['any', 'all']),
      excludedTerms: z.array(z.string()),
      excludedAuthors: z.array(z.string()),
      caseSensitive: z.boolean(),
      exactPhrase: z.boolean(),
      subreddits: z.object({ only: z.array(z.string()), excluded: z.array(z.string()) }),
      repositories: z.object({
        events: z.array(z.enum(['new', 'traction', 'stars', 'growth'])), minStars: count.nullable(), minWeeklyStars: count.nullable(),
      }),
    }),
    stats: z.object({
      mentions: count, relevant: count, last7d: count, thisMonth: count, lastMentionAt: timestamp.nullable(),
      feedback: z.object({ relevant: count, notRelevant: count }),
      noise: z.object({ scored: count, relevant: count, noisy: z.boolean() }),
      health: z.enum(['healthy', 'noisy', 'quiet', 'capped', 'paused', 'new']),
      cost: z.object({
        keywordDays: count, keywordCents: count, billableMentions: count, mentionCents: count, billableComments: count, commentCents: count, totalCents: count,
      }),
    }),
    polling: z.array(
      z.object({
        platform: z.string(),
        lastPolledAt: timestamp.nullable().meta({ description: 'The last poll that read the platform; a failed poll does not move it, because the next poll reads from here' }),
        emptyPolls: count.meta({ description: 'Polls in a row that found nothing; each doubles the wait, up to 32 base intervals (30 s at most when the base interval is under 30 s)' }),
        lastError: z.string().nullable().meta({
          description: 'Why the last poll failed (each failure in a row doubles the wait), or why the platform is not polled (a setting the server lacks); null once a poll succeeds',
          example: 'EARSHOT_YOUTUBE_API_KEY is not set; the YouTube Data API answers no call without an API key',
        }),
        lastErrorAt: timestamp.nullable().meta({ description: 'When `lastError` happened; null with it' }),
      }),
    ).meta({ description: 'Per platform polled on a schedule; live feeds (bluesky) have no entry' }),
    createdAt: timestamp,
  })
  .meta({ id: 'Keyword' });

const duplicate = { description: 'The group already tracks this term (`duplicate_keyword`)' };
// Spec 4.2: a feed added is checked now; spec 7: a failing upstream is 502.
const feedSiteDown = { description: "A feed added did not answer when checked (`upstream_unavailable`, with `field` naming it and `retryAfterSeconds`); nothing was changed" };

export const keywordRoutes: GraphQLRoute[] = [
  {
    method: 'GET',
    path: '/v1/keywords',
    operationId: 'listKeywords',
    summary: 'Keywords, oldest first, a page at a time: pass `nextCursor` back as `cursor`',
    tag: 'Keywords',
    query: z.object({
      limit: pageLimit,
      cursor: z.string().min(1).optional().meta({ description: 'The `nextCursor` of the previous page; a bad one is `invalid_cursor`' }),
      groupId: z.string().min(1).optional().meta({ description: 'Only keywords of this group' }),
    }),
    responses: {
      200: {
        description: 'A page of keywords',
        schema: z.object({ data: z.array(keywordSchema), nextCursor: z.string().nullable() }).meta({ id: 'KeywordPage' }),
      },
      400: { description: 'An unknown query parameter or a bad `limit` (`validation_error`, with `field`), or a bad `cursor` (`invalid_cursor`)' },
      401: unauthorizedResponse,
      404: { description: '`groupId` names no group of this workspace (`not_found`, with `field`)' },
    },
    operation: `query ListKeywords($first: Int, $after: String, $groupId: ID) {
      keywords(first: $first, after: $after, groupId: $groupId) { nodes { ${keywordFields} } nextCursor }
    }`,
    variables: ({ query }) => ({ first: query.limit ?? null, after: query.cursor ?? null, groupId: query.groupId ?? null }),
    result: (data) => ({ status: 200, body: { data: data.keywords.nodes, nextCursor: data.keywords.nextCursor } }),
  },
  {
    method: 'POST',
    path: '/v1/keywords',
    operationId: 'createKeyword',
    summary: 'Creates a keyword: it starts collecting at once with a look-back of the newest posts of the last 30 days',
    tag: 'Keywords',
    body: keywordCreateInput,
    responses: {
      201: {
        description:
          'The new keyword; when the wallet cannot cover a day of it on top of the running keywords it starts paused for balance (`muted` and `pausedForBalance` true), and the top-up that covers every keyword starts it',
        schema: keywordSchema,
      },
      400: invalidBodyResponse,
      401: unauthorizedResponse,
      403: readOnlyKeyResponse,
      404: { description: '`groupId` names no group of this workspace (`not_found`, with `field`)' },
      409: duplicate,
      502: feedSiteDown,
    },
    operation: `mutation CreateKeyword($input: CreateKeywordInput!) { createKeyword(input: $input) { ${keywordFields} } }`,
    variables: ({ body }) => ({ input: body }),
    result: (data) => ({ status: 201, body: data.createKeyword }),
  },
  {
    method: 'GET',
    path: '/v1/keywords/{id}',
    operationId: 'getKeyword',
    summary: 'One keyword with every field',
    tag: 'Keywords',
    responses: { 200: { description: 'The keyword', schema: keywordSchema }, 401: unauthorizedResponse, 404: notFoundResponse('keyword') },
    operation: `query GetKeyword($id: ID!) { keyword(id: $id) { ${keywordFields} } }`,
    variables: ({ params }) => ({ id: params.id }),
    result: (data) => ({ status: 200, body: data.keyword }),
  },
  {
    method: 'PATCH',
    path: '/v1/keywords/{id}',
    operationId: 'updateKeyword',
    summary: 'Changes a keyword: omitted fields stay, lists are replaced, null clears; returns the whole keyword',
    tag: 'Keywords',
    body: keywordPatchInput,
    responses: {
      200: { description: 'The keyword after the change', schema: keywordSchema },
      400: invalidBodyResponse,
      401: unauthorizedResponse,
      402: { description: 'Unmuting a keyword needs the wallet to cover a day of it on top of the running ones (`insufficient_balance`)' },
      403: readOnlyKeyResponse,
      404: notFoundResponse('keyword'),
      409: {
        description:
          'Rename or group move onto a term the group already tracks (`duplicate_keyword`); or, stored, but the keyword and its group were both deleted before the answer was read (`group_changed`: read the keyword again)',
      },
      502: feedSiteDown,
    },
    operation: `mutation UpdateKeyword($id: ID!, $input: KeywordPatchInput!) { updateKeyword(id: $id, input: $input) { ${keywordFields} } }`,
    variables: ({ params, body }) => ({ id: params.id, input: body }),
    result: (data) => ({ status: 200, body: data.updateKeyword }),
  },
  {
    method: 'DELETE',
    path: '/v1/keywords/{id}',
    operationId: 'deleteKeyword',
    summary: 'Deletes a keyword and its mentions, and takes it out of every alert rule; charges already made stay',
    tag: 'Keywords',
    responses: { 204: { description: 'Deleted' }, 401: unauthorizedResponse, 403: readOnlyKeyResponse, 404: notFoundResponse('keyword') },
    operation: `mutation DeleteKeyword($id: ID!) { deleteKeyword(id: $id) }`,
    variables: ({ params }) => ({ id: params.id }),
    result: () => ({ status: 204 }),
  },
];
