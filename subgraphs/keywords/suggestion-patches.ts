import { type SearchPlatform, searchPlatforms } from '../../vocabulary/normalized-post.ts';
import { canonicalAuthor } from './matching/author-identity.ts';
import type { KeywordMatchRules } from './matching/keyword-rules.ts';
import { excludedTermPattern, patternOccursIn } from './matching/term-pattern.ts';
import { normalizeTermText } from './matching/term-syntax.ts';
import { foldCase } from './matching/unicode-words.ts';

/**
 * The keyword PATCH bodies suggestions carry (spec 2.6): each list in one is
 * the whole new list, current entries kept, within the limits of spec 8, so
 * it can be sent as is. Rule and language-model suggestions alike are
 * written here; a builder answers null when its values would change nothing
 * or break a rule.
 */
export interface SuggestionPatch {
  matching?: { requiredTerms?: string[]; requiredMode?: 'any'; excludedTerms?: string[]; excludedAuthors?: string[] };
  platforms?: SearchPlatform[];
  context?: string;
}

/** Spec 8. */
const maxListedTerms = 50;
const maxExcludedAuthors = 100;
export const maxTermLength = 80;
export const maxContextLength = 300;

const folderFor = (rules: KeywordMatchRules) => (text: string) => (rules.caseSensitive ? text : foldCase(text));

/** The keyword and its required terms as the matcher reads them: what no excluded term may occur in. */
export function protectedTexts(rules: KeywordMatchRules): string[] {
  const fold = folderFor(rules);
  return [rules.term, ...rules.requiredTerms].map((text) => fold(normalizeTermText(text)));
}

/** A term that the keyword or a required term contains would drop every match. */
export function excludesKeyword(rules: KeywordMatchRules, term: string): boolean {
  const pattern = excludedTermPattern(term, rules.caseSensitive);
  return !pattern || protectedTexts(rules).some((text) => patternOccursIn(text, pattern));
}

/** `terms` added to the current list, as the keyword reads case; null past the limits or with nothing new. */
function extendedTermList(rules: KeywordMatchRules, current: readonly string[], terms: readonly string[]): string[] | null {
  const fold = folderFor(rules);
  const seen = new Set(current.map((term) => fold(normalizeTermText(term))));
  const added: string[] = [];
  for (const raw of terms) {
    const term = raw.trim();
    const key = fold(normalizeTermText(term));
    if (term.length < 1 || term.length > maxTermLength || !key || seen.has(key)) continue;
    seen.add(key);
    added.push(term);
  }
  if (added.length === 0 || current.length + added.length > maxListedTerms) return null;
  return [...current, ...added];
}

export function excludedTermsPatch(rules: KeywordMatchRules, terms: readonly string[]): SuggestionPatch | null {
  if (terms.some((term) => excludesKeyword(rules, term))) return null;
  const excludedTerms = extendedTermList(rules, rules.excludedTerms, terms);
  return excludedTerms && { matching: { excludedTerms } };
}

/** Entries in any form the PATCH takes (links, @handles, u/names, DIDs), stored canonical as the PATCH would store them. */
export function excludedAuthorsPatch(rules: KeywordMatchRules, entries: readonly string[]): SuggestionPatch | null {
  const excludedAuthors = [...rules.excludedAuthors];
  for (const entry of entries) {
    const canonical = canonicalAuthor(entry.trim());
    if (canonical === null) return null;
    if (!excludedAuthors.includes(canonical)) excludedAuthors.push(canonical);
  }
  if (excludedAuthors.length === rules.excludedAuthors.length || excludedAuthors.length > maxExcludedAuthors) return null;
  return { matching: { excludedAuthors } };
}

/**
 * Requiring terms narrows a keyword only when none are required yet (the
 * new ones then go in `any` mode: a post needs one of them) or when every
 * required term must appear (each new one must appear too). In `any` mode
 * with terms already required, another term would widen it: null.
 */
export function requiredTermsPatch(rules: KeywordMatchRules, terms: readonly string[]): SuggestionPatch | null {
  if (rules.requiredTerms.length > 0 && rules.requiredMode === 'any') return null;
  const requiredTerms = extendedTermList(rules, rules.requiredTerms, terms);
  if (!requiredTerms) return null;
  const switchToAny = rules.requiredTerms.length === 0 && requiredTerms.length > 1 && rules.requiredMode !== 'any';
  return { matching: { requiredTerms, ...(switchToAny ? { requiredMode: 'any' as const } : {}) } };
}

/** Drops platforms from the list; null (every platform) is written out as the whole list minus them. */
export function platformsPatch(rules: KeywordMatchRules, dropped: readonly string[]): SuggestionPatch | null {
  const current: readonly SearchPlatform[] = rules.platforms ?? searchPlatforms;
  if (dropped.length === 0 || !dropped.every((platform) => current.includes(platform as SearchPlatform))) return null;
  return { platforms: current.filter((platform) => !dropped.includes(platform)) };
}

export function contextPatch(current: string | null, context: string): SuggestionPatch | null {
  const written = context.trim();
  if (written === '' || written.length > maxContextLength || written === current) return null;
  return { context: written };
}

/** The rules the keyword would match with once the patch is applied: what a suggestion's effect is measured with. */
export function patchedRules(rules: KeywordMatchRules, patch: SuggestionPatch): KeywordMatchRules {
  return {
    ...rules,
    platforms: patch.platforms ?? rules.platforms,
    requiredTerms: patch.matching?.requiredTerms ?? rules.requiredTerms,
    requiredMode: patch.matching?.requiredMode ?? rules.requiredMode,
    excludedTerms: patch.matching?.excludedTerms ?? rules.excludedTerms,
    excludedAuthors: patch.matching?.excludedAuthors ?? rules.excludedAuthors,
  };
}
