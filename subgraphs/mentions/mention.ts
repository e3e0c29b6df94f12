import { decodeCursor, pageOf, pageSize } from '../cursor-pages.ts';
import { domainError, notFound } from '../domain-error.ts';
import type { PothosBuilder } from '../pothos-builder.ts';
import { requireAuth } from '../require-auth.ts';
import { mentionsCreatedIn } from './mention-events.ts';
import { type CommentRow, listThreadComments } from './comment-store.ts';
import { findAlertRule } from './alert-rule-store.ts';
import { findMention, listMentionsPage, type MentionRow } from './mention-store.ts';
import { patchMention } from './mention-triage.ts';
import { authorRecord, classificationRecord, feedbackRecord, postRecord, triageRecord } from './mention-record.ts';
import { isRelevant } from './relevance.ts';

/** Mentions page newest match first: the cursor holds the last one's match time and id. */
export const mentionCursorKey = (mention: MentionRow) => [mention.createdAt.toISOString(), mention.id];
export const parseMentionCursor = ([at, id]: string[]) => {
  const createdAt = new Date(at);
  return id?.startsWith('mm_') && !Number.isNaN(createdAt.getTime()) ? { createdAt, id } : undefined;
};

export function addMentionType(builder: PothosBuilder) {
  const KeywordRef = builder
    .externalRef('Keyword', builder.keyDirective(builder.selection<{ id: string }>('id'), false))
    .implement({ fields: (t) => ({ id: t.exposeID('id') }) });

  const Post = builder.objectRef<ReturnType<typeof postRecord>>('Post').implement({
    description: 'The matched post as published on its platform',
    fields: (t) => ({
      platform: t.exposeString('platform'),
      url: t.exposeString('url'),
      text: t.exposeString('text'),
      publishedAt: t.expose('publishedAt', { type: 'DateTime' }),
      replyTo: t.exposeString('replyTo', { nullable: true, description: 'The post this one answers; null for a top-level post' }),
      links: t.exposeStringList('links', { description: 'Links in the post, in written order' }),
    }),
  });

  const Author = builder.objectRef<ReturnType<typeof authorRecord>>('Author').implement({
    description: 'The platform account that wrote the post, stored once per account',
    fields: (t) => ({
      id: t.exposeID('id'),
      name: t.exposeString('name'),
      handle: t.exposeString('handle'),
      url: t.exposeString('url'),
      avatarUrl: t.exposeString('avatarUrl', { nullable: true }),
      followers: t.exposeInt('followers'),
      tags: t.exposeStringList('tags'),
    }),
  });

  const ClassificationOriginal = builder
    .objectRef<{ relevant: boolean; sentiment: string | null }>('ClassificationOriginal')
    .implement({
      fields: (t) => ({ relevant: t.exposeBoolean('relevant'), sentiment: t.exposeString('sentiment', { nullable: true }) }),
    });

  type Feedback = NonNullable<ReturnType<typeof feedbackRecord>>;
  const ClassificationFeedback = builder.objectRef<Feedback>('ClassificationFeedback').implement({
    description: "A user's verdict; `original` holds the classifier's own values",
    fields: (t) => ({
      relevant: t.exposeBoolean('relevant', { nullable: true }),
      sentiment: t.exposeString('sentiment', { nullable: true }),
      original: t.field({ type: ClassificationOriginal, resolve: (f) => f.original }),
    }),
  });

  type ClassificationShape = NonNullable<ReturnType<typeof classificationRecord>>;
  const Classification = builder.objectRef<ClassificationShape>('Classification').implement({
    description: "The classifier's judgement (spec 2.4), with the user's corrections written through",
    fields: (t) => ({
      relevance: t.exposeInt('relevance', { nullable: true }),
      sentiment: t.exposeString('sentiment', { nullable: true }),
      intents: t.exposeStringList('intents'),
      automated: t.exposeBoolean('automated'),
      language: t.exposeString('language', { nullable: true }),
      note: t.exposeString('note', { nullable: true }),
      failed: t.exposeBoolean('failed'),
      feedback: t.field({ type: ClassificationFeedback, nullable: true, resolve: (c) => c.feedback }),
    }),
  });

  const Triage = builder.objectRef<ReturnType<typeof triageRecord>>('Triage').implement({
    fields: (t) => ({
      assignee: t.exposeString('assignee', { nullable: true }),
      snoozedUntil: t.expose('snoozedUntil', { type: 'DateTime', nullable: true }),
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
      id: t.exposeID('id'),
      status: t.exposeString('status'),
      relevant: t.boolean({ resolve: isRelevant }),
      delivered: t.exposeBoolean('delivered'),
      priority: t.exposeFloat('priority'),
      keyword: t.field({ type: KeywordRef, resolve: (m) => ({ id: m.keywordId }) }),
      post: t.field({ type: Post, resolve: postRecord }),
      author: t.field({ type: Author, resolve: authorRecord }),
      classification: t.field({ type: Classification, nullable: true, resolve: classificationRecord }),
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
    description: 'A page of mentions, newest match first; pass `nextCursor` as `after` for the next page',
    fields: (t) => ({
      nodes: t.field({ type: [Mention], resolve: (page) => page.nodes }),
      nextCursor: t.exposeString('nextCursor', { nullable: true }),
    }),
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
      args: {
        first: t.arg.int({ description: '1 to 100, default 50' }),
        after: t.arg.string(),
        keywordIds: t.arg.idList(),
        relevant: t.arg.boolean({ description: 'Default true: relevant only; false: the rest, unclassified included' }),
        status: t.arg.string(),
        platforms: t.arg.stringList(),
        alertId: t.arg.id({ description: 'Only the mentions this alert rule sends' }),
      },
      resolve: async (_root, args, ctx) => {
        const limit = pageSize(args.first);
        const rule = args.alertId ? await findAlertRule(ctx.sql, requireAuth(ctx).workspaceId, String(args.alertId)) : undefined;
        if (args.alertId && !rule) throw notFound('Alert rule');
        if (args.status && !['open', 'done', 'ignored'].includes(args.status)) {
          throw domainError('validation_error', 'status: must be open, done or ignored', { field: 'status' });
        }
        const rows = await listMentionsPage(ctx.sql, requireAuth(ctx).workspaceId, {
          filters: {
            keywordIds: args.keywordIds?.map(String),
            relevant: args.relevant ?? true,
            status: (args.status as 'open' | 'done' | 'ignored' | null) ?? null,
            platforms: args.platforms ?? undefined,
            alertFilter: rule?.filter,
          },
          after: args.after ? decodeCursor(args.after, parseMentionCursor) : null,
          limit: limit + 1,
          now: ctx.clock.now(),
        });
        return pageOf(rows, limit, mentionCursorKey);
      },
    }),
  );

  const MentionPatchInput = builder.inputType('MentionPatchInput', {
    description: 'Omitted fields stay; null withdraws a verdict or an assignment',
    fields: (t) => ({
      status: t.string(),
      assigneeId: t.id(),
      relevant: t.boolean({ description: "The user's verdict; null restores the classifier's" }),
      sentiment: t.string({ description: 'A corrected sentiment; null restores the classifier’s' }),
    }),
  });

  builder.mutationField('updateMention', (t) =>
    t.field({
      type: Mention,
      args: { id: t.arg.id({ required: true }), input: t.arg({ type: MentionPatchInput, required: true }) },
      resolve: (_root, args, ctx) => patchMention(ctx.sql, requireAuth(ctx).workspaceId, String(args.id), args.input),
    }),
  );

  builder.subscriptionField('mentionCreated', (t) =>
    t.field({
      type: Mention,
      nullable: true,
      description: "Every mention stored in the caller's workspace from now on",
      subscribe: (_root, _args, ctx) => mentionsCreatedIn(ctx.sql, requireAuth(ctx).workspaceId),
      resolve: async (id: string, _args, ctx) => (await findMention(ctx.sql, requireAuth(ctx).workspaceId, id)) ?? null,
    }),
  );

  return { Mention, MentionPage, Keyword: KeywordRef };
}
