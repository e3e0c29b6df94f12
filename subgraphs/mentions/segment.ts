import { z } from 'zod';
import type { Sql } from '../../runtime/database.ts';
import { domainError, notFound } from '../domain-error.ts';
import type { PothosBuilder, PothosObjectRef, PothosTypes } from '../pothos-builder.ts';
import { requireAuth } from '../require-auth.ts';
import { parseInput, withoutNullKeys } from '../validate-input.ts';
import { workspaceMembersAmong } from './mention-view-store.ts';
import { type PeopleFilter, parsePeopleFilter, peopleFilterInput, unowned } from './person-filter.ts';
import { deleteSegment, findSegment, insertSegment, listSegments, type SegmentRow, translateSegmentWriteError, updateSegment } from './segment-store.ts';

const segmentName = z
  .string()
  .trim()
  .min(1, 'must be 1 to 100 characters')
  .max(100, 'must be 1 to 100 characters')
  .refine((name) => !/[\r\n\t]/.test(name), 'must be one line');

/** POST /v1/segments: a name unique in the workspace whatever its case, and the people filter it saves. */
export const segmentCreateInput = z.strictObject({
  name: segmentName.meta({ description: 'Unique in the workspace, whatever the case' }),
  filter: peopleFilterInput.nullable().optional().meta({ description: 'The people list filters it saves; none or null: everyone' }),
});

/** PATCH /v1/segments/{id}: omitted fields stay; `filter` is replaced whole. */
export const segmentPatchInput = z.strictObject({
  name: segmentName.optional(),
  filter: peopleFilterInput.nullable().optional().meta({ description: 'The whole new filter; null filters nothing (everyone), as a saved view’s does' }),
});

/**
 * A segment's filter checked as the list checks it, and naming owners of
 * this workspace only: a segment is stored and shown back, so an owner who
 * is no member is refused when it is saved (`invalid_member`, as on
 * `PATCH /v1/people/{id}`), as a saved view refuses such an assignee.
 */
async function checkedSegmentFilter(sql: Sql, workspaceId: string, raw: unknown): Promise<PeopleFilter> {
  const filter = parsePeopleFilter(raw);
  const owners = (filter.ownerIds ?? []).filter((id) => id !== unowned);
  if (owners.length === 0) return filter;
  const members = await workspaceMembersAmong(sql, workspaceId, owners);
  const stranger = filter.ownerIds!.findIndex((id) => id !== unowned && !members.has(id));
  if (stranger >= 0) {
    throw domainError('invalid_member', `filter.ownerIds.${stranger}: not a member of this workspace`, { field: `filter.ownerIds.${stranger}` });
  }
  return filter;
}

export async function createSegment(sql: Sql, workspaceId: string, rawInput: unknown, now: Date): Promise<SegmentRow> {
  const input = parseInput(segmentCreateInput, rawInput);
  const filter = await checkedSegmentFilter(sql, workspaceId, input.filter);
  try {
    return await insertSegment(sql, workspaceId, { name: input.name, filter }, now);
  } catch (error) {
    throw translateSegmentWriteError(error, input.name);
  }
}

export async function patchSegment(sql: Sql, workspaceId: string, id: string, rawPatch: unknown, now: Date): Promise<SegmentRow> {
  const patch = parseInput(segmentPatchInput, rawPatch);
  const filter = patch.filter === undefined ? undefined : await checkedSegmentFilter(sql, workspaceId, patch.filter);
  try {
    const updated = await updateSegment(sql, workspaceId, id, { name: patch.name, filter }, now);
    if (!updated) throw notFound('Segment');
    return updated;
  } catch (error) {
    throw translateSegmentWriteError(error, patch.name);
  }
}

export async function getSegment(sql: Sql, workspaceId: string, id: string): Promise<SegmentRow> {
  return (await findSegment(sql, workspaceId, id)) ?? Promise.reject(notFound('Segment'));
}

export async function removeSegment(sql: Sql, workspaceId: string, id: string): Promise<void> {
  if (!(await deleteSegment(sql, workspaceId, id))) throw notFound('Segment');
}

/** The segment types and fields; the filter types are the people list's. */
export function addSegmentType(builder: PothosBuilder, filterTypes: { PeopleFilterType: PothosObjectRef<PeopleFilter>; PeopleFilterInput: ReturnType<PothosBuilder['inputType']> }) {
  const Segment = builder.objectRef<SegmentRow>('Segment').implement({
    description: 'A named filter over the workspace’s people; pass its id as `segmentId` to the people list',
    fields: (t) => ({
      id: t.exposeID('id'),
      name: t.exposeString('name'),
      filter: t.field({ type: filterTypes.PeopleFilterType, resolve: (segment) => segment.filter }),
      createdAt: t.expose('createdAt', { type: 'DateTime' }),
      updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    }),
  });

  const segmentInputFields = (t: PothosSchemaTypes.InputFieldBuilder<PothosSchemaTypes.ExtendDefaultTypes<PothosTypes>, 'InputObject'>) => ({
    name: t.string(),
    filter: t.field({ type: filterTypes.PeopleFilterInput }),
  });
  const CreateSegmentInput = builder.inputType('CreateSegmentInput', { fields: segmentInputFields });
  const UpdateSegmentInput = builder.inputType('UpdateSegmentInput', { description: 'Omitted fields stay; the filter is replaced whole', fields: segmentInputFields });

  const asSent = (input: { name?: string | null; filter?: Record<string, unknown> | null }) => {
    const sent = withoutNullKeys(input);
    // A null filter is sent on purpose: it clears the filter.
    if (input.filter === null) return { ...sent, filter: null };
    return input.filter ? { ...sent, filter: withoutNullKeys(input.filter) } : sent;
  };

  builder.queryField('segments', (t) =>
    t.field({
      type: [Segment],
      description: "The workspace's segments, oldest first",
      resolve: (_root, _args, ctx) => listSegments(ctx.sql, requireAuth(ctx).workspaceId),
    }),
  );

  builder.queryField('segment', (t) =>
    t.field({ type: Segment, args: { id: t.arg.id({ required: true }) }, resolve: (_root, args, ctx) => getSegment(ctx.sql, requireAuth(ctx).workspaceId, String(args.id)) }),
  );

  builder.mutationField('createSegment', (t) =>
    t.field({
      type: Segment,
      args: { input: t.arg({ type: CreateSegmentInput, required: true }) },
      resolve: (_root, args, ctx) => createSegment(ctx.sql, requireAuth(ctx).workspaceId, asSent(args.input as never), ctx.clock.now()),
    }),
  );

  builder.mutationField('updateSegment', (t) =>
    t.field({
      type: Segment,
      args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateSegmentInput, required: true }) },
      resolve: (_root, args, ctx) => patchSegment(ctx.sql, requireAuth(ctx).workspaceId, String(args.id), asSent(args.input as never), ctx.clock.now()),
    }),
  );

  builder.mutationField('deleteSegment', (t) =>
    t.field({
      type: 'Boolean',
      args: { id: t.arg.id({ required: true }) },
      resolve: async (_root, args, ctx) => {
        await removeSegment(ctx.sql, requireAuth(ctx).workspaceId, String(args.id));
        return true;
      },
    }),
  );
}
