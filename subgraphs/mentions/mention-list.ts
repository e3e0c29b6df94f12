import type { Queryable } from '../../runtime/database.ts';
import { cursorTime, decodeCursor, pageOf, pageSize } from '../cursor-pages.ts';
import type { KeywordDirectory } from '../keyword-directory.ts';
import type { MentionFilter, MentionSort, NestedCondition } from './mention-filter.ts';
import { readMentionFilter, readMentionQuery } from './mention-filter-lookups.ts';
import { type ListedMention, listMentionsPage, type MentionOrder, type MentionPageStart } from './mention-store.ts';

export const mentionSorts = ['newest', 'priority'] as const satisfies readonly MentionSort[];

/**
 * What the list and the export show of a parameter their filter leaves
 * out: relevant mentions only (spec 4.3) and none snoozed until it wakes
 * (spec 3.3). Subscriptions take no defaults: a new mention is not scored
 * yet, so it would never be relevant when it is announced.
 */
export const listViewDefaults: MentionFilter = { relevant: true, snoozed: false };

/** A cursor holds its sort's name and the last mention's sort key, so a cursor of one order is refused by the other. */
const cursorKey = (sort: MentionOrder) => (mention: ListedMention) =>
  sort === 'priority' ? ['priority', String(mention.priority), mention.sortAt, mention.id] : [sort, mention.sortAt, mention.id];

const parseCursor =
  (sort: MentionOrder) =>
  (parts: string[]): MentionPageStart | undefined => {
    if (parts[0] !== sort) return undefined;
    const [time, id] = parts.slice(sort === 'priority' ? 2 : 1);
    const at = cursorTime(time, 6);
    if (at === undefined || !id?.startsWith('mm_')) return undefined;
    if (sort !== 'priority') return parts.length === 3 ? { sort, at, id } : undefined;
    // A priority is a `real`: a number past its range would fail the statement.
    const priority = Number(parts[1]);
    return parts.length === 4 && parts[1] !== '' && Number.isFinite(Math.fround(priority)) ? { sort, priority, at, id } : undefined;
  };

/**
 * What a list shows besides its filter: defaults for the parameters the
 * filter leaves out, and a condition of the caller's own on top (the
 * compatibility API's relevance buckets).
 */
export interface MentionListScope {
  defaults: MentionFilter;
  condition?: NestedCondition;
}

/** `GET /v1/mentions`, the export and the GraphQL list: the list's defaults, nothing more. */
export const mentionListView: MentionListScope = { defaults: listViewDefaults };

/**
 * A page of `GET /v1/mentions` (spec 4.3): the filter on top of the list's
 * defaults, newest match first or by priority (a saved view's sort when the
 * filter names one and no sort is asked for), 1 to 100 a page (default 50);
 * the compatibility API asks for newest post first.
 */
export async function listMentions(
  sql: Queryable,
  keywords: KeywordDirectory,
  workspaceId: string,
  args: { filter?: unknown; sort?: MentionOrder | null; first?: number | null; after?: string | null },
  scope: MentionListScope = mentionListView,
): Promise<{ nodes: ListedMention[]; nextCursor: string | null }> {
  const limit = pageSize(args.first);
  const { filter, viewSort } = await readMentionQuery(sql, keywords, workspaceId, args.filter, scope.defaults);
  const sort = args.sort ?? viewSort ?? 'newest';
  const after = args.after ? decodeCursor(args.after, parseCursor(sort)) : null;
  const rows = await listMentionsPage(sql, workspaceId, { filter, condition: scope.condition, sort, after, limit: limit + 1 });
  return pageOf(rows, limit, cursorKey(sort));
}

/**
 * The newest `limit` posts the list would show, in one read, from where a
 * page of the list ended when `after` is its cursor: the compatibility
 * API's export.
 */
export async function newestMentions(
  sql: Queryable,
  keywords: KeywordDirectory,
  workspaceId: string,
  rawFilter: unknown,
  scope: MentionListScope,
  limit: number,
  after: string | null = null,
): Promise<ListedMention[]> {
  const filter = await readMentionFilter(sql, keywords, workspaceId, rawFilter, scope.defaults);
  const start = after ? decodeCursor(after, parseCursor('published')) : null;
  return listMentionsPage(sql, workspaceId, { filter, condition: scope.condition, sort: 'published', after: start, limit });
}
