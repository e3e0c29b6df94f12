import { type SearchPlatform, searchPlatforms } from '../../vocabulary/normalized-post.ts';
import { stopWords } from '../../vocabulary/stop-words.ts';
import { centsOf, chargedItemFifteenths } from '../billing/index.ts';
import { canonicalAuthor } from './matching/author-identity.ts';
import {
  authorIsExcluded,
  compileKeywordRules,
  containsExcludedTerm,
  type KeywordMatchRules,
  keywordRulesPass,
} from './matching/keyword-rules.ts';
import { type MatchablePost, PreparedPost } from './matching/prepared-post.ts';
import { excludedTermPattern, patternOccursIn } from './matching/term-pattern.ts';
import { normalizeTermText } from './matching/term-syntax.ts';
import { classAt, foldCase, SEPARATOR, TRAIL, WORD_CHAR } from './matching/unicode-words.ts';

export type SuggestionType = 'excluded_terms' | 'excluded_authors' | 'required_terms' | 'platforms' | 'context';

export interface SuggestionEffect {
  noiseRemoved: number;
  relevantRemoved: number;
  centsSaved: number;
  sample: { noiseRemoved: number; noise: number; relevantRemoved: number; relevant: number };
  exact: boolean;
}

/** A keyword suggestion (spec 2.6). */
export interface KeywordSuggestion {
  type: SuggestionType;
  values: string[];
  why: string;
  /** A keyword PATCH body to send as is: each list in it is the whole new list. */
  patch: Record<string, unknown>;
  effect: SuggestionEffect | null;
  source: 'rules' | 'ai';
}

export interface ScoredMatch {
  relevant: boolean;
  post: MatchablePost;
}

/** What the suggestions are measured on: the newest scored matches of the window, and the window's own counts. */
export interface SuggestionSample {
  matches: readonly ScoredMatch[];
  window: { days: number; relevant: number; noise: number };
}

/** A suggestion must remove at least this much noise, and relevant matches at most a tenth of what it removes. */
const minNoiseRemoved = 3;
const maxRelevantShare = 0.1;
const maxSuggestions = 10;
/** Bounds the exact measuring: candidate terms are counted cheaply first, and only the most frequent are measured. */
const maxMeasuredTerms = 200;
const minTermLength = 3;
/** Spec 8: list limits a patch must stay within. */
const maxExcludedTerms = 50;
const maxExcludedAuthors = 100;
const maxTermLength = 80;

interface Candidate {
  type: SuggestionType;
  value: string;
  patch: Record<string, unknown>;
  /** Indexes into the kept matches that the patch would drop. */
  removed: Set<number>;
  /** A term holding a word of the keyword or its required terms: on a tie, one without is clearer. */
  overlapsKeyword: boolean;
  noiseRemoved: number;
  relevantRemoved: number;
}

interface KeptMatch {
  relevant: boolean;
  post: PreparedPost;
}

/** The words of a text (runs of word characters, as WordSet reads them) and the pairs of them split by whitespace only. */
function termsOf(text: string): Set<string> {
  const terms = new Set<string>();
  let runStart = -1;
  // The word before, while only whitespace has followed it.
  let previous: string | null = null;
  const endRun = (end: number) => {
    const word = text.slice(runStart, end);
    terms.add(word);
    if (previous !== null) terms.add(`${previous} ${word}`);
    previous = word;
    runStart = -1;
  };
  for (let index = 0; index < text.length; index++) {
    const charClass = classAt(text, index);
    if (charClass === WORD_CHAR || (charClass === TRAIL && runStart >= 0)) {
      if (runStart < 0) runStart = index;
      continue;
    }
    if (runStart >= 0) endRun(index);
    if (charClass !== SEPARATOR) previous = null;
  }
  if (runStart >= 0) endRun(text.length);
  return terms;
}

const isTopicWord = (word: string) => word.length >= minTermLength && /\p{L}/u.test(word) && !stopWords.has(word.toLowerCase());
const isCandidateTerm = (term: string) => term.length <= maxTermLength && term.split(' ').every(isTopicWord);

/**
 * The identity an excluded-author entry names this post's author by: the
 * platform account (handle first, as authorIdentities lists it), kept only
 * when it is its own canonical form, so the PATCH stores it unchanged.
 */
function authorEntryOf(post: PreparedPost): string | null {
  const identities = [...post.authorIdentities()];
  const entry = identities.find((identity) => identity.startsWith(`${post.post.platform}:`)) ?? identities[0];
  return entry !== undefined && canonicalAuthor(entry) === entry ? entry : null;
}

function measure(kept: readonly KeptMatch[], removes: (post: PreparedPost) => boolean) {
  const removed = new Set<number>();
  let noiseRemoved = 0;
  let relevantRemoved = 0;
  kept.forEach((match, index) => {
    if (!removes(match.post)) return;
    removed.add(index);
    if (match.relevant) relevantRemoved++;
    else noiseRemoved++;
  });
  return { removed, noiseRemoved, relevantRemoved };
}

function countInNoise(kept: readonly KeptMatch[], valuesOf: (match: KeptMatch) => Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const match of kept) {
    if (match.relevant) continue;
    for (const value of valuesOf(match)) counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  return counts;
}

const frequent = (counts: Map<string, number>, limit: number) =>
  [...counts].filter(([, count]) => count >= minNoiseRemoved).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, limit).map(([value]) => value);

function termCandidates(rules: KeywordMatchRules, kept: readonly KeptMatch[]): Candidate[] {
  if (rules.excludedTerms.length >= maxExcludedTerms) return [];
  // A term that the keyword or a required term contains would drop every match: never offered.
  const fold = (text: string) => (rules.caseSensitive ? text : foldCase(text));
  const protectedTexts = [rules.term, ...rules.requiredTerms].map((text) => fold(normalizeTermText(text)));
  const protectedWords = new Set(protectedTexts.flatMap((text) => [...termsOf(text)]));
  const counts = countInNoise(kept, (match) => termsOf(rules.caseSensitive ? match.post.text : match.post.folded));
  const already = new Set(rules.excludedTerms.map(fold));
  const candidates: Candidate[] = [];
  for (const term of frequent(new Map([...counts].filter(([value]) => isCandidateTerm(value) && !already.has(value))), maxMeasuredTerms)) {
    const pattern = excludedTermPattern(term, rules.caseSensitive);
    if (!pattern || protectedTexts.some((text) => patternOccursIn(text, pattern))) continue;
    candidates.push({
      type: 'excluded_terms',
      value: term,
      patch: { matching: { excludedTerms: [...rules.excludedTerms, term] } },
      overlapsKeyword: term.split(' ').some((word) => protectedWords.has(word)),
      ...measure(kept, (post) => containsExcludedTerm(post, [pattern])),
    });
  }
  return candidates;
}

function authorCandidates(rules: KeywordMatchRules, kept: readonly KeptMatch[]): Candidate[] {
  if (rules.excludedAuthors.length >= maxExcludedAuthors) return [];
  const counts = countInNoise(kept, (match) => {
    const entry = authorEntryOf(match.post);
    return entry === null ? [] : [entry];
  });
  return frequent(counts, counts.size).map((entry) => {
    const excluded = new Set([entry]);
    return {
      type: 'excluded_authors',
      value: entry,
      patch: { matching: { excludedAuthors: [...rules.excludedAuthors, entry] } },
      overlapsKeyword: false,
      ...measure(kept, (post) => authorIsExcluded(post, excluded)),
    };
  });
}

/** Search platforms whose kept matches were all noise; null platforms (every one) is written out as the list minus it. */
function platformCandidates(rules: KeywordMatchRules, kept: readonly KeptMatch[]): Candidate[] {
  const current: readonly SearchPlatform[] = rules.platforms ?? searchPlatforms;
  const relevantOn = new Set(kept.filter((match) => match.relevant).map((match) => match.post.post.platform));
  const counts = countInNoise(kept, (match) => [match.post.post.platform]);
  return current
    .filter((platform) => (counts.get(platform) ?? 0) >= minNoiseRemoved && !relevantOn.has(platform))
    .map((platform) => {
      const platforms = current.filter((other) => other !== platform);
      const patched = compileKeywordRules({ ...rules, platforms });
      return {
        type: 'platforms',
        value: platform,
        patch: { platforms },
        overlapsKeyword: false,
        ...measure(kept, (post) => !keywordRulesPass(patched, post)),
      };
    });
}

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

function explain(candidate: Candidate, effect: SuggestionEffect, days: number): string {
  const removed = effect.noiseRemoved + effect.relevantRemoved;
  const split = effect.relevantRemoved === 0 ? 'all noise' : `${effect.noiseRemoved} noise, ${effect.relevantRemoved} relevant`;
  const saving = `about ${dollars(effect.centsSaved)} of noise saved`;
  const scope = `${removed} scored match(es) of the last ${days} days${effect.exact ? '' : ' (estimated from the newest)'}`;
  switch (candidate.type) {
    case 'excluded_terms':
      return `Excluding "${candidate.value}" would have dropped ${scope}: ${split}; ${saving}.`;
    case 'excluded_authors':
      return `Excluding the author ${candidate.value} would have dropped ${scope}: ${split}; ${saving}.`;
    default:
      return `Every scored match from ${candidate.value} was noise: dropping the platform would have removed ${scope}; ${saving}.`;
  }
}

/** On equal effect the narrower change comes first: a term, then an author, then a whole platform. */
const typeOrder: SuggestionType[] = ['excluded_terms', 'excluded_authors', 'platforms'];

const rank = (a: Candidate, b: Candidate) =>
  b.noiseRemoved - a.noiseRemoved ||
  a.relevantRemoved - b.relevantRemoved ||
  typeOrder.indexOf(a.type) - typeOrder.indexOf(b.type) ||
  Number(a.overlapsKeyword) - Number(b.overlapsKeyword) ||
  a.value.split(' ').length - b.value.split(' ').length ||
  a.value.localeCompare(b.value);

const isSubset = (inner: ReadonlySet<number>, outer: ReadonlySet<number>) => [...inner].every((index) => outer.has(index));

/**
 * Rule suggestions (spec 2.6, source `rules`) measured on a keyword's own
 * scored matches: excluded terms and authors that remove mostly noise, and
 * platforms that bring only noise. Only the matches the keyword's current
 * rules still keep are measured, with the matcher's own checks
 * (containsExcludedTerm, authorIsExcluded, keywordRulesPass), so a patch
 * applied as is drops exactly the matches its effect counts. A candidate
 * that drops nothing beyond a better one of its type is left out.
 */
export function suggestRuleChanges(rules: KeywordMatchRules, sample: SuggestionSample): KeywordSuggestion[] {
  const compiled = compileKeywordRules(rules);
  const kept = sample.matches
    .map((match) => ({ relevant: match.relevant, post: new PreparedPost(match.post) }))
    .filter((match) => keywordRulesPass(compiled, match.post));
  const sampleNoise = kept.filter((match) => !match.relevant).length;
  const sampleRelevant = kept.length - sampleNoise;
  const readNoise = sample.matches.filter((match) => !match.relevant).length;
  const readRelevant = sample.matches.length - readNoise;
  const exact = sample.matches.length >= sample.window.noise + sample.window.relevant;
  const scale = (count: number, read: number, total: number) => (exact || read === 0 ? count : Math.round((count * total) / read));

  const chosen: Candidate[] = [];
  const candidates = [...termCandidates(rules, kept), ...authorCandidates(rules, kept), ...platformCandidates(rules, kept)]
    .filter((candidate) => {
      const removed = candidate.noiseRemoved + candidate.relevantRemoved;
      return candidate.noiseRemoved >= minNoiseRemoved && candidate.relevantRemoved <= removed * maxRelevantShare;
    })
    .sort(rank);
  for (const candidate of candidates) {
    if (chosen.length === maxSuggestions) break;
    if (chosen.some((better) => better.type === candidate.type && isSubset(candidate.removed, better.removed))) continue;
    chosen.push(candidate);
  }

  return chosen.map((candidate) => {
    const noiseRemoved = scale(candidate.noiseRemoved, readNoise, sample.window.noise);
    const effect: SuggestionEffect = {
      noiseRemoved,
      relevantRemoved: scale(candidate.relevantRemoved, readRelevant, sample.window.relevant),
      centsSaved: centsOf(noiseRemoved * chargedItemFifteenths),
      sample: { noiseRemoved: candidate.noiseRemoved, noise: sampleNoise, relevantRemoved: candidate.relevantRemoved, relevant: sampleRelevant },
      exact,
    };
    return { type: candidate.type, values: [candidate.value], why: explain(candidate, effect, sample.window.days), patch: candidate.patch, effect, source: 'rules' };
  });
}
