import type { Queryable } from '../../runtime/database.ts';
import { alertFilterSql } from './alert-filter.ts';
import { findAlertRule } from './alert-rule-store.ts';
import { type FilterLookups, type MentionFilter, parseMentionFilter, resolveMentionFilter, type ResolvedMentionFilter } from './mention-filter.ts';

/** What a filter of this workspace looks up, from this subgraph's tables (kept apart from the filters so alert rules can use them). */
export function mentionFilterLookups(sql: Queryable, workspaceId: string): FilterLookups {
  return {
    async alertRuleCondition(alertId) {
      const rule = await findAlertRule(sql, workspaceId, alertId);
      return rule && ((tag) => alertFilterSql(tag, rule.filter));
    },
  };
}

/**
 * A filter as a GraphQL input or a stored export holds it, checked
 * (`validation_error`, `filter_too_complex`) and resolved (`not_found`), on
 * top of `defaults` for the parameters it leaves out.
 */
export async function readMentionFilter(sql: Queryable, workspaceId: string, raw: unknown, defaults: MentionFilter = {}): Promise<ResolvedMentionFilter> {
  return resolveMentionFilter({ ...defaults, ...parseMentionFilter(raw) }, mentionFilterLookups(sql, workspaceId));
}
