import type { SearchQuery } from './connector.ts';

/**
 * The term as platform search boxes take it. Every platform here treats a
 * double-quoted string as a phrase, so an exact-phrase keyword is sent
 * quoted; quotes inside the term would end the phrase early and are dropped.
 */
export function searchText(query: Pick<SearchQuery, 'term' | 'exactPhrase'>): string {
  const term = bareTerm(query.term);
  return query.exactPhrase ? `"${term}"` : term;
}

function bareTerm(term: string): string {
  return term.replace(/"/g, ' ').replace(/\s+/g, ' ').trim();
}

/** Items to ask for in one call: the query's `limit` within 1 and the platform's maximum. */
export function pageSize(query: Pick<SearchQuery, 'limit'>, platformMaximum: number): number {
  return Math.min(Math.max(Math.floor(query.limit ?? platformMaximum), 1), platformMaximum);
}

/**
 * Whether text may mention the term, for platforms without full-text search
 * (filtered on our side). Deliberately loose — case-insensitive, words in any
 * order for a non-exact term — because the matcher applies the keyword's
 * real rules afterwards; this only keeps obvious non-matches out.
 */
export function mayMentionTerm(text: string, query: Pick<SearchQuery, 'term' | 'exactPhrase'>): boolean {
  const haystack = text.toLowerCase();
  const term = bareTerm(query.term).toLowerCase();
  if (query.exactPhrase) return haystack.includes(term);
  return term.split(' ').every((word) => haystack.includes(word.replace(/s$/, '')));
}

/** Seconds since the Unix epoch, as numeric time filters take them. */
export function unixSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}
