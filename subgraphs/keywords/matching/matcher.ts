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
import { PatternPool } from './term-pattern.ts';
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

/**
 * A workspace as the engine reads it while matching: its filters, and its
 * verdict on the post being matched, so that its keywords share one check
 * and none of them looks the workspace up by id.
 */
interface WorkspaceEntry {
  filters: CompiledWorkspaceFilters | null;
  /** Number of the match() call whose post `passes` answers for. */
  verdictFor: number;
  passes: boolean;
  /** Keywords registered in the workspace: the entry goes with the last of them and its filters. */
  keywords: number;
}

interface Registered {
  readonly keywordId: string;
  readonly workspaceId: string;
  readonly compiled: CompiledKeywordRules;
  readonly workspace: WorkspaceEntry;
  /** Null when the term holds nothing to look for (only whitespace). */
  term: IndexedTerm<Registered> | null;
  /** Where the keyword stands in its term's `keywords`. */
  slot: number;
}

/**
 * Removed terms leave their nodes in the trie; past this share of dead
 * patterns the index is rebuilt from the live keywords' terms (their rules
 * stay compiled), so memory follows the live keywords under any churn.
 */
const REBUILD_AT_WASTED_SHARE = 0.5;

class KeywordMatcher implements Matcher {
  private index = new TermIndex<Registered>();
  private readonly keywords = new Map<string, Registered>();
  private readonly workspaces = new Map<string, WorkspaceEntry>();
  /** Holds every distinct rule pattern compiled here, including those of keywords since removed: a few bytes each. */
  private readonly patterns = new PatternPool();
  private matchCount = 0;
  /** Every excluded author of the keywords and workspace filters, with how many of them name it. */
  private readonly namedAuthors = new Map<string, number>();

  get keywordCount(): number {
    return this.keywords.size;
  }

  match(post: MatchablePost): KeywordMatch[] {
    const prepared = new PreparedPost(post);
    prepared.useNamedAuthors(this.namedAuthors);
    const candidates = this.index.scan(prepared);
    prepared.useScan(this.index.scanned);
    const matchNumber = ++this.matchCount;
    const matches: KeywordMatch[] = [];
    for (const term of candidates) {
      const occurrence = this.index.occurrence(term, prepared);
      if (occurrence === NO_OCCURRENCE) continue;
      const { keywords } = term;
      for (let index = 0; index < keywords.length; index++) {
        const keyword = keywords[index];
        if (!keywordRulesPass(keyword.compiled, prepared)) continue;
        const { workspace } = keyword;
        if (workspace.verdictFor !== matchNumber) {
          workspace.passes = workspace.filters === null || workspaceFiltersPass(workspace.filters, prepared);
          workspace.verdictFor = matchNumber;
        }
        if (workspace.passes) matches.push({ keywordId: keyword.keywordId, workspaceId: keyword.workspaceId, fuzzy: occurrence !== EXACT_OCCURRENCE });
      }
    }
    return matches;
  }

  upsertKeyword(rules: KeywordMatchRules) {
    const previous = this.keywords.get(rules.keywordId);
    const term = normalizeTermText(rules.term) ? this.index.acquire(rules.term, rules.caseSensitive, rules.exactPhrase) : null;
    const registered: Registered = {
      keywordId: rules.keywordId,
      workspaceId: rules.workspaceId,
      compiled: compileKeywordRules(rules, this.patterns),
      workspace: this.enterWorkspace(rules.workspaceId),
      term,
      slot: -1,
    };
    if (term && previous?.term === term) {
      registered.slot = previous.slot;
      term.keywords[previous.slot] = registered;
    } else if (term) this.attach(registered, term);
    this.keywords.set(rules.keywordId, registered);
    this.countAuthors(registered.compiled.excludedAuthors, 1);
    if (previous) {
      this.countAuthors(previous.compiled.excludedAuthors, -1);
      this.leaveWorkspace(previous.workspaceId);
    }
    // Last, because letting go of a term may rebuild the index from the registrations.
    if (previous?.term && previous.term !== term) this.detach(previous, previous.term);
  }

  removeKeyword(keywordId: string) {
    const registered = this.keywords.get(keywordId);
    if (!registered) return;
    this.keywords.delete(keywordId);
    this.countAuthors(registered.compiled.excludedAuthors, -1);
    this.leaveWorkspace(registered.workspaceId);
    if (registered.term) this.detach(registered, registered.term);
  }

  setWorkspaceFilters(workspaceId: string, filters: WorkspaceFilters | null) {
    const entry = this.workspaces.get(workspaceId);
    const compiled = filters === null ? null : compileWorkspaceFilters(filters, this.patterns);
    if (entry?.filters) this.countAuthors(entry.filters.excludedAuthors, -1);
    if (compiled) this.countAuthors(compiled.excludedAuthors, 1);
    if (entry) {
      entry.filters = compiled;
      entry.verdictFor = 0;
      if (entry.keywords === 0 && compiled === null) this.workspaces.delete(workspaceId);
    } else if (compiled !== null) this.workspaces.set(workspaceId, { filters: compiled, verdictFor: 0, passes: true, keywords: 0 });
  }

  private countAuthors(authors: ReadonlySet<string>, change: 1 | -1) {
    for (const author of authors) {
      const count = (this.namedAuthors.get(author) ?? 0) + change;
      if (count === 0) this.namedAuthors.delete(author);
      else this.namedAuthors.set(author, count);
    }
  }

  private enterWorkspace(workspaceId: string): WorkspaceEntry {
    let entry = this.workspaces.get(workspaceId);
    if (!entry) {
      entry = { filters: null, verdictFor: 0, passes: true, keywords: 0 };
      this.workspaces.set(workspaceId, entry);
    }
    entry.keywords++;
    return entry;
  }

  private leaveWorkspace(workspaceId: string) {
    const entry = this.workspaces.get(workspaceId);
    if (!entry) return;
    entry.keywords--;
    if (entry.keywords === 0 && entry.filters === null) this.workspaces.delete(workspaceId);
  }

  private attach(registered: Registered, term: IndexedTerm<Registered>) {
    registered.slot = term.keywords.length;
    term.keywords.push(registered);
  }

  /** Takes the keyword out of its term's list, the list's last keyword moving into its slot. */
  private detach(registered: Registered, term: IndexedTerm<Registered>) {
    const last = term.keywords.pop()!;
    if (last !== registered) {
      term.keywords[registered.slot] = last;
      last.slot = registered.slot;
    }
    if (term.keywords.length > 0) return;
    this.index.release(term);
    if (this.index.wastedShare > REBUILD_AT_WASTED_SHARE) this.rebuild();
  }

  private rebuild() {
    this.index = new TermIndex<Registered>();
    for (const registered of this.keywords.values()) {
      if (!registered.term) continue;
      const { rules } = registered.compiled;
      registered.term = this.index.acquire(rules.term, rules.caseSensitive, rules.exactPhrase);
      this.attach(registered, registered.term);
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
