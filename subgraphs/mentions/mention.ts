import { GraphQLError } from 'graphql';
import { isDatabaseUnavailable } from '../../runtime/database-availability.ts';
import { notFound } from '../domain-error.ts';
import type { PothosBuilder, PothosTypes } from '../pothos-builder.ts';
import { requireAuth } from '../require-auth.ts';
import { mentionEvents, type MentionEvent } from './mention-events.ts';
import { type CommentRow, listThreadComments } from './comment-store.ts';
import { grantExport } from './mention-export.ts';
import { mentionFilterFields } from './mention-filter.ts';
import { readMentionFilter } from './mention-filter-lookups.ts';
import { listMentions, mentionSorts } from './mention-list.ts';
import { findMention, mentionCreatedChannel, type MentionRow, mentionUpdatedChannel } from './mention-store.ts';
import { maxBulkMentions, patchMention, patchMentions } from './mention-triage.ts';
import { authorRecord, classificationRecord, feedbackRecord, postRecord, triageRecord } from './mention-record.ts';
import { isRelevant } from './relevance.ts';

type InputFields = PothosSchemaTypes.InputFieldBuilder<PothosSchemaTypes.ExtendDefaultTypes<PothosTypes>, 'InputObject'>;

/** One `MentionFilter` field of the GraphQL type its parameter is written as. */
function filterField(t: InputFields, graphql: (typeof mentionFilterFields)[number]['graphql'], description: string) {
  switch (graphql) {
    case 'ID':
      return t.id({ description });
    case '[ID!]':
      return t.idList({ description });
    case 'String':
      return t.string({ description });
    case '[String!]':
      return t.stringList({ description });
    case 'Boolean':
      return t.boolean({ description });
    case 'Int':
      return t.int({ description });
  }
}

export function addMentionType(builder: PothosBuilder) {
  const KeywordRef = builder
    .externalRef('Keyword', builder.keyDirective(builder.selection<{ id: string }>('id'), false))
    .implement({ fields: (t) => ({ id: t.exposeID('id') }) });

  // The title stays out of postRecord, the record of spec 2.4 that alerts send: it is read where asked for.
  const Post = builder.objectRef<ReturnType<typeof postRecord> & { title: string | null }>('Post').implement({
    description: 'The matched post as published on its platform',
    fields: (t) => ({
      platform: t.exposeString('platform', { description: 'One of the 12 search platforms, the 4 review platforms, or `rss`' }),
      url: t.exposeString('url'),
      text: t.exposeString('text'),
      title: t.exposeString('title', {
        nullable: true,
        description: 'The title, where the platform gives the post one (a story, an issue, a question, an article, a video, a review headline); `text` begins with it',
      }),
      publishedAt: t.expose('publishedAt', { type: 'DateTime' }),
      replyTo: t.exposeString('replyTo', { nullable: true, description: 'The post this one answers; null for a top-level post' }),
      links: t.exposeStringList('links', { description: 'Links in the post, in written order' }),
    }),
  });

  const Author = builder.objectRef<ReturnType<typeof authorRecord>>('Author').implement({
    description: 'The platform account that wrote the post, stored once per account',
    fields: (t) => ({
      id: t.exposeID('id', { description: 'Format `aut_...`' }),
      name: t.exposeString('name'),
      handle: t.exposeString('handle'),
      url: t.exposeString('url', { description: 'The profile page' }),
      avatarUrl: t.exposeString('avatarUrl', { nullable: true }),
      followers: t.exposeInt('followers'),
      tags: t.exposeStringList('tags', { description: 'Tags of the author, exact and case-sensitive' }),
    }),
  });

  type Feedback = NonNullable<ReturnType<typeof feedbackRecord>>;
  const ClassificationOriginal = builder
    .objectRef<Feedback['original']>('ClassificationOriginal')
    .implement({
      description: "The classifier's own values, before the user's verdict",
      fields: (t) => ({
        relevance: t.exposeInt('relevance', { nullable: true, description: "The classifier's score, 0 to 100; null when scoring failed" }),
        relevant: t.exposeBoolean('relevant'),
        sentiment: t.exposeString('sentiment', { nullable: true }),
      }),
    });

  const ClassificationFeedback = builder.objectRef<Feedback>('ClassificationFeedback').implement({
    description: "A user's verdict; `original` holds the classifier's own values",
    fields: (t) => ({
      relevant: t.exposeBoolean('relevant', { nullable: true, description: "The user's relevance verdict; null when they gave none" }),
      sentiment: t.exposeString('sentiment', { nullable: true, description: "The user's corrected sentiment; null when they gave none" }),
      original: t.field({ type: ClassificationOriginal, resolve: (f) => f.original }),
    }),
  });

  type ClassificationShape = NonNullable<ReturnType<typeof classificationRecord>>;
  const Classification = builder.objectRef<ClassificationShape>('Classification').implement({
    description: "The classifier's judgement (spec 2.4), with the user's corrections written through",
    fields: (t) => ({
      relevance: t.exposeInt('relevance', {
        nullable: true,
        description: "0 to 100, relevant at 40 or more; 100 after the compatibility API's relevance write of 0 or 1; null when scoring failed",
      }),
      sentiment: t.exposeString('sentiment', { nullable: true, description: '`positive`, `negative` or `neutral`' }),
      intents: t.exposeStringList('intents', { description: 'Of `buy_intent`, `question`, `complaint`, `praise`, `comparison`' }),
      automated: t.exposeBoolean('automated', { description: 'Machine-made post; false for mentions judged before the flag existed' }),
      language: t.exposeString('language', { nullable: true, description: 'ISO 639-1; null for a mention classified before the field existed' }),
      note: t.exposeString('note', { nullable: true }),
      failed: t.exposeBoolean('failed', { description: 'The classifier failed to score it' }),
      feedback: t.field({ type: ClassificationFeedback, nullable: true, description: "Null, or the user's verdict", resolve: (c) => c.feedback }),
    }),
  });

  const Triage = builder.objectRef<ReturnType<typeof triageRecord>>('Triage').implement({
    description: 'Who handles the mention and when it comes back',
    fields: (t) => ({
      assignee: t.exposeString('assignee', { nullable: true, description: 'The workspace member user id it is assigned to' }),
      snoozedUntil: t.expose('snoozedUntil', { type: 'DateTime', nullable: true, description: 'While in the future the mention stays out of lists unless `snoozed` is asked for' }),
      note: t.exposeString('note', { nullable: true }),
    }),
  });

  const Comment = builder.objectRef<CommentRow>('Comment').implement({
    description: 'A reply in the thread under a relevant mention (spec 2.1.2)',
    fields: (t) => ({
      id: t.exposeID('id'),
      url: t.exposeString('url'),
      text: t.exposeString('text'),
      publishedAt: t.expose('publishedAt', { type: 'DateTime' }),
      author: t.field({
        type: builder.objectRef<CommentRow>('CommentAuthor').implement({
          fields: (a) => ({ name: a.exposeString('authorName'), handle: a.exposeString('authorHandle'), url: a.exposeString('authorUrl') }),
        }),
        resolve: (comment) => comment,
      }),
      createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When Earshot read it' }),
    }),
  });

  const Mention = builder.objectRef<MentionRow>('Mention').implement({
    description: 'A post matched by one keyword (spec 2.4)',
    fields: (t) => ({
      id: t.exposeID('id', { description: 'Format `mm_...`' }),
      status: t.exposeString('status', { description: '`open` on creation; `done` or `ignored`. Ignored and done mentions are never delivered' }),
      relevant: t.boolean({ description: "Scored at or above 40, or the user's verdict where they gave one", resolve: isRelevant }),
      delivered: t.exposeBoolean('delivered', { description: 'Sent by an alert rule to a channel' }),
      priority: t.exposeFloat('priority', { description: 'Attention score; the list can sort by it' }),
      keyword: t.field({ type: KeywordRef, description: 'The keyword that matched (`id`, `term`)', resolve: (m) => ({ id: m.keywordId }) }),
      post: t.field({ type: Post, resolve: (m) => ({ ...postRecord(m), title: m.title }) }),
      author: t.field({ type: Author, resolve: authorRecord }),
      classification: t.field({ type: Classification, nullable: true, description: 'Null until the classifier has scored it or failed to', resolve: classificationRecord }),
      triage: t.field({ type: Triage, resolve: triageRecord }),
      comments: t.field({
        type: [Comment],
        description: 'Comments read under this mention, newest first',
        resolve: (m, _args, ctx) => listThreadComments(ctx.sql, m.id),
      }),
      createdAt: t.expose('createdAt', { type: 'DateTime' }),
    }),
  });

  builder.asEntity(Mention, {
    key: builder.selection<{ id: string }>('id'),
    resolveReference: async (ref, ctx) => (await findMention(ctx.sql, requireAuth(ctx).workspaceId, ref.id)) ?? null,
  });

  const MentionPage = builder.objectRef<{ nodes: MentionRow[]; nextCursor: string | null }>('MentionPage').implement({
    description: 'A page of mentions in the order asked for; pass `nextCursor` as `after` for the next page',
    fields: (t) => ({
      nodes: t.field({ type: [Mention], resolve: (page) => page.nodes }),
      nextCursor: t.exposeString('nextCursor', { nullable: true }),
    }),
  });

  const MentionFilter = builder.inputType('MentionFilter', {
    description:
      'The filters of `GET /v1/mentions` (spec 4.3), each one more condition; a field left out or null does not filter. ' +
      'Each list holds at most 100 items and all lists together 300 (`filter_too_complex` beyond).',
    fields: (t) => Object.fromEntries(mentionFilterFields.map(({ name, graphql, description }) => [name, filterField(t, graphql, description)])),
  });

  const MentionSort = builder.enumType('MentionSort', {
    description: '`newest`: newest match first; `priority`: highest attention score first, then newest',
    values: mentionSorts,
  });

  builder.queryField('mention', (t) =>
    t.field({
      type: Mention,
      args: { id: t.arg.id({ required: true }) },
      resolve: async (_root, args, ctx) => {
        const mention = await findMention(ctx.sql, requireAuth(ctx).workspaceId, String(args.id));
        if (!mention) throw notFound('Mention');
        return mention;
      },
    }),
  );

  builder.queryField('mentions', (t) =>
    t.field({
      type: MentionPage,
      description: 'Mentions passing the filter; `relevant` defaults to true and `snoozed` to false (snoozed mentions stay out until they wake)',
      args: {
        filter: t.arg({ type: MentionFilter }),
        sort: t.arg({ type: MentionSort, description: 'Default `newest`' }),
        first: t.arg.int({ description: '1 to 100, default 50' }),
        after: t.arg.string(),
      },
      resolve: (_root, args, ctx) => listMentions(ctx.sql, ctx.keywordDirectory, requireAuth(ctx).workspaceId, args),
    }),
  );

  const MentionExport = builder.objectRef<{ id: string }>('MentionExport').implement({
    description: 'A granted CSV export, streamed once within a minute by `GET /v1/mentions/export.csv`',
    fields: (t) => ({ id: t.exposeID('id') }),
  });

  builder.queryField('mentionExport', (t) =>
    t.field({
      type: MentionExport,
      description:
        'Grants a CSV export of the mentions the list would show for this filter: checked like the list, counted against 6 exports a minute per workspace (`rate_limited` with `retryAfterSeconds` beyond)',
      args: { filter: t.arg({ type: MentionFilter }) },
      resolve: (_root, args, ctx) => grantExport(ctx.sql, ctx.keywordDirectory, requireAuth(ctx).workspaceId, args.filter),
    }),
  );

  const MentionPatchInput = builder.inputType('MentionPatchInput', {
    description: 'Omitted fields stay; null withdraws a verdict, an assignment, a snooze or a note',
    fields: (t) => ({
      status: t.string({ description: '`open`, `done` or `ignored`' }),
      assigneeId: t.id({ description: "A workspace member's user id" }),
      relevant: t.boolean({ description: "The user's verdict; null restores the classifier's" }),
      sentiment: t.string({ description: 'A corrected sentiment; null restores the classifier’s' }),
      snoozedUntil: t.string({ description: 'ISO 8601; the mention stays out of lists until then' }),
      note: t.string({ description: 'At most 2,000 characters' }),
    }),
  });

  builder.mutationField('updateMention', (t) =>
    t.field({
      type: Mention,
      args: { id: t.arg.id({ required: true }), input: t.arg({ type: MentionPatchInput, required: true }) },
      resolve: (_root, args, ctx) => patchMention(ctx.sql, requireAuth(ctx).workspaceId, String(args.id), args.input),
    }),
  );

  builder.mutationField('updateMentions', (t) =>
    t.field({
      type: [Mention],
      description: `The same change on up to ${maxBulkMentions} mentions, all or none: an id that is not the workspace's is \`not_found\` naming it (\`ids.N\`)`,
      args: { ids: t.arg.idList({ required: true }), changes: t.arg({ type: MentionPatchInput, required: true }) },
      resolve: (_root, args, ctx) => patchMentions(ctx.sql, requireAuth(ctx).workspaceId, { ids: args.ids.map(String), changes: args.changes }),
    }),
  );

  /**
   * A subscription of the caller's workspace on one channel, its filter
   * checked and resolved once, when it starts. A refused filter, or a
   * database away (`service_unavailable`, subgraph-server.ts), is the
   * subscription's one event, an error with its code: thrown from here it
   * would reach the client through the gateway as an unexpected error.
   */
  const subscribeTo = (channel: string) => async (_root: unknown, args: { filter?: unknown }, ctx: Parameters<typeof requireAuth>[0]) => {
    const { workspaceId } = requireAuth(ctx);
    try {
      // Without a filter too: muted people's mentions stay out, as the list keeps them out.
      const filter = await readMentionFilter(ctx.sql, ctx.keywordDirectory, workspaceId, args.filter);
      return await mentionEvents(ctx.sql, channel, workspaceId, filter);
    } catch (error) {
      if (!(error instanceof GraphQLError) && !isDatabaseUnavailable(error)) throw error;
      return (async function* refused(): AsyncGenerator<MentionEvent> {
        yield { error: error as Error };
      })();
    }
  };
  // The mention comes loaded with the event, once for every subscriber of its workspace (mention-events.ts).
  const resolveEvent = (event: MentionEvent) => {
    if ('error' in event) throw event.error;
    return event.mention;
  };
  const liveFilterNote =
    "Only mentions the list would show with the filter at that moment (muted people's left out unless `includeMuted` or `personId`), " +
    'except that `relevant` and `snoozed` have no default here';

  builder.subscriptionField('mentionCreated', (t) =>
    t.field({
      type: Mention,
      nullable: true,
      description: `Mentions stored in the caller's workspace from now on. ${liveFilterNote} (a new mention is not scored yet)`,
      args: { filter: t.arg({ type: MentionFilter }) },
      subscribe: subscribeTo(mentionCreatedChannel),
      resolve: resolveEvent,
    }),
  );

  builder.subscriptionField('mentionUpdated', (t) =>
    t.field({
      type: Mention,
      nullable: true,
      description: `Mentions of the caller's workspace as they change from now on: triage, verdicts and scores. ${liveFilterNote}`,
      args: { filter: t.arg({ type: MentionFilter }) },
      subscribe: subscribeTo(mentionUpdatedChannel),
      resolve: resolveEvent,
    }),
  );

  return { Mention, MentionPage, MentionFilter, MentionSort, Keyword: KeywordRef };
}
