import {
  compileKeywordRules,
  compileWorkspaceFilters,
  keywordRulesPass,
  workspaceFiltersPass,
  type CompiledKeywordRules,
  type CompiledWorkspaceFilters,
  type KeywordMatchRules,
  type WorkspaceFilters,
} from './keyword-rules.ts';
import { PreparedPost, type MatchablePost } from './prepared-post.ts';
import { EXACT_OCCURRENCE, NO_OCCURRENCE, TermIndex, type IndexedTerm } from './term-index.ts';
import { normalizeTermText } from './term-syntax.ts';

export interface KeywordMatch {
  keywordId: string;
  workspaceId: string;
  /**
   * Matched only by the term's words close together, not the phrase itself:
   * kept and billed only when the classifier scores it relevant (spec 2.1.3).
   */
  fuzzy: boolean;
}

export interface Matcher {
  /** The keywords that take this post; a post no keyword takes is rejected (spec 1.5). */
  match(post: MatchablePost): KeywordMatch[];
  /** Adds a keyword, or replaces its rules when it is already known. */
  upsertKeyword(rules: KeywordMatchRules): void;
  removeKeyword(keywordId: string): void;
  /** Null removes the workspace's filters. */
  setWorkspaceFilters(workspaceId: string, filters: WorkspaceFilters | null): void;
  readonly keywordCount: number;
}

interface Registered {
  compiled: CompiledKeywordRules;
  /** Null when the term holds nothing to look for (only whitespace). */
  term: IndexedTerm | null;
}

/**
 * Removed terms leave their nodes in the trie; past this share of dead
 * patterns the index is rebuilt from the live keywords' terms (their rules
 * stay compiled), so memory follows the live keywords under any churn.
 */
const REBUILD_AT_WASTED_SHARE = 0.5;

class KeywordMatcher implements Matcher {
  private index = new TermIndex();
  private readonly keywords = new Map<string, Registered>();
  private readonly filters = new Map<string, CompiledWorkspaceFilters>();

  get keywordCount(): number {
    return this.keywords.size;
  }

  match(post: MatchablePost): KeywordMatch[] {
    const prepared = new PreparedPost(post);
    const candidates = this.index.scan(prepared);
    prepared.useScan(this.index.scanned);
    const matches: KeywordMatch[] = [];
    let workspaceVerdicts: Map<string, boolean> | null = null;
    for (const term of candidates) {
      const occurrence = this.index.occurrence(term, prepared);
      if (occurrence === NO_OCCURRENCE) continue;
      workspaceVerdicts ??= new Map();
      for (const keyword of term.keywords.values()) {
        const { keywordId, workspaceId } = keyword.rules;
        if (!keywordRulesPass(keyword, prepared)) continue;
        let workspacePasses = workspaceVerdicts.get(workspaceId);
        if (workspacePasses === undefined) {
          const filters = this.filters.get(workspaceId);
          workspacePasses = filters === undefined || workspaceFiltersPass(filters, prepared);
          workspaceVerdicts.set(workspaceId, workspacePasses);
        }
        if (workspacePasses) matches.push({ keywordId, workspaceId, fuzzy: occurrence !== EXACT_OCCURRENCE });
      }
    }
    return matches;
  }

  upsertKeyword(rules: KeywordMatchRules) {
    const compiled = compileKeywordRules(rules);
    const term = normalizeTermText(rules.term) ? this.index.acquire(rules.term, rules.caseSensitive, rules.exactPhrase) : null;
    term?.keywords.set(rules.keywordId, compiled);
    const previous = this.keywords.get(rules.keywordId);
    this.keywords.set(rules.keywordId, { compiled, term });
    // Last, because letting go of a term may rebuild the index from the registrations.
    if (previous?.term && previous.term !== term) this.detach(rules.keywordId, previous.term);
  }

  removeKeyword(keywordId: string) {
    const registered = this.keywords.get(keywordId);
    if (!registered) return;
    this.keywords.delete(keywordId);
    if (registered.term) this.detach(keywordId, registered.term);
  }

  setWorkspaceFilters(workspaceId: string, filters: WorkspaceFilters | null) {
    if (filters === null) this.filters.delete(workspaceId);
    else this.filters.set(workspaceId, compileWorkspaceFilters(filters));
  }

  private detach(keywordId: string, term: IndexedTerm) {
    term.keywords.delete(keywordId);
    if (term.keywords.size > 0) return;
    this.index.release(term);
    if (this.index.wastedShare > REBUILD_AT_WASTED_SHARE) this.rebuild();
  }

  private rebuild() {
    this.index = new TermIndex();
    for (const [keywordId, registered] of this.keywords) {
      if (!registered.term) continue;
      const { rules } = registered.compiled;
      registered.term = this.index.acquire(rules.term, rules.caseSensitive, rules.exactPhrase);
      registered.term.keywords.set(keywordId, registered.compiled);
    }
  }
}

/**
 * The matching engine (spec 1.5, 2.1.3, 2.11 item 5): every active keyword
 * and the filters of their workspaces, ready to take a stream of posts.
 * Keywords and filters change in place; nothing is rebuilt per change.
 */
export function createMatcher(keywords: Iterable<KeywordMatchRules>, filters: ReadonlyMap<string, WorkspaceFilters>): Matcher {
  const matcher = new KeywordMatcher();
  for (const rules of keywords) matcher.upsertKeyword(rules);
  for (const [workspaceId, workspaceFilters] of filters) matcher.setWorkspaceFilters(workspaceId, workspaceFilters);
  return matcher;
}
