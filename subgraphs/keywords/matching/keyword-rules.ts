import { searchPlatforms, type Platform, type SearchPlatform } from '../../../vocabulary/normalized-post.ts';
import type { MatchablePost, PreparedPost } from './prepared-post.ts';
import { repositoryEventPasses, type RepositoryRules } from './repository-events.ts';
import { compilePatterns, excludedTermPattern, patternList, requiredTermPattern, type PatternList, type PatternPool, type TermPattern } from './term-pattern.ts';

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
  /** When a rename gave it this term: posts published before it are not its (matchingSinceRename). */
  termSince?: Date | null;
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
  /** Which rules have anything to check (RULE_ bits): a keyword is mostly read from this field alone. */
  readonly checks: number;
  /** Bits (platformBit) of the search platforms the keyword takes; read only with RULE_PLATFORMS. */
  readonly platforms: number;
  readonly required: PatternList;
  readonly excluded: PatternList;
  readonly excludedAuthors: ReadonlySet<string>;
  readonly subredditsOnly: ReadonlySet<string>;
  readonly subredditsExcluded: ReadonlySet<string>;
}

export interface CompiledWorkspaceFilters {
  readonly checks: number;
  readonly excluded: PatternList;
  readonly excludedAuthors: ReadonlySet<string>;
  readonly githubRepositories: ReadonlySet<string>;
  readonly subredditsAllowed: ReadonlySet<string>;
  readonly subredditsDenied: ReadonlySet<string>;
}

const lowerSet = (values: readonly string[]) => new Set(values.map((value) => value.toLowerCase()));

/**
 * Bits of `checks`. The engine checks a few keywords per post, each of them
 * cold in the processor's cache: reading one number first spares the sets and
 * lists of every rule a keyword leaves empty.
 */
const RULE_PLATFORMS = 1;
const RULE_SUBREDDITS_ONLY = 2;
const RULE_SUBREDDITS_EXCLUDED = 4;
const RULE_REQUIRED = 8;
const RULE_EXCLUDED = 16;
const RULE_AUTHORS = 32;
const RULE_GITHUB_REPOSITORIES = 64;
const RULE_SUBREDDITS_ALLOWED = 128;
const RULE_SUBREDDITS_DENIED = 256;
/** With RULE_REQUIRED: every required term, not any one of them (`requiredMode`), read without the rules object. */
const RULE_REQUIRED_ALL = 512;

const rule = (bit: number, present: boolean) => (present ? bit : 0);

/** One bit per search platform; 0 for the others (reviews, feeds), which a keyword's platforms never restrict. */
const platformBits: ReadonlyMap<Platform, number> = new Map(searchPlatforms.map((platform, index) => [platform, 1 << index]));
const platformBit = (platform: Platform) => platformBits.get(platform) ?? 0;

/** `pool`: share equal patterns with everything else compiled with it (see PatternPool). */
export function compileKeywordRules(rules: KeywordMatchRules, pool?: PatternPool): CompiledKeywordRules {
  const required = patternList(compilePatterns(rules.requiredTerms, rules.caseSensitive, requiredTermPattern, pool));
  const excluded = patternList(compilePatterns(rules.excludedTerms, rules.caseSensitive, excludedTermPattern, pool));
  const excludedAuthors = new Set(rules.excludedAuthors);
  const subredditsOnly = lowerSet(rules.subreddits.only);
  const subredditsExcluded = lowerSet(rules.subreddits.excluded);
  return {
    rules,
    checks:
      rule(RULE_PLATFORMS, rules.platforms !== null) |
      rule(RULE_SUBREDDITS_ONLY, subredditsOnly.size > 0) |
      rule(RULE_SUBREDDITS_EXCLUDED, subredditsExcluded.size > 0) |
      rule(RULE_REQUIRED, required.patterns.length > 0) |
      rule(RULE_REQUIRED_ALL, rules.requiredMode === 'all') |
      rule(RULE_EXCLUDED, excluded.patterns.length > 0) |
      rule(RULE_AUTHORS, excludedAuthors.size > 0),
    platforms: (rules.platforms ?? []).reduce((bits, platform) => bits | platformBit(platform), 0),
    required,
    excluded,
    excludedAuthors,
    subredditsOnly,
    subredditsExcluded,
  };
}

/** Workspace filters have no case setting of their own; their terms match in any case. */
export function compileWorkspaceFilters(filters: WorkspaceFilters, pool?: PatternPool): CompiledWorkspaceFilters {
  const excluded = patternList(compilePatterns(filters.excludedTerms, false, excludedTermPattern, pool));
  const excludedAuthors = new Set(filters.excludedAuthors);
  const githubRepositories = lowerSet(filters.githubRepositories);
  const subredditsAllowed = lowerSet(filters.subreddits.allowed);
  const subredditsDenied = lowerSet(filters.subreddits.denied);
  return {
    checks:
      rule(RULE_EXCLUDED, excluded.patterns.length > 0) |
      rule(RULE_AUTHORS, excludedAuthors.size > 0) |
      rule(RULE_GITHUB_REPOSITORIES, githubRepositories.size > 0) |
      rule(RULE_SUBREDDITS_ALLOWED, subredditsAllowed.size > 0) |
      rule(RULE_SUBREDDITS_DENIED, subredditsDenied.size > 0),
    excluded,
    excludedAuthors,
    githubRepositories,
    subredditsAllowed,
    subredditsDenied,
  };
}

/** Whether the post holds the i-th pattern of `list`, its gate read first. */
function holdsPattern(post: PreparedPost, list: PatternList, index: number): boolean {
  return (index >= list.gates.length || post.mayHoldWord(list.gates[index])) && post.contains(list.patterns[index]);
}

function holdsAny(post: PreparedPost, list: PatternList): boolean {
  for (let index = 0; index < list.patterns.length; index++) if (holdsPattern(post, list, index)) return true;
  return false;
}

function holdsAll(post: PreparedPost, list: PatternList): boolean {
  for (let index = 0; index < list.patterns.length; index++) if (!holdsPattern(post, list, index)) return false;
  return true;
}

/** Whether any of `patterns` (excluded terms) occurs in the post; keyword suggestions share this reading. */
export function containsExcludedTerm(post: PreparedPost, patterns: readonly TermPattern[]): boolean {
  return holdsAny(post, patternList(patterns));
}

/**
 * The post's excludable identities are read first: for most posts there are
 * none, and the rule's set, cold in the processor's cache, is not read at all.
 */
export function authorIsExcluded(post: PreparedPost, excludedAuthors: ReadonlySet<string>): boolean {
  const identities = post.excludableIdentities();
  for (let index = 0; index < identities.length; index++) if (excludedAuthors.has(identities[index])) return true;
  return false;
}

function requiredTermsPresent(keyword: CompiledKeywordRules, post: PreparedPost): boolean {
  return keyword.checks & RULE_REQUIRED_ALL ? holdsAll(post, keyword.required) : holdsAny(post, keyword.required);
}

/**
 * Every rule of one keyword except the term itself (spec 2.1.3), cheapest
 * first. A post that fails is rejected for this keyword: never stored,
 * classified, delivered or billed (spec 1.5).
 */
export function keywordRulesPass(keyword: CompiledKeywordRules, post: PreparedPost): boolean {
  const { checks } = keyword;
  const { platform, repositoryEvent } = post.post;
  if (checks & RULE_PLATFORMS) {
    const bit = platformBit(platform);
    if (bit !== 0 && (keyword.platforms & bit) === 0) return false;
  }
  if (platform === 'reddit' && checks & (RULE_SUBREDDITS_ONLY | RULE_SUBREDDITS_EXCLUDED)) {
    const name = post.subredditName;
    // With `only` set, `excluded` is ignored (spec 2.1.3).
    if (checks & RULE_SUBREDDITS_ONLY) {
      if (name === null || !keyword.subredditsOnly.has(name)) return false;
    } else if (name !== null && keyword.subredditsExcluded.has(name)) return false;
  }
  if (repositoryEvent && !repositoryEventPasses(keyword.rules.repositories, repositoryEvent)) return false;
  if (checks & RULE_REQUIRED && !requiredTermsPresent(keyword, post)) return false;
  if (checks & RULE_EXCLUDED && holdsAny(post, keyword.excluded)) return false;
  return (checks & RULE_AUTHORS) === 0 || !authorIsExcluded(post, keyword.excludedAuthors);
}

/** The workspace's filters (spec 2.11 item 5); a post must pass them and its keyword's rules alike. */
export function workspaceFiltersPass(filters: CompiledWorkspaceFilters, post: PreparedPost): boolean {
  const { checks } = filters;
  if (post.post.platform === 'reddit' && checks & (RULE_SUBREDDITS_ALLOWED | RULE_SUBREDDITS_DENIED)) {
    const name = post.subredditName;
    if (checks & RULE_SUBREDDITS_ALLOWED && (name === null || !filters.subredditsAllowed.has(name))) return false;
    if (name !== null && checks & RULE_SUBREDDITS_DENIED && filters.subredditsDenied.has(name)) return false;
  }
  if (checks & RULE_GITHUB_REPOSITORIES) {
    const repository = post.githubRepository;
    if (repository !== null && filters.githubRepositories.has(repository)) return false;
  }
  if (checks & RULE_EXCLUDED && holdsAny(post, filters.excluded)) return false;
  return (checks & RULE_AUTHORS) === 0 || !authorIsExcluded(post, filters.excludedAuthors);
}
