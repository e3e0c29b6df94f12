import { GraphQLError } from 'graphql';
import { z } from 'zod';
import type { Sql } from '../../runtime/database.ts';
import { domainError, notFound } from '../domain-error.ts';
import type { PothosBuilder, PothosEnumRef, PothosInputRef } from '../pothos-builder.ts';
import { requireAuth } from '../require-auth.ts';
import { parseInput } from '../validate-input.ts';
import { mentionFilterFields, mentionFilterJson, type MentionFilter, parseMentionFilter, resolveMentionFilter } from './mention-filter.ts';
import type { KeywordDirectory } from '../keyword-directory.ts';
import { checkFilterKeywords, mentionFilterLookups } from './mention-filter-lookups.ts';
import { mentionSorts } from './mention-list.ts';
import { findPerson } from './person-store.ts';
import {
  deleteMentionView,
  findMentionView,
  insertMentionView,
  listMentionViews,
  type MentionViewRow,
  translateViewWriteError,
  updateMentionView,
  workspaceMembersAmong,
} from './mention-view-store.ts';

const viewName = z
  .string()
  .trim()
  .min(1, 'must be 1 to 100 characters')
  .max(100, 'must be 1 to 100 characters')
  .refine((name) => !/[\r\n\t]/.test(name), 'must be one line');


const viewFields = {
  name: viewName.meta({ description: 'Unique in the workspace, whatever the case' }),
  // A view names no other view: one level is all there is.
  filter: mentionFilterJson
    .omit({ viewId: true })
    .nullable()
    .meta({ description: 'The filters of `GET /v1/mentions` (spec 4.3), lists as arrays; null or `{}` filters nothing. Checked as the list checks them' }),
  sort: z.enum(mentionSorts).nullable().meta({ description: '`newest` (default) or `priority`: the order of a list asked for by the view alone' }),
};

/** POST /v1/views: what the REST facade checks (the subgraph reads the filter again with the list's own rules). */
export const mentionViewCreateInput = z.strictObject({ ...viewFields, filter: viewFields.filter.optional(), sort: viewFields.sort.optional() });

/** PATCH /v1/views/{id}: omitted fields stay; a filter replaces the whole filter. */
export const mentionViewPatchInput = mentionViewCreateInput.partial();

/** The view's fields as the subgraph reads them: the filter by `parseMentionFilter`, so its errors name `filter.<parameter>`. */
const viewInput = z.strictObject({ name: viewName, filter: z.unknown(), sort: z.enum(mentionSorts).nullish() });

/**
 * A view's filter checked as the list checks it (`validation_error` and
 * `filter_too_complex` naming `filter.<parameter>`), naming no other view,
 * and resolved once, so a view naming an alert rule that is not there is
 * refused when it is saved (`not_found`). A view is stored and shown back,
 * so it names keywords, an assignee and a person of its own workspace only
 * (spec 5.3): another's, or none, is refused on the field, as an alert
 * rule's keywords are.
 */
async function checkedViewFilter(sql: Sql, keywords: KeywordDirectory, workspaceId: string, raw: unknown): Promise<MentionFilter> {
  const filter = parseMentionFilter(raw, 'filter');
  if (filter.viewId !== undefined) throw domainError('validation_error', 'filter.viewId: a view cannot name another view', { field: 'filter.viewId' });
  await checkFilterKeywords(sql, keywords, workspaceId, filter, 'filter');
  if (filter.assigneeId !== undefined && !(await workspaceMembersAmong(sql, workspaceId, [filter.assigneeId])).has(filter.assigneeId)) {
    throw domainError('invalid_assignee', 'filter.assigneeId: not a member of this workspace', { field: 'filter.assigneeId' });
  }
  if (filter.personId !== undefined && !(await findPerson(sql, workspaceId, filter.personId))) {
    throw domainError('not_found', 'filter.personId: no person of this workspace', { field: 'filter.personId' });
  }
  try {
    await resolveMentionFilter(filter, mentionFilterLookups(sql, workspaceId));
  } catch (error) {
    // A rule the filter names that is not there (`not_found`), named where the body has it.
    if (!(error instanceof GraphQLError) || typeof error.extensions.field !== 'string') throw error;
    throw domainError(String(error.extensions.code), error.message, { field: `filter.${error.extensions.field}` }, error);
  }
  return filter;
}

export async function createMentionView(sql: Sql, keywords: KeywordDirectory, workspaceId: string, raw: unknown): Promise<MentionViewRow> {
  const input = parseInput(viewInput.partial({ filter: true, sort: true }), raw);
  const filter = await checkedViewFilter(sql, keywords, workspaceId, input.filter);
  try {
    return await insertMentionView(sql, workspaceId, { name: input.name, filter, sort: input.sort ?? 'newest' });
  } catch (error) {
    throw translateViewWriteError(error, input.name);
  }
}

export async function patchMentionView(sql: Sql, keywords: KeywordDirectory, workspaceId: string, id: string, raw: unknown): Promise<MentionViewRow> {
  const input = parseInput(viewInput.partial(), raw);
  const changes: Partial<{ name: string; filter: MentionFilter; sort: 'newest' | 'priority' }> = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.filter !== undefined) changes.filter = await checkedViewFilter(sql, keywords, workspaceId, input.filter);
  if (input.sort !== undefined) changes.sort = input.sort ?? 'newest';
  try {
    const updated = await updateMentionView(sql, workspaceId, id, changes);
    if (!updated) throw notFound('View');
    return updated;
  } catch (error) {
    throw translateViewWriteError(error, input.name);
  }
}

async function loadMentionView(sql: Sql, workspaceId: string, id: string): Promise<MentionViewRow> {
  const view = await findMentionView(sql, workspaceId, id);
  if (!view) throw notFound('View');
  return view;
}

/**
 * Saved views (spec 2.11, 4.7): the MentionView record, its queries and
 * mutations. `viewId` (a filter parameter, mention-filter.ts) applies one.
 */
export function addMentionViewSchema(
  builder: PothosBuilder,
  { MentionFilter, MentionSort }: { MentionFilter: PothosInputRef<Record<string, unknown>>; MentionSort: PothosEnumRef<'newest' | 'priority'> },
) {
  const MentionViewFilter = builder.objectRef<Record<string, unknown>>('MentionViewFilter').implement({
    description: "A view's filters as `MentionFilter` names them; a null field does not filter",
    fields: (t) =>
      Object.fromEntries(
        mentionFilterFields
          .filter(({ name }) => name !== 'viewId')
          .map(({ name, graphql, description }) => {
            const options = { nullable: true, description, resolve: (filter: Record<string, unknown>) => (filter[name] ?? null) as never };
            switch (graphql) {
              case 'ID':
                return [name, t.id(options)];
              case '[ID!]':
                return [name, t.idList(options)];
              case 'String':
                return [name, t.string(options)];
              case '[String!]':
                return [name, t.stringList(options)];
              case 'Boolean':
                return [name, t.boolean(options)];
              case 'Int':
                return [name, t.int(options)];
            }
          }),
      ),
  });

  const MentionView = builder.objectRef<MentionViewRow>('MentionView').implement({
    description: 'A saved view: a named set of the list filters and a sort, shared by the workspace; pass its id as `viewId`',
    fields: (t) => ({
      id: t.exposeID('id'),
      name: t.exposeString('name'),
      filter: t.field({ type: MentionViewFilter, resolve: (view) => view.filter }),
      sort: t.expose('sort', { type: MentionSort }),
      createdAt: t.expose('createdAt', { type: 'DateTime' }),
      updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    }),
  });

  const CreateMentionViewInput = builder.inputType('CreateMentionViewInput', {
    fields: (t) => ({
      name: t.string({ required: true, description: 'Unique in the workspace, whatever the case' }),
      filter: t.field({ type: MentionFilter, description: 'Checked as the list checks it; it may not name a view' }),
      sort: t.field({ type: MentionSort, description: 'Default `newest`' }),
    }),
  });
  const MentionViewPatchInput = builder.inputType('MentionViewPatchInput', {
    description: 'Omitted fields stay; a filter replaces the whole filter (null filters nothing); a null sort is `newest`',
    fields: (t) => ({ name: t.string(), filter: t.field({ type: MentionFilter }), sort: t.field({ type: MentionSort }) }),
  });

  builder.queryField('mentionViews', (t) =>
    t.field({
      type: [MentionView],
      description: "The workspace's saved views, oldest first",
      resolve: (_root, _args, ctx) => listMentionViews(ctx.sql, requireAuth(ctx).workspaceId),
    }),
  );
  builder.queryField('mentionView', (t) =>
    t.field({
      type: MentionView,
      args: { id: t.arg.id({ required: true }) },
      resolve: (_root, args, ctx) => loadMentionView(ctx.sql, requireAuth(ctx).workspaceId, String(args.id)),
    }),
  );
  builder.mutationField('createMentionView', (t) =>
    t.field({
      type: MentionView,
      description: 'Saves a view; a name the workspace uses in any case is `duplicate_view`',
      args: { input: t.arg({ type: CreateMentionViewInput, required: true }) },
      resolve: (_root, args, ctx) => createMentionView(ctx.sql, ctx.keywordDirectory, requireAuth(ctx).workspaceId, args.input),
    }),
  );
  builder.mutationField('updateMentionView', (t) =>
    t.field({
      type: MentionView,
      args: { id: t.arg.id({ required: true }), input: t.arg({ type: MentionViewPatchInput, required: true }) },
      resolve: (_root, args, ctx) => patchMentionView(ctx.sql, ctx.keywordDirectory, requireAuth(ctx).workspaceId, String(args.id), args.input),
    }),
  );
  builder.mutationField('deleteMentionView', (t) =>
    t.field({
      type: 'ID',
      description: 'Deletes a view; returns its id. Lists, exports and subscriptions that name it afterwards are `not_found`',
      args: { id: t.arg.id({ required: true }) },
      resolve: async (_root, args, ctx) => {
        if (!(await deleteMentionView(ctx.sql, requireAuth(ctx).workspaceId, String(args.id)))) throw notFound('View');
        return String(args.id);
      },
    }),
  );

  return { MentionView };
}
