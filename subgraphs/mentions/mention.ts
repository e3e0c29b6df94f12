import { notFound } from '../domain-error.ts';
import type { PothosBuilder } from '../pothos-builder.ts';
import { requireAuth } from '../require-auth.ts';
import { mentionsCreatedIn } from './mention-events.ts';
import { findMention, type MentionRow } from './mention-store.ts';

export function addMentionType(builder: PothosBuilder) {
  const KeywordRef = builder
    .externalRef('Keyword', builder.keyDirective(builder.selection<{ id: string }>('id'), false))
    .implement({
    fields: (t) => ({ id: t.exposeID('id') }),
  });

  const Post = builder.objectRef<MentionRow>('Post').implement({
    description: 'The matched post as published on its platform',
    fields: (t) => ({
      platform: t.exposeString('platform'),
      url: t.exposeString('url'),
      text: t.exposeString('text'),
      publishedAt: t.expose('publishedAt', { type: 'DateTime' }),
    }),
  });

  const Mention = builder.objectRef<MentionRow>('Mention').implement({
    description: 'A post matched by one keyword (spec 2.4)',
    fields: (t) => ({
      id: t.exposeID('id'),
      status: t.exposeString('status'),
      keyword: t.field({ type: KeywordRef, resolve: (mention) => ({ id: mention.keywordId }) }),
      post: t.field({ type: Post, resolve: (mention) => mention }),
      createdAt: t.expose('createdAt', { type: 'DateTime' }),
    }),
  });

  builder.asEntity(Mention, {
    key: builder.selection<{ id: string }>('id'),
    resolveReference: async (ref, ctx) => (await findMention(ctx.sql, requireAuth(ctx).workspaceId, ref.id)) ?? null,
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

  builder.subscriptionField('mentionCreated', (t) =>
    t.field({
      type: Mention,
      nullable: true,
      description: "Every mention stored in the caller's workspace from now on",
      subscribe: (_root, _args, ctx) => mentionsCreatedIn(ctx.sql, requireAuth(ctx).workspaceId),
      resolve: async (id: string, _args, ctx) => (await findMention(ctx.sql, requireAuth(ctx).workspaceId, id)) ?? null,
    }),
  );
}
