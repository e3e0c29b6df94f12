import { notFound } from '../domain-error.ts';
import type { PothosBuilder } from '../pothos-builder.ts';
import { requireAuth } from '../require-auth.ts';
import { findKeyword, type KeywordRow } from './keyword-store.ts';

export function addKeywordType(builder: PothosBuilder) {
  const Keyword = builder.objectRef<KeywordRow>('Keyword').implement({
    description: 'A tracked term (spec 2.1)',
    fields: (t) => ({
      id: t.exposeID('id'),
      term: t.exposeString('term'),
      createdAt: t.expose('createdAt', { type: 'DateTime' }),
    }),
  });

  builder.asEntity(Keyword, {
    key: builder.selection<{ id: string }>('id'),
    resolveReference: async (ref, ctx) => (await findKeyword(ctx.sql, requireAuth(ctx).workspaceId, ref.id)) ?? null,
  });

  builder.queryField('keyword', (t) =>
    t.field({
      type: Keyword,
      args: { id: t.arg.id({ required: true }) },
      resolve: async (_root, args, ctx) => {
        const keyword = await findKeyword(ctx.sql, requireAuth(ctx).workspaceId, String(args.id));
        if (!keyword) throw notFound('Keyword');
        return keyword;
      },
    }),
  );
}
