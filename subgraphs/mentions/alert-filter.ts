import type { Queryable } from '../../runtime/database.ts';
import type { AlertFilter } from './alert-rule-input.ts';
import { mentionFilterSql, type ResolvedMentionFilter } from './mention-filter.ts';

const given = <Item>(values: Item[] | undefined) => (values?.length ? values : undefined);

/**
 * A rule's filter as a mention filter: its keys mean exactly what the
 * list's filters of the same names mean (spec 2.9, 4.3), its muted authors
 * are the list's `excludeAuthors`, on the rule's own base of relevant open
 * mentions (spec 3.3, 6.2). An empty list filters nothing, as when left out.
 */
export function alertMentionFilter(filter: AlertFilter): ResolvedMentionFilter {
  return {
    relevant: true,
    status: 'open',
    sentiments: given(filter.sentiments),
    intents: given(filter.intents),
    minRelevance: filter.minRelevance,
    languages: given(filter.languages),
    automated: filter.automated,
    linkHosts: given(filter.linkHosts),
    keywordIds: given(filter.keywordIds),
    platforms: given(filter.platforms),
    excludeAuthors: given(filter.mutedAuthors),
  };
}

/**
 * A rule's filter as SQL over `mentions m join posts p join authors a`, the
 * one definition of which mentions a rule sends: the feed of
 * `GET /v1/mentions?alertId=` uses it, instant alerts and digests through
 * `sendableMentionFilter`.
 */
export const alertFilterSql = (sql: Queryable, filter: AlertFilter) => mentionFilterSql(sql, alertMentionFilter(filter));

/**
 * What a rule sends now, instantly or in a digest: its filter less the
 * mentions snoozed until later, which stay out until they wake (spec 3.3),
 * as they stay out of the rule's feed unless asked for.
 */
export const sendableMentionFilter = (filter: AlertFilter): ResolvedMentionFilter => ({ ...alertMentionFilter(filter), snoozed: false });
