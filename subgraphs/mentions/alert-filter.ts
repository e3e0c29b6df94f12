import type { Queryable } from '../../runtime/database.ts';
import type { AlertFilter } from './alert-rule-input.ts';
import { mutedPersonSql } from './person-store.ts';
import { relevantSql } from './relevance.ts';

/**
 * A rule's filter as SQL over `mentions m join posts p join authors a`, the
 * one definition of which mentions a rule sends: the feed of
 * `GET /v1/mentions?alertId=`, instant alerts and digests all use it.
 * Only relevant mentions that are neither done nor ignored pass (spec 3.3,
 * 6.2), and never those of a muted person (6.1, 6.3).
 */
export function alertFilterSql(sql: Queryable, filter: AlertFilter) {
  const lower = (values: readonly string[]) => sql.array(values.map((value) => value.toLowerCase()));
  return sql`
    ${relevantSql(sql)} and m.status = 'open' and m.relevance is not null and not ${mutedPersonSql(sql)}
    ${filter.sentiments?.length ? sql`and coalesce(m.verdict_sentiment, m.sentiment) = any(${sql.array(filter.sentiments)})` : sql``}
    ${filter.intents?.length ? sql`and m.intents && ${sql.array(filter.intents)}::text[]` : sql``}
    ${filter.minRelevance !== undefined ? sql`and m.relevance >= ${filter.minRelevance}` : sql``}
    ${filter.languages?.length ? sql`and m.language = any(${sql.array(filter.languages)})` : sql``}
    ${filter.automated !== undefined ? sql`and coalesce(m.automated, false) = ${filter.automated}` : sql``}
    ${filter.keywordIds?.length ? sql`and m.keyword_id = any(${sql.array(filter.keywordIds)})` : sql``}
    ${filter.platforms?.length ? sql`and p.platform = any(${sql.array(filter.platforms)})` : sql``}
    ${filter.linkHosts?.length
      ? sql`and exists (
          select 1 from unnest(p.links) as link, unnest(${lower(filter.linkHosts)}::text[]) as host
          where lower(substring(link from '^[a-zA-Z][a-zA-Z0-9+.-]*://(?:[^@/?#]*@)?([^:/?#]+)')) in (host, 'www.' || host)
             or lower(substring(link from '^[a-zA-Z][a-zA-Z0-9+.-]*://(?:[^@/?#]*@)?([^:/?#]+)')) like '%.' || host)`
      : sql``}
    ${filter.mutedAuthors?.length
      ? sql`and not (a.id = any(${sql.array(filter.mutedAuthors)}) or lower(a.handle) = any(${lower(filter.mutedAuthors)}))`
      : sql``}`;
}
