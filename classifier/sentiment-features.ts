import type { Intent } from '../vocabulary/classification-values.ts';
import { wordsOf } from './content-words.ts';
import { postStructures } from './intents.ts';
import { negators } from './opinion-lexicon.ts';
import { codeSpans, mayHoldCode, type SentimentReading } from './sentiment.ts';
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
 * The words (negation-marked) and word pairs a trained model has weights
 * for, each with its feature name. Given to `sentimentFeatures`, it leaves
 * out the words and pairs the model would ignore, and the names of the
 * others are the model's own strings rather than ones written afresh for
 * every post.
 */
export interface FeatureVocabulary {
  /** Word → its feature name (`w:word`). */
  words: ReadonlyMap<string, string>;
  /** Word → the words that follow it in a known pair ("^" before a clause's first word) → the pair's feature name. */
  pairs: ReadonlyMap<string, ReadonlyMap<string, string>>;
}

const clauseBreak = /[.,;:!?¿¡。、！？\n()"“”]+/u;
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
 * by side (irony already turned, see `readSentiment`), whether the post
 * marks irony, plus the intents and kind of post. Words of the keyword and code
 * identifiers are left out: they name things.
 */
export function sentimentFeatures(evidence: SentimentEvidence, vocabulary?: FeatureVocabulary): SentimentFeatures {
  const features: SentimentFeatures = new Map();
  const add = (name: string, value = 1) => features.set(name, (features.get(name) ?? 0) + value);
  const languageNegators = (evidence.language && negators[evidence.language]) || englishNegators;
  const written = mayHoldCode(evidence.text) || evidence.text.includes('://') ? evidence.text.replace(codeOrAddress, ' ') : evidence.text;
  const prose = written.toLowerCase().replace(/’/g, "'").replace(/n't\b/gu, ' not');
  for (const clause of prose.split(clauseBreak)) {
    let negated = false;
    let previous = '^';
    for (const word of wordsOf(clause)) {
      if (evidence.ignoredWords.has(word) || isNumber(word)) continue;
      if (languageNegators.has(word) || englishNegators.has(word)) {
        negated = true;
        add(`w:${word}`);
        previous = word;
        continue;
      }
      const token = negated ? `¬${word}` : word;
      if (vocabulary) {
        const wordName = vocabulary.words.get(token);
        if (wordName !== undefined) features.set(wordName, 1);
        const pairName = vocabulary.pairs.get(previous)?.get(token);
        if (pairName !== undefined) features.set(pairName, 1);
      } else {
        features.set(`w:${token}`, 1);
        features.set(`b:${previous} ${token}`, 1);
      }
      previous = token;
    }
  }
  if (nonAscii.test(prose)) for (const [symbol] of prose.matchAll(emoji)) features.set(`e:${symbol}`, 1);
  let praise = 0;
  let blame = 0;
  for (const cue of evidence.reading.cues) {
    if (cue.score > 0) praise += cue.score;
    else blame -= cue.score;
  }
  add('lex:praise', Math.min(praise, 10) / 5);
  add('lex:blame', Math.min(blame, 10) / 5);
  if (evidence.reading.ironic) add('irony');
  for (const intent of evidence.intents) add(`intent:${intent}`);
  for (const structure of postStructures(evidence.text)) add(`form:${structure}`);
  for (const cue of stanceCues(prose)) add(`cue:${cue}`);
  if (evidence.reporting) add('kind:reporting');
  if (/[?？]\s*$/u.test(evidence.text.trim())) add('kind:ends-with-question');
  if (/!/u.test(evidence.text)) add('kind:exclamation');
  add(`lang:${evidence.language ?? 'unknown'}`);
  return features;
}
