import type { NormalizedAuthor, Platform } from '../vocabulary/normalized-post.ts';
import type { KeywordMatchRules, WorkspaceFilters } from '../subgraphs/keywords/matching/keyword-rules.ts';
import type { KeywordMatch } from '../subgraphs/keywords/matching/matcher.ts';
import type { MatchablePost } from '../subgraphs/keywords/matching/prepared-post.ts';

/** Builders for the matching tests: every field has the plain default a new keyword or post would have. */

export function keyword(keywordId: string, term: string, rules: Partial<KeywordMatchRules> = {}): KeywordMatchRules {
  return {
    keywordId,
    workspaceId: 'org_a',
    term,
    platforms: null,
    caseSensitive: false,
    exactPhrase: false,
    requiredTerms: [],
    requiredMode: 'any',
    excludedTerms: [],
    excludedAuthors: [],
    subreddits: { only: [], excluded: [] },
    repositories: { events: ['traction', 'stars', 'growth'], minStars: null, minWeeklyStars: null },
    ...rules,
  };
}

export function filters(rules: Partial<WorkspaceFilters> = {}): WorkspaceFilters {
  return { excludedTerms: [], excludedAuthors: [], githubRepositories: [], subreddits: { allowed: [], denied: [] }, ...rules };
}

export function author(fields: Partial<NormalizedAuthor> = {}): NormalizedAuthor {
  return { platformId: 'u1', name: 'Some One', handle: 'someone', url: '', avatarUrl: null, followers: null, ...fields };
}

export function post(text: string, fields: Partial<MatchablePost> & { platform?: Platform } = {}): MatchablePost {
  return {
    platform: 'hackernews',
    externalId: '1',
    url: 'https://news.ycombinator.com/item?id=1',
    text,
    publishedAt: new Date('2026-01-01T00:00:00Z'),
    replyTo: null,
    links: [],
    author: author(),
    ...fields,
  };
}

/** Matches as short labels, sorted: `kw` for a match, `kw~` for a fuzzy one. */
export function labels(matches: readonly KeywordMatch[]): string[] {
  return matches.map((match) => `${match.keywordId}${match.fuzzy ? '~' : ''}`).sort();
}
