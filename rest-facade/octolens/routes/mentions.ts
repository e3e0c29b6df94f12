import { z } from 'zod';
import { intents } from '../../../vocabulary/classification-values.ts';
import { octolensPlatformName } from '../../../vocabulary/octolens-platforms.ts';
import type { GraphQLRoute, RestResult } from '../../route.ts';
import { booleanText } from '../../query-parameters.ts';
import { compatMentionFilterOf, engagementMetricsDisabled, octolensMentionQuery } from '../mention-filters.ts';
import { octolensMentionsCsv } from '../octolens-csv.ts';
import { octolensMention, octolensMentionFields, octolensMentionSchema, octolensTimestamp } from '../octolens-records.ts';
import { octolensBadBody, octolensBase, octolensNotFound, octolensReadOnly, octolensTag, octolensUnauthorized } from '../octolens-routes.ts';

const mentionNotFound = octolensNotFound('mention (`sourceId` is our `mm_…` id)');
const bookmarksRefused = {
  description: 'The `bookmarked` filter (Earshot has no bookmarks), the `engagement` filter or `includeEngagementMetrics: true` (engagement counters are not collected): `FEATURE_DISABLED`',
};
const engagementMetricsRefused = { description: '`includeEngagementMetrics=true`: engagement counters are not collected (`FEATURE_DISABLED`)' };

/** Optional keys Octolens's update body carries to find the row; the `sourceId` in the path is enough here. */
const rowKeys = {
  postId: z.number().int().optional().meta({ description: 'Accepted and not needed: the path names the mention' }),
  timestamp: z.string().optional().meta({ description: 'Accepted and not needed: the path names the mention' }),
};

const mentionUpdate = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('engage'), ...rowKeys }).meta({ description: 'Flips `engaged` (a mention marked done is engaged)' }),
  z
    .strictObject({
      action: z.literal('relevance'),
      relevance: z.number().int().min(0).max(3).meta({ description: '0 or 1: relevant (score 100); 2: not relevant; 3: the classifier’s verdict again' }),
      ...rowKeys,
    })
    .meta({ description: 'A relevance verdict' }),
  z
    .strictObject({ action: z.literal('sentiment'), sentimentLabel: z.enum(['Positive', 'Neutral', 'Negative']), ...rowKeys })
    .meta({ description: 'A corrected sentiment' }),
]);

const feedbackRecordFields = `id compatId keyword { compatId } post { platform publishedAt } compatFeedback { compatId relevant originalRelevanceScore reason source createdAt workspaceId }`;

const feedbackSchema = z
  .object({
    id: z.number().int(),
    sourceId: z.string(),
    timestamp: z.string().meta({ description: 'The mention’s, as the list shows it' }),
    organizationId: z.string(),
    postId: z.number().int(),
    keywordId: z.number().int(),
    source: z.string(),
    feedbackType: z.enum(['RELEVANT', 'NOT_RELEVANT']),
    feedbackReason: z.string().nullable(),
    feedbackSource: z.enum(['WEB', 'EMAIL', 'API', 'SLACK']),
    originalRelevanceScore: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'The classifier’s own bucket for the mention, the verdict aside (0 high, 1 medium, 2 low); null when it gave no score' }),
    createdBy: z.null().meta({ description: 'Not recorded' }),
    createdAt: z.string().nullable(),
  })
  .meta({ id: 'OctolensFeedback' });

const viewNotFound = { description: '`view` names no view of this workspace (`NOT_FOUND`)' };
const badListBody = { description: 'A field is unknown or breaks its rule, more than 50 keyword ids, or a bad cursor (`VALIDATION_ERROR`)' };

export const octolensMentionRoutes: GraphQLRoute[] = [
  {
    method: 'POST',
    path: `${octolensBase}/mentions`,
    operationId: 'octolensListMentions',
    summary:
      'Mentions, newest post first (by `timestamp`), one row per keyword a post matched; relevant ones unless `includeAll`. 20 a page by default, 100 at most; pass `pagination.nextCursor` back as `cursor`. A `read` key may list',
    tag: octolensTag,
    body: z.strictObject({
      ...octolensMentionQuery,
      limit: z.number().int().min(1).max(100).optional().meta({ description: '1 to 100, default 20' }),
      cursor: z.string().min(1).optional(),
    }),
    bodyOptional: true,
    responses: {
      200: {
        description: 'A page of mentions',
        schema: z.object({ data: z.array(octolensMentionSchema), pagination: z.object({ nextCursor: z.string().nullable() }) }).meta({ id: 'OctolensMentionPage' }),
      },
      400: badListBody,
      401: octolensUnauthorized,
      404: viewNotFound,
      501: bookmarksRefused,
    },
    operation: `query OctolensMentions($first: Int, $after: String, $filter: CompatMentionFilter) {
      compatMentions(first: $first, after: $after, filter: $filter) { nodes { ${octolensMentionFields} } nextCursor }
    }`,
    variables: ({ body }) => {
      const { limit, cursor } = body as { limit?: number; cursor?: string };
      return { first: limit ?? null, after: cursor ?? null, filter: compatMentionFilterOf(body) };
    },
    result: (data) => ({
      status: 200,
      body: { data: data.compatMentions.nodes.map(octolensMention), pagination: { nextCursor: data.compatMentions.nextCursor } },
    }),
  },
  {
    method: 'POST',
    path: `${octolensBase}/mentions/export`,
    operationId: 'octolensExportMentions',
    summary:
      'The 5,000 newest posts passing the filters (newest first), as JSON (`{ data, total }`) or, with `format: "csv"`, as `text/csv` with Octolens\'s 15 columns (id, sourceId, timestamp, source, url, title, body, author, authorFollowers, language, keywords, tags, relevance, sentiment, engaged); the list body (`limit` capping the rows, `cursor` starting after a list page) plus `format`, and no `author`. `X-Total-Count` gives the count. A `read` key may export',
    tag: octolensTag,
    body: z.strictObject({
      ...octolensMentionQuery,
      limit: z.number().int().min(1).max(5_000).optional().meta({ description: 'At most this many rows, 1 to 5,000 (default 5,000)' }),
      cursor: z.string().min(1).optional().meta({ description: "A list page's `pagination.nextCursor`: the export starts after that page" }),
      format: z.enum(['json', 'csv']).optional().meta({ description: '`json` (default) or `csv`' }),
    }),
    bodyOptional: true,
    responses: {
      200: {
        description: 'The exported mentions',
        schema: z.object({ data: z.array(octolensMentionSchema), total: z.number().int() }).meta({ id: 'OctolensMentionExport' }),
      },
      400: badListBody,
      401: octolensUnauthorized,
      404: viewNotFound,
      501: bookmarksRefused,
    },
    operation: `query OctolensExportMentions($filter: CompatMentionFilter, $first: Int, $after: String) {
      compatMentionExport(filter: $filter, first: $first, after: $after) { ${octolensMentionFields} }
    }`,
    variables: ({ body }) => {
      const { limit, cursor } = body as { limit?: number; cursor?: string };
      return { filter: compatMentionFilterOf(body), first: limit ?? null, after: cursor ?? null };
    },
    result: (data, request): RestResult => {
      const mentions = data.compatMentionExport.map(octolensMention);
      const total = String(mentions.length);
      return (request.body as { format?: string }).format === 'csv'
        ? { status: 200, headers: { 'content-type': 'text/csv; charset=utf-8', 'x-total-count': total }, body: octolensMentionsCsv(mentions) }
        : { status: 200, headers: { 'x-total-count': total }, body: { data: mentions, total: mentions.length } };
    },
  },
  {
    method: 'GET',
    path: `${octolensBase}/mentions/{sourceId}`,
    operationId: 'octolensGetMention',
    summary: 'One mention by its `sourceId` (our `mm_…` id) or its integer `id`',
    tag: octolensTag,
    query: z.object({
      includeEngagementMetrics: booleanText.optional().meta({ description: '`false` (default); `true` answers 501 `FEATURE_DISABLED`: engagement counters are not collected' }),
    }),
    responses: {
      200: { description: 'The mention', schema: octolensMentionSchema },
      401: octolensUnauthorized,
      404: mentionNotFound,
      501: engagementMetricsRefused,
    },
    operation: `query OctolensMention($id: ID!) { compatMention(id: $id) { ${octolensMentionFields} } }`,
    variables: ({ params, query }) => {
      if (query.includeEngagementMetrics === true) throw engagementMetricsDisabled();
      return { id: params.sourceId };
    },
    result: (data) => ({ status: 200, body: octolensMention(data.compatMention) }),
  },
  {
    method: 'PATCH',
    path: `${octolensBase}/mentions/{sourceId}`,
    operationId: 'octolensUpdateMention',
    summary: 'Flips `engaged`, writes a relevance verdict (0 or 1 relevant, 2 not relevant, 3 the classifier’s again) or corrects the sentiment, by `action`',
    tag: octolensTag,
    body: mentionUpdate,
    responses: {
      200: { description: 'Done', schema: z.object({ ok: z.literal(true) }).meta({ id: 'OctolensOk' }) },
      400: octolensBadBody,
      401: octolensUnauthorized,
      403: octolensReadOnly,
      404: mentionNotFound,
      409: { description: 'A verdict on a mention not classified yet (`CLASSIFICATION_PENDING`)' },
    },
    operation: `mutation OctolensUpdateMention(
      $id: ID!, $engage: Boolean!, $setRelevance: Boolean!, $relevance: Int!, $setSentiment: Boolean!, $sentiment: String
    ) {
      compatToggleMentionEngaged(id: $id) @include(if: $engage) { id }
      compatSetMentionRelevance(id: $id, relevance: $relevance) @include(if: $setRelevance) { id }
      compatSetMentionSentiment(id: $id, sentiment: $sentiment) @include(if: $setSentiment) { id }
    }`,
    variables: ({ params, body }) => {
      const update = body as { action: string; relevance?: number; sentimentLabel?: string };
      return {
        id: params.sourceId,
        engage: update.action === 'engage',
        setRelevance: update.action === 'relevance',
        relevance: update.relevance ?? 0,
        setSentiment: update.action === 'sentiment',
        sentiment: update.sentimentLabel?.toLowerCase() ?? null,
      };
    },
    result: () => ({ status: 200, body: { ok: true } }),
  },
  {
    method: 'POST',
    path: `${octolensBase}/feedback`,
    operationId: 'octolensSubmitFeedback',
    summary: 'A relevance verdict on a mention, with its reason; a second one replaces the first. Verdicts never bill or unbill',
    tag: octolensTag,
    body: z.strictObject({
      sourceId: z.string().min(1).meta({ description: 'Our `mm_…` mention id, or its integer `id`' }),
      feedbackType: z.enum(['RELEVANT', 'NOT_RELEVANT']),
      timestamp: z.string().optional().meta({ description: 'Accepted; the mention is named by `sourceId`' }),
      keywordId: z.number().int().optional().meta({ description: 'Accepted; a mention has one keyword' }),
      source: z.string().optional().meta({ description: 'Accepted; the mention knows its platform' }),
      postId: z.number().int().optional(),
      feedbackReason: z.string().max(1_000).optional(),
      feedbackSource: z.enum(['WEB', 'EMAIL', 'API', 'SLACK']).optional().meta({ description: 'Default `API`' }),
      originalRelevanceScore: z.number().int().optional().meta({ description: 'Accepted; the record shows the classifier’s own bucket, kept beside every verdict' }),
    }),
    responses: {
      200: { description: 'The feedback record', schema: feedbackSchema },
      400: octolensBadBody,
      401: octolensUnauthorized,
      403: octolensReadOnly,
      404: mentionNotFound,
      409: { description: 'The mention is not classified yet (`CLASSIFICATION_PENDING`)' },
    },
    operation: `mutation OctolensSubmitFeedback($input: CompatFeedbackInput!) { compatSubmitFeedback(input: $input) { ${feedbackRecordFields} } }`,
    variables: ({ body }) => {
      const { sourceId, feedbackType, feedbackReason, feedbackSource } = body as Record<string, any>;
      return { input: { mentionId: sourceId, relevant: feedbackType === 'RELEVANT', reason: feedbackReason ?? null, source: feedbackSource ?? null } };
    },
    result: (data) => {
      const mention = data.compatSubmitFeedback;
      const feedback = mention.compatFeedback;
      return {
        status: 200,
        body: {
          id: feedback.compatId,
          sourceId: mention.id,
          timestamp: octolensTimestamp(mention.post.publishedAt),
          organizationId: feedback.workspaceId,
          postId: mention.compatId,
          keywordId: mention.keyword.compatId,
          source: octolensPlatformName(mention.post.platform),
          feedbackType: feedback.relevant ? 'RELEVANT' : 'NOT_RELEVANT',
          feedbackReason: feedback.reason,
          feedbackSource: feedback.source,
          originalRelevanceScore: feedback.originalRelevanceScore,
          createdBy: null,
          createdAt: feedback.createdAt,
        },
      };
    },
  },
  {
    method: 'DELETE',
    path: `${octolensBase}/feedback`,
    operationId: 'octolensRemoveFeedback',
    summary: "Withdraws a mention's relevance verdict: the classifier's counts again; removing none is no error",
    tag: octolensTag,
    body: z.strictObject({ sourceId: z.string().min(1).meta({ description: 'Our `mm_…` mention id, or its integer `id`' }), timestamp: z.string().optional() }),
    responses: {
      200: { description: 'Done', schema: z.object({ success: z.literal(true), removed: z.boolean() }).meta({ id: 'OctolensFeedbackRemoval' }) },
      400: octolensBadBody,
      401: octolensUnauthorized,
      403: octolensReadOnly,
      404: mentionNotFound,
    },
    operation: `mutation OctolensRemoveFeedback($id: ID!) { compatRemoveFeedback(mentionId: $id) }`,
    variables: ({ body }) => ({ id: (body as { sourceId: string }).sourceId }),
    result: (data) => ({ status: 200, body: { success: true, removed: data.compatRemoveFeedback } }),
  },
  {
    method: 'GET',
    path: `${octolensBase}/tags`,
    operationId: 'octolensListTags',
    summary: "The tags mentions carry: the classifier's intents, alphabetised",
    tag: octolensTag,
    responses: {
      200: { description: 'The tags', schema: z.object({ data: z.array(z.string()) }).meta({ id: 'OctolensTags' }) },
      401: octolensUnauthorized,
    },
    operation: 'query OctolensTags { __typename }',
    variables: () => ({}),
    result: () => ({ status: 200, body: { data: [...intents].sort() } }),
  },
];
