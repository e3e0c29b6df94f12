import type { Intent } from '../vocabulary/classification-values.ts';
import { clauseBreaks, wordsByClause } from './content-words.ts';
import { postStructures } from './intents.ts';
import { negators } from './opinion-lexicon.ts';
import { codeSpans, contractedNot, mayHoldCode, type SentimentReading } from './sentiment.ts';
import { stanceCues } from './stance-cues.ts';

/** What the sentiment model reads of a post besides its words. */
export interface SentimentEvidence {
  text: string;
  language: string | null;
  /** The lexicon reading (`readSentiment`): its cues. */
  reading: SentimentReading;
  intents: readonly Intent[];
  /** A headline, job ad, release note or bug report (`reportsRatherThanOpines`). */
  reporting: boolean;
  /** Words of the keyword itself, which say nothing about the author's attitude. */
  ignoredWords: ReadonlySet<string>;
}

/** Sparse features: name → value. Words and word pairs count 1; lexicon sums are scaled to about -1…1. */
export type SentimentFeatures = Map<string, number>;

/**
 * A post's features as rows of the opinion models' weight table, row →
 * value, in the order `sentimentFeatures` would name them; features the
 * models have no row for are left out.
 */
export type FeatureRows = Map<number, number>;

/** A post's rows, and how many of its distinct words (negation-marked) the models know, of how many. */
export interface PostRows {
  rows: FeatureRows;
  words: number;
  knownWords: number;
}

/**
 * The rows of the opinion models' weight table: by feature name, and for
 * the words (negation-marked) and word pairs, by the words themselves, so
 * that a post's words find their rows without their feature names being
 * written.
 */
export interface FeatureVocabulary {
  rows: ReadonlyMap<string, number>;
  /** A word, or "^" (a clause's start, which opens pairs), → its entry. */
  words: ReadonlyMap<string, VocabularyWord>;
}

export interface VocabularyWord {
  /** The row of `w:word`, if the models have one. */
  row: number | undefined;
  /** The words that follow it in a known pair → the pair's row. */
  pairs: ReadonlyMap<string, number> | undefined;
}

/** Where `readFeatures` writes: named features for training, weight-table rows for classifying. */
interface FeatureSink {
  /** A word, negation-marked, counts 1. */
  word(token: string): void;
  /** Two adjacent words count 1. */
  pair(previous: string, token: string): void;
  /** A named feature counts 1. */
  set(name: string): void;
  /** A named feature counts `value` more. */
  add(name: string, value?: number): void;
}

class NamedFeatures implements FeatureSink {
  readonly features: SentimentFeatures = new Map();
  word(token: string) {
    this.features.set(`w:${token}`, 1);
  }
  pair(previous: string, token: string) {
    this.features.set(`b:${previous} ${token}`, 1);
  }
  set(name: string) {
    this.features.set(name, 1);
  }
  add(name: string, value = 1) {
    this.features.set(name, (this.features.get(name) ?? 0) + value);
  }
}

/**
 * A pair's first word is mostly the word read just before its second: the
 * entry of the word before the last is kept, and not looked up again.
 */
class RowFeatures implements FeatureSink {
  readonly rows: FeatureRows = new Map();
  private readonly seen = new Set<string>();
  knownWords = 0;
  private lastWord: string | undefined;
  private lastEntry: VocabularyWord | undefined;
  private wordBefore: string | undefined;
  private entryBefore: VocabularyWord | undefined;
  constructor(private readonly vocabulary: FeatureVocabulary) {}
  word(token: string) {
    const entry = this.vocabulary.words.get(token);
    this.wordBefore = this.lastWord;
    this.entryBefore = this.lastEntry;
    this.lastWord = token;
    this.lastEntry = entry;
    this.count(token, entry?.row);
    if (entry?.row !== undefined) this.rows.set(entry.row, 1);
  }
  private count(word: string, row: number | undefined) {
    if (this.seen.has(word)) return;
    this.seen.add(word);
    if (row !== undefined) this.knownWords++;
  }
  get words() {
    return this.seen.size;
  }
  pair(previous: string, token: string) {
    const opener = previous === this.wordBefore ? this.entryBefore : this.vocabulary.words.get(previous);
    const row = opener?.pairs?.get(token);
    if (row !== undefined) this.rows.set(row, 1);
  }
  set(name: string) {
    const row = this.vocabulary.rows.get(name);
    if (row !== undefined) this.rows.set(row, 1);
  }
  add(name: string, value = 1) {
    const row = this.vocabulary.rows.get(name);
    if (name.startsWith('w:')) this.count(name.slice(2), row);
    if (row !== undefined) this.rows.set(row, (this.rows.get(row) ?? 0) + value);
  }
}

const clauseBreak = clauseBreaks('.,;:!?¿¡。、！？\n()"“”');
const emoji = /\p{Extended_Pictographic}/gu;
// Code is no opinion (`codeSpans`), and an address split at its dots and colons would leave its parts behind as words.
const codeOrAddress = new RegExp(String.raw`${codeSpans.source}|\bhttps?:\/\/\S+`, 'gu');
const englishNegators = negators.en;
/** Emoji lie outside ASCII: most posts are not searched for them. */
const nonAscii = /[^\x00-\x7f]/u;

/** A word of ASCII digits alone. */
function isNumber(word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    const code = word.charCodeAt(i);
    if (code < 0x30 || code > 0x39) return false;
  }
  return true;
}

/**
 * The features of one post: its words and adjacent word pairs per clause,
 * with the words after a negation marked ("not fast" → `¬fast`, as in Pang
 * and Lee's negation tagging), its emoji, and the lexicon's reading summed
 * by side (irony already turned, see `readSentiment`), over the post, its
 * last sentence and the clause after its last "but", whether the post
 * marks irony, plus the intents and kind of post. Words of the keyword and code
 * identifiers are left out: they name things.
 */
export function sentimentFeatures(evidence: SentimentEvidence): SentimentFeatures {
  const named = new NamedFeatures();
  readFeatures(evidence, named);
  return named.features;
}

/**
 * `sentimentFeatures` as rows of the opinion models' weight table: what the
 * classifier reads, with one look-up per word and pair and no feature name
 * written for them.
 */
export function featureRows(evidence: SentimentEvidence, vocabulary: FeatureVocabulary): PostRows {
  const sink = new RowFeatures(vocabulary);
  readFeatures(evidence, sink);
  return { rows: sink.rows, words: sink.words, knownWords: sink.knownWords };
}

function readFeatures(evidence: SentimentEvidence, sink: FeatureSink): void {
  const languageNegators = (evidence.language && negators[evidence.language]) || englishNegators;
  const written = mayHoldCode(evidence.text) || evidence.text.includes('://') ? evidence.text.replace(codeOrAddress, ' ') : evidence.text;
  const prose = written.toLowerCase().replace(/’/g, "'").replace(contractedNot, ' not');
  for (const clause of wordsByClause(prose, clauseBreak)) {
    let negated = false;
    let previous = '^';
    for (const word of clause) {
      if (evidence.ignoredWords.has(word) || isNumber(word)) continue;
      if (languageNegators.has(word) || englishNegators.has(word)) {
        negated = true;
        sink.add(`w:${word}`);
        previous = word;
        continue;
      }
      const token = negated ? `¬${word}` : word;
      sink.word(token);
      sink.pair(previous, token);
      previous = token;
    }
  }
  if (nonAscii.test(prose)) for (const [symbol] of prose.matchAll(emoji)) sink.set(`e:${symbol}`);
  let praise = 0;
  let blame = 0;
  for (const cue of evidence.reading.cues) {
    if (cue.score > 0) praise += cue.score;
    else blame -= cue.score;
  }
  sink.add('lex:praise', Math.min(praise, 10) / 5);
  sink.add('lex:blame', Math.min(blame, 10) / 5);
  const closing = evidence.reading.closing;
  if (closing > 0) sink.add('lex:closing-praise', Math.min(closing, 10) / 5);
  else if (closing < 0) sink.add('lex:closing-blame', Math.min(-closing, 10) / 5);
  const afterTurn = evidence.reading.afterTurn;
  if (afterTurn > 0) sink.add('lex:turn-praise', Math.min(afterTurn, 10) / 5);
  else if (afterTurn < 0) sink.add('lex:turn-blame', Math.min(-afterTurn, 10) / 5);
  if (evidence.reading.ironic) sink.add('irony');
  for (const intent of evidence.intents) sink.add(`intent:${intent}`);
  for (const structure of postStructures(evidence.text)) sink.add(`form:${structure}`);
  for (const cue of stanceCues(prose)) sink.add(`cue:${cue}`);
  if (evidence.reporting) sink.add('kind:reporting');
  if (/[?？]\s*$/u.test(evidence.text.trim())) sink.add('kind:ends-with-question');
  if (/!/u.test(evidence.text)) sink.add('kind:exclamation');
  sink.add(`lang:${evidence.language ?? 'unknown'}`);
}
