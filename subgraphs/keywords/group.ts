import { z } from 'zod';
import type { Sql } from '../../runtime/database.ts';
import { domainError, notFound } from '../domain-error.ts';
import type { PothosBuilder } from '../pothos-builder.ts';
import { requireAuth } from '../require-auth.ts';
import { parseInput } from '../validate-input.ts';
import {
  deleteGroup,
  translateGroupWriteError,
  ensureDefaultGroup,
  findGroup,
  findGroupForUpdate,
  type GroupRow,
  insertGroup,
  listGroups,
  moveGroupKeywords,
  termsClashingOnMove,
  updateGroup,
} from './group-store.ts';
import { keywordLoaders } from './keyword-loaders.ts';
import { translateKeywordWriteError } from './keyword-store.ts';

const groupName = z
  .string()
  .trim()
  .min(1, 'must be 1 to 100 characters')
  .max(100, 'must be 1 to 100 characters')
  .refine((name) => !/[\r\n\t]/.test(name), 'must be one line');
const externalId = z.string().trim().min(1, 'must be 1 to 200 characters').max(200, 'must be 1 to 200 characters').nullable();
const description = z
  .string()
  .max(1000, 'must be at most 1000 characters')
  .nullable()
  .transform((value) => (value === null || value.trim() === '' ? null : value.trim()));

const groupFields = {
  name: groupName.meta({ description: 'Unique in the workspace, whatever the case' }),
  externalId: externalId.optional().meta({ description: 'Your own id for the group; unique in the workspace' }),
  description: description.optional().meta({
    description: 'Up to 1000 characters the classifier reads for every keyword of the group. Not on the default group: it reads the company profile',
  }),
  context: description.optional().meta({ description: 'Another name for `description`, as a keyword names the text the classifier reads for it' }),
};

/**
 * `context` read as `description`: a keyword calls the text the classifier
 * reads its `context`, and spec part 7 names the default group's refusal of
 * one `default_group_context`, so a group takes the word too. Both sent
 * must agree.
 */
function contextAsDescription<Input extends { description?: string | null; context?: string | null }>(input: Input, ctx: z.RefinementCtx) {
  const { context, ...rest } = input;
  if (context === undefined) return rest;
  if (input.description !== undefined && input.description !== context) {
    ctx.addIssue({ code: 'custom', message: 'names the description again, differently; send one of description and context', path: ['context'] });
    return z.NEVER;
  }
  return { ...rest, description: context };
}

/** POST /v1/groups. */
export const groupCreateInput = z.strictObject(groupFields).transform(contextAsDescription);

/** PATCH /v1/groups/{id}: omitted fields stay, null clears `externalId` and `description`. */
export const groupPatchInput = z.strictObject(groupFields).partial().transform(contextAsDescription);

/** The name the request gave the description by, for an error about it. */
const descriptionField = (raw: unknown) => (typeof raw === 'object' && raw !== null && (raw as { context?: unknown }).context != null ? 'context' : 'description');

export async function createGroup(sql: Sql, workspaceId: string, rawInput: unknown): Promise<GroupRow> {
  const input = parseInput(groupCreateInput, rawInput);
  try {
    return await insertGroup(sql, workspaceId, { name: input.name, externalId: input.externalId ?? null, description: input.description ?? null });
  } catch (error) {
    throw translateGroupWriteError(error, input);
  }
}

/** Renames a group or changes its externalId or description; the default group takes no description (spec 7 `default_group_context`). */
export async function patchGroup(sql: Sql, workspaceId: string, id: string, rawPatch: unknown): Promise<GroupRow> {
  const patch = parseInput(groupPatchInput, rawPatch);
  const group = await findGroup(sql, workspaceId, id);
  if (!group) throw notFound('Group');
  if (group.isDefault && patch.description) {
    throw domainError(
      'default_group_context',
      'The default group reads the company profile as its description; change the company profile, or give the keyword a context',
      { field: descriptionField(rawPatch) },
    );
  }
  try {
    const updated = await updateGroup(sql, workspaceId, id, patch);
    if (!updated) throw notFound('Group');
    return updated;
  } catch (error) {
    throw translateGroupWriteError(error, patch);
  }
}

/**
 * Deletes a group and moves its keywords, with their settings and mentions,
 * to the default group: deleting a folder should not delete what is in it.
 * When the default group already tracks one of the terms nothing changes
 * (409 `duplicate_keyword`), since a group tracks a term once.
 */
export async function removeGroup(sql: Sql, workspaceId: string, id: string): Promise<void> {
  const clash = (term: string) =>
    domainError('duplicate_keyword', `The default group already tracks "${term}"; rename, move or delete one of the two keywords first`);
  try {
    await sql.begin(async (tx) => {
      const group = await findGroupForUpdate(tx, workspaceId, id);
      if (!group) throw notFound('Group');
      if (group.isDefault) throw domainError('default_group', 'The default group cannot be deleted');
      const target = await ensureDefaultGroup(tx, workspaceId);
      const [clashingTerm] = await termsClashingOnMove(tx, group.id, target.id);
      if (clashingTerm !== undefined) throw clash(clashingTerm);
      await moveGroupKeywords(tx, group.id, target.id);
      await deleteGroup(tx, workspaceId, group.id);
    });
  } catch (error) {
    throw translateKeywordWriteError(error);
  }
}

async function loadGroup(sql: Sql, workspaceId: string, id: string): Promise<GroupRow> {
  const group = await findGroup(sql, workspaceId, id);
  if (!group) throw notFound('Group');
  return group;
}

/** The Group record (spec 2.2 plus description, keywordCount, createdAt), its queries and mutations. */
export function addGroupSchema(builder: PothosBuilder) {
  const Group = builder.objectRef<GroupRow>('Group').implement({
    description: 'A folder of keywords; a group tracks a term once',
    fields: (t) => ({
      id: t.exposeID('id'),
      name: t.exposeString('name'),
      externalId: t.exposeString('externalId', { nullable: true, description: "The caller's own id" }),
      description: t.exposeString('description', {
        nullable: true,
        description: 'What the classifier reads for every keyword of the group; always null on the default group, which reads the company profile',
      }),
      isDefault: t.exposeBoolean('isDefault', { description: 'Where a keyword lands when no group is named' }),
      keywordCount: t.int({ resolve: (group, _args, ctx) => keywordLoaders(ctx).groupKeywordCount.load(group.id) }),
      createdAt: t.expose('createdAt', { type: 'DateTime' }),
    }),
  });

  const CreateGroupInput = builder.inputType('CreateGroupInput', {
    fields: (t) => ({ name: t.string({ required: true }), externalId: t.string(), description: t.string(), context: t.string({ description: 'Another name for description' }) }),
  });
  const GroupPatchInput = builder.inputType('GroupPatchInput', {
    description: 'Omitted fields stay; null clears externalId and description',
    fields: (t) => ({ name: t.string(), externalId: t.string(), description: t.string(), context: t.string({ description: 'Another name for description' }) }),
  });

  builder.queryField('groups', (t) =>
    t.field({
      type: [Group],
      description: 'Every group of the workspace, the default one first, then oldest first',
      resolve: (_root, _args, ctx) => listGroups(ctx.sql, requireAuth(ctx).workspaceId),
    }),
  );
  builder.queryField('group', (t) =>
    t.field({
      type: Group,
      args: { id: t.arg.id({ required: true }) },
      resolve: (_root, args, ctx) => loadGroup(ctx.sql, requireAuth(ctx).workspaceId, String(args.id)),
    }),
  );

  builder.mutationField('createGroup', (t) =>
    t.field({
      type: Group,
      args: { input: t.arg({ type: CreateGroupInput, required: true }) },
      resolve: (_root, args, ctx) => createGroup(ctx.sql, requireAuth(ctx).workspaceId, args.input),
    }),
  );
  builder.mutationField('updateGroup', (t) =>
    t.field({
      type: Group,
      args: { id: t.arg.id({ required: true }), input: t.arg({ type: GroupPatchInput, required: true }) },
      resolve: (_root, args, ctx) => patchGroup(ctx.sql, requireAuth(ctx).workspaceId, String(args.id), args.input),
    }),
  );
  builder.mutationField('deleteGroup', (t) =>
    t.field({
      type: 'ID',
      description: 'Deletes a group and moves its keywords to the default group; returns its id',
      args: { id: t.arg.id({ required: true }) },
      resolve: async (_root, args, ctx) => {
        await removeGroup(ctx.sql, requireAuth(ctx).workspaceId, String(args.id));
        return String(args.id);
      },
    }),
  );
}
