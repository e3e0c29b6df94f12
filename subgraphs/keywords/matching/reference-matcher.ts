import { fuzzyPhrase, fuzzyWindowFits, type FuzzyPhrase } from './fuzzy-phrase.ts';
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
import type { KeywordMatch } from './matcher.ts';
import { PreparedPost, type MatchablePost } from './prepared-post.ts';
import { findTerm } from './term-pattern.ts';
import { normalizeTermText } from './term-syntax.ts';
import { classAt, classBefore, foldCase, isWordLike, SEPARATOR, startsWord, TRAIL, type CharClass } from './unicode-words.ts';

/**
 * The same matching rules as matcher.ts, read the obvious way: every keyword
 * searched for in every post. It is the oracle the engine is tested against
 * and the baseline the benchmark measures it against, so it shares the rule
 * checks (keyword-rules.ts) but finds terms on its own, with indexOf.
 */

interface ReferenceKeyword {
  compiled: CompiledKeywordRules;
  term: string;
  phrase: FuzzyPhrase | null;
}

/** Offsets where a word starts in `text`, in order. */
function wordStarts(text: string): number[] {
  const starts: number[] = [];
  let previous: CharClass = SEPARATOR;
  for (let index = 0; index < text.length; index++) {
    const current = classAt(text, index);
    if (current === TRAIL) continue;
    if (startsWord(previous, current)) starts.push(index);
    previous = current;
  }
  return starts;
}

/** Index of the word at `offset`, or of the next word when `offset` is not inside one. */
function wordIndexAt(starts: readonly number[], text: string, offset: number): number {
  let low = 0;
  let high = starts.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (starts[middle] <= offset) low = middle + 1;
    else high = middle;
  }
  return isWordLike(classAt(text, offset)) ? low - 1 : low;
}

function occurs(text: string, needle: string): boolean {
  return findTerm(text, needle, 0, classAt(needle, 0), classBefore(needle, needle.length)) >= 0;
}

/** `starts`: wordStarts of the post's searchable text, which has the same offsets in either case mode. */
function fuzzyOccurs(post: PreparedPost, starts: () => readonly number[], phrase: FuzzyPhrase, caseSensitive: boolean): boolean {
  const text = post.searchableText(caseSensitive);
  const words: number[] = [];
  const covers: number[] = [];
  for (const form of phrase.forms) {
    const needle = form.caseText ?? form.text;
    const [edgeBefore, edgeAfter] = [classAt(needle, 0), classBefore(needle, needle.length)];
    for (let at = findTerm(text, needle, 0, edgeBefore, edgeAfter); at >= 0; at = findTerm(text, needle, at + 1, edgeBefore, edgeAfter)) {
      words.push(wordIndexAt(starts(), text, at));
      covers.push(form.covers);
    }
  }
  return fuzzyWindowFits(words, covers, phrase.unitCount);
}

export interface ReferenceMatcher {
  match(post: MatchablePost): KeywordMatch[];
}

export function createReferenceMatcher(keywords: Iterable<KeywordMatchRules>, filters: ReadonlyMap<string, WorkspaceFilters>): ReferenceMatcher {
  const compiledKeywords: ReferenceKeyword[] = [];
  for (const rules of keywords) {
    const term = normalizeTermText(rules.term);
    compiledKeywords.push({
      compiled: compileKeywordRules(rules),
      term: rules.caseSensitive ? term : foldCase(term),
      phrase: rules.exactPhrase ? null : fuzzyPhrase(term, rules.caseSensitive),
    });
  }
  const compiledFilters = new Map<string, CompiledWorkspaceFilters>();
  for (const [workspaceId, workspaceFilters] of filters) compiledFilters.set(workspaceId, compileWorkspaceFilters(workspaceFilters));

  return {
    match(post) {
      const prepared = new PreparedPost(post);
      let starts: number[] | null = null;
      const postWordStarts = () => (starts ??= wordStarts(prepared.searchableText(false)));
      const matches: KeywordMatch[] = [];
      for (const { compiled, term, phrase } of compiledKeywords) {
        const { caseSensitive, keywordId, workspaceId } = compiled.rules;
        if (!term) continue;
        const exact = occurs(prepared.searchableText(caseSensitive), term);
        if (!exact && !(phrase && fuzzyOccurs(prepared, postWordStarts, phrase, caseSensitive))) continue;
        if (!keywordRulesPass(compiled, prepared)) continue;
        const filters = compiledFilters.get(workspaceId);
        if (filters && !workspaceFiltersPass(filters, prepared)) continue;
        matches.push({ keywordId, workspaceId, fuzzy: !exact });
      }
      return matches;
    },
  };
}
