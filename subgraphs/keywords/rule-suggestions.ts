import type { KeywordKind } from '../../vocabulary/keyword-kinds.ts';
import { searchPlatforms } from '../../vocabulary/normalized-post.ts';
import { platformName } from '../../vocabulary/platform-names.ts';
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
import { excludedTermPattern, requiredTermPattern } from './matching/term-pattern.ts';
import { classAt, foldCase, SEPARATOR, TRAIL, WORD_CHAR } from './matching/unicode-words.ts';
import {
  contextPatch,
  excludedAuthorsPatch,
  excludedTermsPatch,
  maxContextLength,
  maxTermLength,
  patchedRules,
  platformsPatch,
  protectedTexts,
  requiredTermsPatch,
  type SuggestionPatch,
} from './suggestion-patches.ts';

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
  patch: SuggestionPatch;
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

/** What a suggestion is written about besides the matches: the keyword's kind and context, and the company profile (spec 2.11 item 6). */
export interface SuggestionSubject {
  kind: KeywordKind;
  context: string | null;
  company: { name: string | null; website: string | null };
}

/** A suggestion must remove at least this much noise, and relevant matches at most a tenth of what it removes. */
const minNoiseRemoved = 3;
const maxRelevantShare = 0.1;
const maxSuggestions = 10;
/** Bounds the exact measuring: candidate terms are counted cheaply first, and only the most frequent are measured. */
const maxMeasuredTerms = 200;
const minTermLength = 3;
/** A term marks relevant matches when it is in at least this many of them and under a fifth of the matches holding it are noise. */
const minMarkedMatches = 2;
const maxMarkerNoiseShare = 0.2;
/** Required terms are offered only when the posts holding one of them keep nine in ten relevant matches. */
const requiredCoverage = 0.9;
const maxRequiredValues = 10;
/** A context sentence names at most this many topics on each side. */
const maxContextTopics = 3;

interface Candidate {
  type: SuggestionType;
  values: string[];
  patch: SuggestionPatch;
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

/**
 * The sample as a suggestion is measured on: the matches the keyword's
 * current rules still keep, prepared once, and how counts on them scale to
 * the whole window when only the newest were read.
 */
export interface MeasuredSample {
  rules: KeywordMatchRules;
  kept: readonly KeptMatch[];
  noise: number;
  relevant: number;
  days: number;
  exact: boolean;
  effectOf(removed: { noiseRemoved: number; relevantRemoved: number }): SuggestionEffect;
}

export function measureSample(rules: KeywordMatchRules, sample: SuggestionSample): MeasuredSample {
  const compiled = compileKeywordRules(rules);
  const kept = sample.matches
    .map((match) => ({ relevant: match.relevant, post: new PreparedPost(match.post) }))
    .filter((match) => keywordRulesPass(compiled, match.post));
  const noise = kept.filter((match) => !match.relevant).length;
  const relevant = kept.length - noise;
  const readNoise = sample.matches.filter((match) => !match.relevant).length;
  const readRelevant = sample.matches.length - readNoise;
  const exact = sample.matches.length >= sample.window.noise + sample.window.relevant;
  const scale = (count: number, read: number, total: number) => (exact || read === 0 ? count : Math.round((count * total) / read));
  return {
    rules,
    kept,
    noise,
    relevant,
    days: sample.window.days,
    exact,
    effectOf(removed) {
      const noiseRemoved = scale(removed.noiseRemoved, readNoise, sample.window.noise);
      return {
        noiseRemoved,
        relevantRemoved: scale(removed.relevantRemoved, readRelevant, sample.window.relevant),
        centsSaved: centsOf(noiseRemoved * chargedItemFifteenths),
        sample: { noiseRemoved: removed.noiseRemoved, noise, relevantRemoved: removed.relevantRemoved, relevant },
        exact,
      };
    },
  };
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

/** The words of the keyword and its required terms, as the keyword reads case. */
const keywordWords = (rules: KeywordMatchRules) => new Set(protectedTexts(rules).flatMap((text) => [...termsOf(text)]));

/** The terms of each kept match's text, in the case the keyword reads. */
const matchTerms = (rules: KeywordMatchRules) => (match: KeptMatch) => termsOf(rules.caseSensitive ? match.post.text : match.post.folded);

/**
 * The identity an excluded-author entry names this post's author by: the
 * platform account (handle first, as authorIdentities lists it), kept only
 * when it is its own canonical form, so the PATCH stores it unchanged.
 */
export function authorEntryOf(post: PreparedPost): string | null {
  const identities = post.authorIdentities();
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

/** What applying the patch as is would drop: the kept matches the patched rules reject. */
export function measurePatch(sample: MeasuredSample, patch: SuggestionPatch) {
  const patched = compileKeywordRules(patchedRules(sample.rules, patch));
  return measure(sample.kept, (post) => !keywordRulesPass(patched, post));
}

/** How many kept matches of one side (relevant or noise) hold each value. */
function countIn(kept: readonly KeptMatch[], relevant: boolean, valuesOf: (match: KeptMatch) => Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const match of kept) {
    if (match.relevant !== relevant) continue;
    for (const value of valuesOf(match)) counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  return counts;
}

const frequent = (counts: Map<string, number>, min: number, limit: number) =>
  [...counts].filter(([, count]) => count >= min).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, limit).map(([value]) => value);

function termCandidates(sample: MeasuredSample): Candidate[] {
  const { rules, kept } = sample;
  const fold = (text: string) => (rules.caseSensitive ? text : foldCase(text));
  const protectedWords = keywordWords(rules);
  const already = new Set(rules.excludedTerms.map(fold));
  const counts = countIn(kept, false, matchTerms(rules));
  const candidates: Candidate[] = [];
  for (const term of frequent(new Map([...counts].filter(([value]) => isCandidateTerm(value) && !already.has(value))), minNoiseRemoved, maxMeasuredTerms)) {
    const patch = excludedTermsPatch(rules, [term]);
    const pattern = excludedTermPattern(term, rules.caseSensitive);
    if (!patch || !pattern) continue;
    candidates.push({
      type: 'excluded_terms',
      values: [term],
      patch,
      overlapsKeyword: term.split(' ').some((word) => protectedWords.has(word)),
      ...measure(kept, (post) => containsExcludedTerm(post, [pattern])),
    });
  }
  return candidates;
}

function authorCandidates(sample: MeasuredSample): Candidate[] {
  const counts = countIn(sample.kept, false, (match) => {
    const entry = authorEntryOf(match.post);
    return entry === null ? [] : [entry];
  });
  return frequent(counts, minNoiseRemoved, counts.size).flatMap((entry): Candidate[] => {
    const patch = excludedAuthorsPatch(sample.rules, [entry]);
    if (!patch) return [];
    const excluded = new Set([entry]);
    return [{ type: 'excluded_authors', values: [entry], patch, overlapsKeyword: false, ...measure(sample.kept, (post) => authorIsExcluded(post, excluded)) }];
  });
}

/** Search platforms whose kept matches were all noise. */
function platformCandidates(sample: MeasuredSample): Candidate[] {
  const relevantOn = new Set(sample.kept.filter((match) => match.relevant).map((match) => match.post.post.platform));
  const counts = countIn(sample.kept, false, (match) => [match.post.post.platform]);
  return (sample.rules.platforms ?? searchPlatforms)
    .filter((platform) => (counts.get(platform) ?? 0) >= minNoiseRemoved && !relevantOn.has(platform))
    .flatMap((platform): Candidate[] => {
      const patch = platformsPatch(sample.rules, [platform]);
      return patch ? [{ type: 'platforms', values: [platform], patch, overlapsKeyword: false, ...measurePatch(sample, patch) }] : [];
    });
}

interface Marker {
  term: string;
  /** Indexes of the relevant kept matches holding the term. */
  relevantHits: Set<number>;
  noiseHits: number;
}

/**
 * Terms that co-occur with relevant matches and rarely with noise, read as
 * required terms are (whole words): the most frequent first. A term holding
 * a word of the keyword or its required terms is left out: it requires
 * nothing new, or only a phrase the keyword happens to stand in.
 */
function relevantMarkers(sample: MeasuredSample): Marker[] {
  const { rules, kept } = sample;
  const protectedWords = keywordWords(rules);
  const counts = countIn(kept, true, matchTerms(rules));
  const eligible = new Map([...counts].filter(([term]) => isCandidateTerm(term) && !term.split(' ').some((word) => protectedWords.has(word))));
  const markers: Marker[] = [];
  for (const term of frequent(eligible, minMarkedMatches, maxMeasuredTerms)) {
    const pattern = requiredTermPattern(term, rules.caseSensitive);
    if (!pattern) continue;
    const relevantHits = new Set<number>();
    let noiseHits = 0;
    kept.forEach((match, index) => {
      if (!match.post.contains(pattern)) return;
      if (match.relevant) relevantHits.add(index);
      else noiseHits++;
    });
    if (relevantHits.size >= minMarkedMatches && noiseHits <= (relevantHits.size + noiseHits) * maxMarkerNoiseShare) markers.push({ term, relevantHits, noiseHits });
  }
  return markers;
}

/**
 * With no required terms yet: the fewest markers that together hold nine in
 * ten relevant matches (greedily, the one adding the most relevant matches
 * first), required in `any` mode. With every required term needed (`all`):
 * each marker on its own. In `any` mode with terms required, another term
 * would only widen the keyword: nothing.
 */
function requiredTermCandidates(sample: MeasuredSample, markers: readonly Marker[]): Candidate[] {
  const { rules } = sample;
  const candidateOf = (terms: string[]): Candidate[] => {
    const patch = requiredTermsPatch(rules, terms);
    return patch ? [{ type: 'required_terms', values: terms, patch, overlapsKeyword: false, ...measurePatch(sample, patch) }] : [];
  };
  if (rules.requiredTerms.length > 0) return markers.flatMap((marker) => candidateOf([marker.term]));
  const covered = new Set<number>();
  const chosen: string[] = [];
  const remaining = [...markers];
  while (covered.size < sample.relevant * requiredCoverage && chosen.length < maxRequiredValues) {
    const gain = (marker: Marker) => [...marker.relevantHits].filter((index) => !covered.has(index)).length;
    remaining.sort((a, b) => gain(b) - gain(a) || a.noiseHits - b.noiseHits || a.term.split(' ').length - b.term.split(' ').length || a.term.localeCompare(b.term));
    const best = remaining.shift();
    if (!best || gain(best) === 0) break;
    chosen.push(best.term);
    for (const index of best.relevantHits) covered.add(index);
  }
  return covered.size >= sample.relevant * requiredCoverage && chosen.length > 0 ? candidateOf(chosen) : [];
}

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

const quotedList = (values: readonly string[], joiner: 'or' | 'and') =>
  values.length === 1 ? `"${values[0]}"` : `${values.slice(0, -1).map((value) => `"${value}"`).join(', ')} ${joiner} "${values.at(-1)}"`;

/** What the patch would have done, in words: the measured part of every suggestion's `why`. */
function effectInWords(effect: SuggestionEffect, days: number) {
  const removed = effect.noiseRemoved + effect.relevantRemoved;
  return {
    scope: `${removed} scored ${removed === 1 ? 'match' : 'matches'} of the last ${days} days${effect.exact ? '' : ' (estimated from the newest)'}`,
    split: effect.relevantRemoved === 0 ? 'all noise' : `${effect.noiseRemoved} noise, ${effect.relevantRemoved} relevant`,
    saving: `about ${dollars(effect.centsSaved)} of noise saved`,
  };
}

function explain(candidate: Candidate, effect: SuggestionEffect, days: number): string {
  const { scope, split, saving } = effectInWords(effect, days);
  switch (candidate.type) {
    case 'excluded_terms':
      return `Excluding "${candidate.values[0]}" would have dropped ${scope}: ${split}; ${saving}.`;
    case 'excluded_authors':
      return `Excluding the author ${candidate.values[0]} would have dropped ${scope}: ${split}; ${saving}.`;
    case 'required_terms':
      return `Requiring ${candidate.values.length > 1 ? 'any of ' : ''}${quotedList(candidate.values, 'or')} would have dropped ${scope}: ${split}; ${saving}.`;
    default:
      return `Every scored match from ${platformName(candidate.values[0])} was noise: dropping the platform would have removed ${scope}; ${saving}.`;
  }
}

/** On equal effect the narrower change comes first: a term, then an author, then required terms, then a whole platform. */
const typeOrder: SuggestionType[] = ['excluded_terms', 'excluded_authors', 'required_terms', 'platforms'];

const rank = (a: Candidate, b: Candidate) =>
  b.noiseRemoved - a.noiseRemoved ||
  a.relevantRemoved - b.relevantRemoved ||
  typeOrder.indexOf(a.type) - typeOrder.indexOf(b.type) ||
  Number(a.overlapsKeyword) - Number(b.overlapsKeyword) ||
  a.values.join(' ').split(' ').length - b.values.join(' ').split(' ').length ||
  a.values.join(', ').localeCompare(b.values.join(', '));

const isSubset = (inner: ReadonlySet<number>, outer: ReadonlySet<number>) => [...inner].every((index) => outer.has(index));

/**
 * Up to `count` of `terms` for a context sentence: none sharing a word with
 * one taken before it ("free" and "free trial" say the same), nor, in any
 * case, a word of the other side's terms.
 */
function distinctTopics(terms: readonly string[], otherSide: readonly string[], count: number): string[] {
  const wordsOf = (term: string) => foldCase(term).split(' ');
  const words = new Set(otherSide.flatMap(wordsOf));
  const shared = new Set(terms.flatMap(wordsOf).filter((word) => words.has(word)));
  const taken: string[] = [];
  for (const term of terms) {
    if (taken.length === count) break;
    if (wordsOf(term).some((word) => shared.has(word))) continue;
    taken.push(term);
    for (const word of wordsOf(term)) shared.add(word);
  }
  return taken;
}

/** The company as a reader would name it: its name, with its site's host when there is one. */
function companyName(company: SuggestionSubject['company']): string | null {
  const host = company.website ? new URL(company.website).host.replace(/^www\./u, '') : null;
  if (company.name) return host ? `${company.name} (${host})` : company.name;
  return host;
}

function contextSentence(term: string, subject: SuggestionSubject | undefined, about: string[], notAbout: string[]): string | null {
  const list = (topics: string[]) => (topics.length === 1 ? topics[0] : `${topics.slice(0, -1).join(', ')} or ${topics.at(-1)}`);
  const company = subject ? companyName(subject.company) : null;
  const senses = company
    ? [subject!.kind === 'brand' ? `"${term}" means ${company}` : subject!.kind === 'competitor' ? `"${term}" is a competitor of ${company}` : `"${term}" as a topic for ${company}`]
    : [];
  senses.push(`"${term}"`);
  // Shortened to the limit (spec 8): fewer topics first, then without the company.
  for (const sense of senses) {
    for (let topics = maxContextTopics; topics >= 1; topics--) {
      const sentence = `${sense}: posts about ${list(about.slice(0, topics))}, not about ${list(notAbout.slice(0, topics))}.`;
      if (sentence.length <= maxContextLength) return sentence;
    }
  }
  return null;
}

/**
 * A one-sentence context (spec 2.1 `context`, 2.6 type `context`) written
 * from what sets the keyword's relevant matches apart from its noise: the
 * terms that mark relevant matches, the terms that mark noise (those an
 * excluded-term suggestion would drop), and the company profile. Offered
 * only when both sides have such terms and the sentence is new.
 */
function contextSuggestion(sample: MeasuredSample, markers: readonly Marker[], noiseTerms: readonly Candidate[], subject?: SuggestionSubject): KeywordSuggestion | null {
  const relevantTerms = [...markers].sort((a, b) => b.relevantHits.size - a.relevantHits.size || a.noiseHits - b.noiseHits).map((marker) => marker.term);
  const noisyTerms = noiseTerms.filter((candidate) => !candidate.overlapsKeyword).map((candidate) => candidate.values[0]);
  const about = distinctTopics(relevantTerms, noisyTerms, maxContextTopics);
  const notAbout = distinctTopics(noisyTerms, relevantTerms, maxContextTopics);
  if (about.length === 0 || notAbout.length === 0) return null;
  const sentence = contextSentence(sample.rules.term, subject, about, notAbout);
  const patch = sentence && contextPatch(subject?.context ?? null, sentence);
  if (!sentence || !patch) return null;
  const profile = subject && companyName(subject.company) ? ' and the company profile' : '';
  return {
    type: 'context',
    values: [sentence],
    why: `Written from what sets the ${sample.relevant} relevant scored matches of the last ${sample.days} days apart from the ${sample.noise} noise${profile}: ${quotedList(about, 'and')} mark relevant ones, ${quotedList(notAbout, 'and')} noise. The classifier reads it for this keyword only.`,
    patch,
    effect: null,
    source: 'rules',
  };
}

/**
 * Rule suggestions (spec 2.6, source `rules`) measured on a keyword's own
 * scored matches: excluded terms and authors that remove mostly noise,
 * terms to require that relevant matches hold and noise rarely does,
 * platforms that bring only noise, and a context sentence. Only the matches
 * the keyword's current rules still keep are measured, with the matcher's
 * own checks (containsExcludedTerm, authorIsExcluded, keywordRulesPass), so
 * a patch applied as is drops exactly the matches its effect counts. A
 * candidate that drops nothing beyond a better one of its type is left out.
 */
export function ruleSuggestions(sample: MeasuredSample, subject?: SuggestionSubject): KeywordSuggestion[] {
  const markers = relevantMarkers(sample);
  const passes = (candidate: Candidate) => {
    const removed = candidate.noiseRemoved + candidate.relevantRemoved;
    return candidate.noiseRemoved >= minNoiseRemoved && candidate.relevantRemoved <= removed * maxRelevantShare;
  };
  const noiseTerms = termCandidates(sample).filter(passes);
  const candidates = [...noiseTerms, ...authorCandidates(sample).filter(passes), ...requiredTermCandidates(sample, markers).filter(passes), ...platformCandidates(sample).filter(passes)].sort(rank);
  const context = contextSuggestion(sample, markers, [...noiseTerms].sort(rank), subject);

  const chosen: Candidate[] = [];
  for (const candidate of candidates) {
    if (chosen.length === maxSuggestions - (context ? 1 : 0)) break;
    if (chosen.some((better) => better.type === candidate.type && isSubset(candidate.removed, better.removed))) continue;
    chosen.push(candidate);
  }
  const measured = chosen.map((candidate): KeywordSuggestion => {
    const effect = sample.effectOf(candidate);
    return { type: candidate.type, values: candidate.values, why: explain(candidate, effect, sample.days), patch: candidate.patch, effect, source: 'rules' };
  });
  return context ? [...measured, context] : measured;
}

/** Rule suggestions straight from a keyword's rules and its sample. */
export function suggestRuleChanges(rules: KeywordMatchRules, sample: SuggestionSample, subject?: SuggestionSubject): KeywordSuggestion[] {
  return ruleSuggestions(measureSample(rules, sample), subject);
}

/**
 * A suggestion written elsewhere (source `ai`) with its effect measured
 * exactly as the rule suggestions' are, over the same sample; a context
 * suggestion has none. `reason` is the writer's, the measured effect follows it.
 */
export function measuredSuggestion(
  sample: MeasuredSample,
  suggestion: { type: SuggestionType; values: string[]; patch: SuggestionPatch; reason: string },
  source: KeywordSuggestion['source'],
): KeywordSuggestion {
  const { type, values, patch, reason } = suggestion;
  if (type === 'context') return { type, values, why: reason, patch, effect: null, source };
  const effect = sample.effectOf(measurePatch(sample, patch));
  const { scope, split, saving } = effectInWords(effect, sample.days);
  const measured =
    effect.noiseRemoved + effect.relevantRemoved === 0
      ? `none of the ${sample.noise + sample.relevant} scored matches of the last ${sample.days} days`
      : `${scope}: ${split}; ${saving}`;
  return { type, values, why: `${reason.replace(/\s*$/u, '')} Applied as is, it would have dropped ${measured}.`, patch, effect, source };
}
