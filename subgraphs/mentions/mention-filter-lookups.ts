import type { Queryable } from '../../runtime/database.ts';
import { domainError } from '../domain-error.ts';
import { alertFilterSql } from './alert-filter.ts';
import type { KeywordDirectory } from '../keyword-directory.ts';
import { findAlertRule } from './alert-rule-store.ts';
import {
  type FilterLookups,
  type MentionFilter,
  type MentionSort,
  mentionFilterSql,
  parseMentionFilter,
  resolveMentionFilter,
  type ResolvedMentionFilter,
  type SavedViewFilter,
} from './mention-filter.ts';
import { findMentionView } from './mention-view-store.ts';

/**
 * What a filter of this workspace looks up, from this subgraph's tables
 * (kept apart from the filters so alert rules can use them). A view is read
 * once however often the filter asks for it.
 */
export function mentionFilterLookups(sql: Queryable, workspaceId: string): FilterLookups {
  const views = new Map<string, Promise<SavedViewFilter | undefined>>();
  const lookups: FilterLookups = {
    async alertRuleCondition(alertId) {
      const rule = await findAlertRule(sql, workspaceId, alertId);
      return rule && ((tag) => alertFilterSql(tag, rule.filter));
    },
    savedView(viewId) {
      let view = views.get(viewId);
      if (!view) {
        view = (async () => {
          const row = await findMentionView(sql, workspaceId, viewId);
          if (!row) return undefined;
          // Stored checked, and holding no viewId of its own (mention-view.ts), so this reads no further view.
          const filter = parseMentionFilter(row.filter);
          const resolved = await resolveMentionFilter(filter, lookups);
          return { filter, sort: row.sort, condition: (tag) => mentionFilterSql(tag, resolved) };
        })();
        views.set(viewId, view);
      }
      return view;
    },
  };
  return lookups;
}

/**
 * Refuses keyword ids that name no keyword of the workspace (another
 * workspace's, or none): `not_found` on the parameter, under `at` when
 * given (spec 5.3: a workspace's requests name its own records only, as an
 * alert rule's filter does). A saved view's stored filter is not checked
 * again when used: a keyword deleted since matches nothing.
 */
export async function checkFilterKeywords(sql: Queryable, keywords: KeywordDirectory, workspaceId: string, filter: MentionFilter, at?: string): Promise<void> {
  for (const name of ['keywordId', 'keywordIds', 'notKeywordIds'] as const) {
    const value = filter[name];
    if (value === undefined) continue;
    const [unknown] = await keywords.idsOutsideWorkspace(sql, workspaceId, ([] as string[]).concat(value));
    const field = at ? `${at}.${name}` : name;
    if (unknown !== undefined) throw domainError('not_found', `${field}: ${unknown} names no keyword of this workspace`, { field });
  }
}

/**
 * A filter as a GraphQL input or a stored export holds it, checked
 * (`validation_error`, `filter_too_complex`, keywords of the workspace)
 * and resolved (`not_found`), with `defaults` for the parameters that
 * neither it nor the view it names (`viewId`) sets; and that view's sort,
 * for a list asked for none.
 */
export async function readMentionQuery(
  sql: Queryable,
  keywords: KeywordDirectory,
  workspaceId: string,
  raw: unknown,
  defaults: MentionFilter = {},
): Promise<{ filter: ResolvedMentionFilter; viewSort: MentionSort | undefined }> {
  const lookups = mentionFilterLookups(sql, workspaceId);
  const given = parseMentionFilter(raw);
  await checkFilterKeywords(sql, keywords, workspaceId, given);
  const filter = await withDefaults(given, defaults, lookups);
  const view = filter.viewId === undefined ? undefined : await lookups.savedView(filter.viewId);
  return { filter: await resolveMentionFilter(filter, lookups), viewSort: view?.sort };
}

/** `readMentionQuery`'s filter alone, for what takes no sort (the export, subscriptions). */
export async function readMentionFilter(
  sql: Queryable,
  keywords: KeywordDirectory,
  workspaceId: string,
  raw: unknown,
  defaults: MentionFilter = {},
): Promise<ResolvedMentionFilter> {
  return (await readMentionQuery(sql, keywords, workspaceId, raw, defaults)).filter;
}

/**
 * The filter with `defaults` for the parameters neither it nor the view it
 * names sets: a view that shows `relevant=false` keeps showing it. A view
 * that is not there is left for resolving to refuse (`not_found`).
 */
export async function withDefaults(filter: MentionFilter, defaults: MentionFilter, lookups: FilterLookups): Promise<MentionFilter> {
  const view = filter.viewId === undefined ? undefined : await lookups.savedView(filter.viewId);
  const unset = Object.entries(defaults).filter(([name]) => !(name in filter) && !(view && name in view.filter));
  return { ...Object.fromEntries(unset), ...filter };
}
