import { GraphQLError } from 'graphql';
import { z } from 'zod';
import type { Sql } from '../../runtime/database.ts';
import { domainError } from '../domain-error.ts';
import type { PothosBuilder, PothosObjectRef } from '../pothos-builder.ts';
import { requireAuth } from '../require-auth.ts';
import { parseInput } from '../validate-input.ts';
import { workspaceFiltersPatchInput } from './workspace-filters.ts';
import { findWorkspaceFilters, lockWorkspaceFilters, saveWorkspaceFilters, type WorkspaceFiltersRow } from './workspace-settings-store.ts';

type FilterColumn = Exclude<keyof WorkspaceFiltersRow, 'updatedAt'>;

/** Octolens's global filter lists and the workspace filters they are (spec 2.11 item 5, 4.8). */
const columnOfList = {
  negativeKeywords: 'excludedTerms',
  negativeAuthors: 'excludedAuthors',
  negativeSubreddits: 'subredditsDenied',
  positiveSubreddits: 'subredditsAllowed',
  negativeRepos: 'githubRepositories',
} as const satisfies Record<string, FilterColumn>;

export const octolensFilterLists = Object.keys(columnOfList) as (keyof typeof columnOfList)[];
type FilterList = (typeof octolensFilterLists)[number];

/** A subreddit is allowed or denied, never both. */
const counterpartOf: Partial<Record<FilterList, FilterList>> = { negativeSubreddits: 'positiveSubreddits', positiveSubreddits: 'negativeSubreddits' };

/** Where each list sits in the PATCH body of /v1/filters, whose rules and canonical forms apply. */
const patchPathOf: Record<FilterList, string[]> = {
  negativeKeywords: ['excludedTerms'],
  negativeAuthors: ['excludedAuthors'],
  negativeSubreddits: ['subreddits', 'denied'],
  positiveSubreddits: ['subreddits', 'allowed'],
  negativeRepos: ['githubRepositories'],
};

/**
 * Values in the form the list stores them (subreddits bare and lower case,
 * authors canonical, repositories `owner/repo`), duplicates dropped, with
 * the list's bounds; a refusal names the Octolens list and position.
 */
function storedForm(list: FilterList, values: string[]): string[] {
  const path = patchPathOf[list];
  const patch = path.length === 1 ? { [path[0]]: values } : { [path[0]]: { [path[1]]: values } };
  try {
    const parsed = parseInput(workspaceFiltersPatchInput, patch) as Record<string, any>;
    return (path.length === 1 ? parsed[path[0]] : parsed[path[0]][path[1]]) as string[];
  } catch (error) {
    if (!(error instanceof GraphQLError) || typeof error.extensions.field !== 'string') throw error;
    const ours = path.join('.');
    const field = list + error.extensions.field.slice(ours.length);
    throw domainError('validation_error', field + error.message.slice(error.extensions.field.length), { field }, error);
  }
}

const clearNotConfirmed = (list: FilterList) =>
  domainError('clear_not_confirmed', `${list}: this would empty the list; send confirmClear: true to clear it`, { field: list });

const listName = z.enum(octolensFilterLists as [FilterList, ...FilterList[]]);
const values = z.array(z.string()).min(1, 'must name at least one value');

export const compatFilterValuesInput = z.strictObject({
  list: listName,
  values,
  confirmClear: z.boolean().optional().meta({ description: 'Needed when the removal would empty the list' }),
});

const filterList = z.array(z.string()).optional();

/**
 * The workspace filter list a compatibility list is written to, as JSON
 * Schema (its bounds and entry formats), so that `openapi.json` shows what
 * is checked: the list is read as a string array here and checked there.
 */
function describedAs(workspaceList: z.ZodType): Record<string, unknown> {
  const { $schema: _, ...schema } = z.toJSONSchema(workspaceList, { io: 'input', unrepresentable: 'any' }) as Record<string, any>;
  const { description: _description, ...array } = schema.anyOf?.find((option: { type?: string }) => option.type === 'array') ?? schema;
  return array;
}
const workspaceLists = workspaceFiltersPatchInput.shape;
const workspaceSubreddits = workspaceLists.subreddits.unwrap().shape;

export const compatWorkspaceFiltersInput = z.strictObject({
  negativeKeywords: filterList.meta({ description: 'Terms that drop a post for every keyword (at most 50, each 1 to 80 characters)', ...describedAs(workspaceLists.excludedTerms) }),
  negativeAuthors: filterList.meta({ description: 'Handles, names or profile links whose posts are dropped (at most 100)', ...describedAs(workspaceLists.excludedAuthors) }),
  negativeSubreddits: filterList.meta({ description: 'Subreddits whose posts are dropped (`r/` optional; at most 50)', ...describedAs(workspaceSubreddits.denied) }),
  positiveSubreddits: filterList.meta({ description: 'When non-empty, Reddit posts only from these (at most 50)', ...describedAs(workspaceSubreddits.allowed) }),
  negativeRepos: filterList.meta({ description: '`owner/repo` names whose GitHub items are dropped (at most 100)', ...describedAs(workspaceLists.githubRepositories) }),
  confirmClear: z.boolean().optional().meta({ description: 'Needed to empty a list that holds values with `[]`' }),
});

async function changeFilters<Result>(sql: Sql, workspaceId: string, change: (current: WorkspaceFiltersRow) => { lists: Partial<Record<FilterList, string[]>>; result: Result }) {
  return sql.begin(async (tx) => {
    await lockWorkspaceFilters(tx, workspaceId);
    const { lists, result } = change(await findWorkspaceFilters(tx, workspaceId));
    const columns = Object.fromEntries(Object.entries(lists).map(([list, listValues]) => [columnOfList[list as FilterList], listValues]));
    const saved = await saveWorkspaceFilters(tx, workspaceId, columns);
    return { saved, result };
  }) as Promise<{ saved: WorkspaceFiltersRow; result: Result }>;
}

/**
 * Replaces the lists sent (spec 4.8): emptying a list that holds values
 * needs `confirmClear` (`clear_not_confirmed`), and a write that would leave
 * a subreddit both allowed and denied is `feed_filter_write_conflict`.
 */
async function replaceFilterLists(sql: Sql, workspaceId: string, rawInput: unknown): Promise<WorkspaceFiltersRow> {
  const input = parseInput(compatWorkspaceFiltersInput, rawInput);
  const sent = Object.fromEntries(octolensFilterLists.filter((list) => input[list] !== undefined).map((list) => [list, storedForm(list, input[list]!)]));
  // Octolens's update is partial but not empty: a body naming no list is a mistake, not a no-op.
  if (Object.keys(sent).length === 0) throw domainError('validation_error', `The body must name at least one list: ${octolensFilterLists.join(', ')}`);
  const { saved } = await changeFilters(sql, workspaceId, (current) => {
    for (const [list, listValues] of Object.entries(sent) as [FilterList, string[]][]) {
      if (listValues.length === 0 && current[columnOfList[list]].length > 0 && !input.confirmClear) throw clearNotConfirmed(list);
    }
    const allowed = new Set(sent.positiveSubreddits ?? current.subredditsAllowed);
    const clash = (sent.negativeSubreddits ?? current.subredditsDenied).find((name) => allowed.has(name));
    if (clash !== undefined) {
      const list = sent.negativeSubreddits ? 'negativeSubreddits' : 'positiveSubreddits';
      throw domainError('feed_filter_write_conflict', `${list}: r/${clash} would be both allowed and excluded; take it out of the other list in the same write`, { field: list });
    }
    return { lists: sent, result: null };
  });
  return saved;
}

interface ListChange {
  list: FilterList;
  added: string[];
  dropped: string[];
  removed: string[];
  values: string[];
}

/** Adds values to a list: ones already there change nothing, ones the counterpart list holds are dropped rather than moved. */
async function addFilterValues(sql: Sql, workspaceId: string, rawInput: unknown): Promise<ListChange> {
  const { list, values: given } = parseInput(compatFilterValuesInput.omit({ confirmClear: true }), rawInput);
  const wanted = storedForm(list, given);
  const { result } = await changeFilters(sql, workspaceId, (current) => {
    const held = current[columnOfList[list]];
    const counterpart = counterpartOf[list];
    const excluded = new Set(counterpart ? current[columnOfList[counterpart]] : []);
    const dropped = wanted.filter((value) => excluded.has(value));
    const added = wanted.filter((value) => !excluded.has(value) && !held.includes(value));
    const after = storedForm(list, [...held, ...added]);
    return { lists: { [list]: after }, result: { list, added, dropped, removed: [], values: after } };
  });
  return result;
}

/** Takes values out of a list; one that would empty it needs `confirmClear`. */
async function removeFilterValues(sql: Sql, workspaceId: string, rawInput: unknown): Promise<ListChange> {
  const { list, values: given, confirmClear } = parseInput(compatFilterValuesInput, rawInput);
  const unwanted = new Set(storedForm(list, given));
  const { result } = await changeFilters(sql, workspaceId, (current) => {
    const held = current[columnOfList[list]];
    const removed = held.filter((value) => unwanted.has(value));
    const after = held.filter((value) => !unwanted.has(value));
    if (held.length > 0 && after.length === 0 && !confirmClear) throw clearNotConfirmed(list);
    return { lists: { [list]: after }, result: { list, added: [], dropped: [], removed, values: after } };
  });
  return result;
}

/** The global filters side of the Octolens-compatible API (spec 4.8), over the workspace filters. */
export function addCompatWorkspaceFiltersSchema(builder: PothosBuilder, WorkspaceFilters: PothosObjectRef<WorkspaceFiltersRow>) {
  const CompatWorkspaceFiltersInput = builder.inputType('CompatWorkspaceFiltersInput', {
    description: "The workspace filters under Octolens's list names; a list sent replaces the old one",
    fields: (t) => ({
      negativeKeywords: t.stringList(),
      negativeAuthors: t.stringList(),
      negativeSubreddits: t.stringList(),
      positiveSubreddits: t.stringList(),
      negativeRepos: t.stringList(),
      confirmClear: t.boolean({ description: 'Needed to empty a list that holds values' }),
    }),
  });

  const CompatFilterListChange = builder.objectRef<ListChange>('CompatFilterListChange').implement({
    description: 'One global filter list after values were added or removed',
    fields: (t) => ({
      list: t.exposeString('list'),
      added: t.exposeStringList('added', { description: 'Values that landed, as stored' }),
      dropped: t.exposeStringList('dropped', { description: 'Values refused because the counterpart list holds them' }),
      removed: t.exposeStringList('removed', { description: 'Values that left the list, as they were stored' }),
      values: t.exposeStringList('values', { description: 'The whole list after the change' }),
    }),
  });

  builder.mutationField('compatUpdateWorkspaceFilters', (t) =>
    t.field({
      type: WorkspaceFilters,
      description: 'Replaces the lists sent; `clear_not_confirmed` to empty one without `confirmClear`, `feed_filter_write_conflict` for a subreddit both allowed and excluded',
      args: { input: t.arg({ type: CompatWorkspaceFiltersInput, required: true }) },
      resolve: (_root, args, ctx) => replaceFilterLists(ctx.sql, requireAuth(ctx).workspaceId, args.input),
    }),
  );

  builder.mutationField('compatAddWorkspaceFilterValues', (t) =>
    t.field({
      type: CompatFilterListChange,
      args: { list: t.arg.string({ required: true }), values: t.arg.stringList({ required: true }) },
      resolve: (_root, args, ctx) => addFilterValues(ctx.sql, requireAuth(ctx).workspaceId, args),
    }),
  );

  builder.mutationField('compatRemoveWorkspaceFilterValues', (t) =>
    t.field({
      type: CompatFilterListChange,
      args: { list: t.arg.string({ required: true }), values: t.arg.stringList({ required: true }), confirmClear: t.arg.boolean() },
      resolve: (_root, args, ctx) => removeFilterValues(ctx.sql, requireAuth(ctx).workspaceId, { ...args, confirmClear: args.confirmClear ?? undefined }),
    }),
  );
}
