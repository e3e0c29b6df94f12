import { searchPlatforms, type Platform, type SearchPlatform } from '../../../vocabulary/normalized-post.ts';
import type { MatchablePost, PreparedPost } from './prepared-post.ts';
import { repositoryEventPasses, type RepositoryRules } from './repository-events.ts';
import { compilePatterns, excludedTermPattern, requiredTermPattern, type TermPattern } from './term-pattern.ts';

/** What the matcher reads of one active keyword (spec 2.1, 2.1.3). */
export interface KeywordMatchRules {
  keywordId: string;
  workspaceId: string;
  /** As stored: without the quotes that set exactPhrase. */
  term: string;
  /**
   * Null: every search platform; []: none. Review and feed items come from the
   * keyword's own sources and are not filtered by it; the caller restricts
   * those to their source keyword.
   */
  platforms: SearchPlatform[] | null;
  caseSensitive: boolean;
  exactPhrase: boolean;
  requiredTerms: string[];
  requiredMode: 'any' | 'all';
  excludedTerms: string[];
  /** Canonical forms (author-identity.ts). */
  excludedAuthors: string[];
  /** Bare, lower case. */
  subreddits: { only: string[]; excluded: string[] };
  repositories: RepositoryRules;
}

/** A workspace's noise rules, applied to every keyword of it (spec 2.11 item 5). */
export interface WorkspaceFilters {
  excludedTerms: string[];
  /** Canonical forms (author-identity.ts). */
  excludedAuthors: string[];
  /** `owner/repo`, lower case: issues, discussions and repository items from these are dropped. */
  githubRepositories: string[];
  /** Bare, lower case; a non-empty `allowed` admits only those. */
  subreddits: { allowed: string[]; denied: string[] };
}

export interface CompiledKeywordRules {
  readonly rules: KeywordMatchRules;
  readonly platforms: ReadonlySet<Platform> | null;
  readonly required: readonly TermPattern[];
  readonly excluded: readonly TermPattern[];
  readonly excludedAuthors: ReadonlySet<string>;
  readonly subredditsOnly: ReadonlySet<string>;
  readonly subredditsExcluded: ReadonlySet<string>;
}

export interface CompiledWorkspaceFilters {
  readonly excluded: readonly TermPattern[];
  readonly excludedAuthors: ReadonlySet<string>;
  readonly githubRepositories: ReadonlySet<string>;
  readonly subredditsAllowed: ReadonlySet<string>;
  readonly subredditsDenied: ReadonlySet<string>;
}

const lowerSet = (values: readonly string[]) => new Set(values.map((value) => value.toLowerCase()));
const searchPlatformSet: ReadonlySet<Platform> = new Set(searchPlatforms);

export function compileKeywordRules(rules: KeywordMatchRules): CompiledKeywordRules {
  return {
    rules,
    platforms: rules.platforms === null ? null : new Set(rules.platforms),
    required: compilePatterns(rules.requiredTerms, rules.caseSensitive, requiredTermPattern),
    excluded: compilePatterns(rules.excludedTerms, rules.caseSensitive, excludedTermPattern),
    excludedAuthors: new Set(rules.excludedAuthors),
    subredditsOnly: lowerSet(rules.subreddits.only),
    subredditsExcluded: lowerSet(rules.subreddits.excluded),
  };
}

/** Workspace filters have no case setting of their own; their terms match in any case. */
export function compileWorkspaceFilters(filters: WorkspaceFilters): CompiledWorkspaceFilters {
  return {
    excluded: compilePatterns(filters.excludedTerms, false, excludedTermPattern),
    excludedAuthors: new Set(filters.excludedAuthors),
    githubRepositories: lowerSet(filters.githubRepositories),
    subredditsAllowed: lowerSet(filters.subreddits.allowed),
    subredditsDenied: lowerSet(filters.subreddits.denied),
  };
}

const GITHUB_REPOSITORY_URL = /^https?:\/\/(?:www\.)?github\.com\/([^/?#]+)\/([^/?#]+)/iu;

/** `owner/repo` (lower case) a GitHub item belongs to: a repository item, or an issue or discussion by its address. */
export function githubRepositoryOf(post: MatchablePost): string | null {
  if (post.platform !== 'github') return null;
  if (post.repository) return post.repository.fullName.toLowerCase();
  const address = GITHUB_REPOSITORY_URL.exec(post.url);
  return address ? `${address[1]}/${address[2].replace(/\.git$/iu, '')}`.toLowerCase() : null;
}

/** Whether any of `patterns` (excluded terms) occurs in the post; keyword suggestions share this reading. */
export function containsExcludedTerm(post: PreparedPost, patterns: readonly TermPattern[]): boolean {
  for (const pattern of patterns) if (post.contains(pattern)) return true;
  return false;
}

export function authorIsExcluded(post: PreparedPost, excludedAuthors: ReadonlySet<string>): boolean {
  if (excludedAuthors.size === 0) return false;
  for (const identity of post.authorIdentities()) if (excludedAuthors.has(identity)) return true;
  return false;
}

function requiredTermsPresent(keyword: CompiledKeywordRules, post: PreparedPost): boolean {
  if (keyword.required.length === 0) return true;
  if (keyword.rules.requiredMode === 'all') return keyword.required.every((pattern) => post.contains(pattern));
  return keyword.required.some((pattern) => post.contains(pattern));
}

/**
 * Every rule of one keyword except the term itself (spec 2.1.3), cheapest
 * first. A post that fails is rejected for this keyword: never stored,
 * classified, delivered or billed (spec 1.5).
 */
export function keywordRulesPass(keyword: CompiledKeywordRules, post: PreparedPost): boolean {
  const { platform, subreddit, repositoryEvent } = post.post;
  if (keyword.platforms !== null && searchPlatformSet.has(platform) && !keyword.platforms.has(platform)) return false;
  if (platform === 'reddit') {
    const name = subreddit?.toLowerCase() ?? null;
    // With `only` set, `excluded` is ignored (spec 2.1.3).
    if (keyword.subredditsOnly.size > 0) {
      if (name === null || !keyword.subredditsOnly.has(name)) return false;
    } else if (name !== null && keyword.subredditsExcluded.has(name)) return false;
  }
  if (repositoryEvent && !repositoryEventPasses(keyword.rules.repositories, repositoryEvent)) return false;
  if (!requiredTermsPresent(keyword, post)) return false;
  if (containsExcludedTerm(post, keyword.excluded)) return false;
  return !authorIsExcluded(post, keyword.excludedAuthors);
}

/** The workspace's filters (spec 2.11 item 5); a post must pass them and its keyword's rules alike. */
export function workspaceFiltersPass(filters: CompiledWorkspaceFilters, post: PreparedPost): boolean {
  const { platform, subreddit } = post.post;
  if (platform === 'reddit') {
    const name = subreddit?.toLowerCase() ?? null;
    if (filters.subredditsAllowed.size > 0 && (name === null || !filters.subredditsAllowed.has(name))) return false;
    if (name !== null && filters.subredditsDenied.has(name)) return false;
  }
  if (filters.githubRepositories.size > 0) {
    const repository = githubRepositoryOf(post.post);
    if (repository !== null && filters.githubRepositories.has(repository)) return false;
  }
  if (containsExcludedTerm(post, filters.excluded)) return false;
  return !authorIsExcluded(post, filters.excludedAuthors);
}
