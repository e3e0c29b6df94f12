import { stopWords } from '../vocabulary/stop-words.ts';

const scriptsWithoutSpaces = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;
const letterRun = /[\p{L}\p{M}\p{N}]+/gu;
const wordSegmenter = new Intl.Segmenter('und', { granularity: 'word' });
const urlPattern = /\bhttps?:\/\/\S+/giu;

/**
 * Lower-case words of a text in written order. Scripts written without spaces
 * go through ICU's word segmenter (its dictionary knows Japanese and Chinese
 * words); every other text splits on letter runs, which is fifty times faster.
 */
export function wordsOf(text: string): string[] {
  // Most posts hold no address: the test is a fraction of the pattern's cost.
  const prose = text.includes('://') ? text.replace(urlPattern, ' ') : text;
  if (scriptsWithoutSpaces.test(prose)) {
    const words: string[] = [];
    for (const part of wordSegmenter.segment(prose)) if (part.isWordLike) words.push(part.segment.toLowerCase());
    return words;
  }
  return prose.toLowerCase().match(letterRun) ?? [];
}

/** Characters that split a text into clauses, and the patterns `wordsByClause` reads them with. */
export interface ClauseBreaks {
  /** A run of breaks. */
  split: RegExp;
  /** A letter run or a run of breaks, in one pattern. */
  wordOrBreak: RegExp;
  /** The breaks' code points: a token opening with one is a break. */
  breakCodes: ReadonlySet<number>;
}

/**
 * Clause breaks of the characters given (none of them a letter, mark or
 * digit). Escaped, a `]`, backslash, `^` or `-` among them is itself a break
 * rather than ending the class, escaping, negating it or making a range.
 */
export function clauseBreaks(characters: string): ClauseBreaks {
  const breaks = `[${characters.replace(/[\]\\^-]/gu, '\\$&')}]+`;
  return {
    split: new RegExp(breaks, 'u'),
    wordOrBreak: new RegExp(`${letterRun.source}|${breaks}`, 'gu'),
    breakCodes: new Set([...characters].map((character) => character.codePointAt(0)!)),
  };
}

/**
 * The words (`wordsOf`) of each clause of a lower-cased text, as
 * `text.split(breaks.split).map(wordsOf)` gives them. A text written with
 * spaces and holding no address is read in one pass over its letter runs
 * and breaks, where splitting it and then each clause took a pass and a
 * pattern more per clause.
 */
export function wordsByClause(lowerText: string, breaks: ClauseBreaks): string[][] {
  if (lowerText.includes('://') || scriptsWithoutSpaces.test(lowerText)) return lowerText.split(breaks.split).map(wordsOf);
  const clauses: string[][] = [[]];
  for (const token of lowerText.match(breaks.wordOrBreak) ?? []) {
    if (breaks.breakCodes.has(token.codePointAt(0)!)) clauses.push([]);
    else clauses[clauses.length - 1].push(token);
  }
  return clauses;
}

/**
 * A word with its English inflection folded away ("databases" → "database",
 * "rollouts" → "rollout", "charged" → "charg"), so that a post and a profile
 * written in different forms of a word still meet. Words under five letters
 * stay as written: their suffixes are too often part of the stem.
 */
export function foldWord(word: string): string {
  if (word.length < 5) return word;
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.endsWith('ing') && word.length > 6) return word.slice(0, -3);
  if (word.endsWith('ed') && word.length > 5) return word.slice(0, -2);
  if (word.endsWith('es') && /(?:ss|sh|ch|x)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** Folded words that say what a text is about: no function words, numbers or single letters. */
export function contentWordsOf(text: string): string[] {
  return contentWordsAmong(wordsOf(text));
}

/** `contentWordsOf` for a text whose words (`wordsOf`) are already read. */
export function contentWordsAmong(words: readonly string[]): string[] {
  const result: string[] = [];
  for (const word of words) {
    if (stopWords.has(word) || /^\p{N}+$/u.test(word)) continue;
    if (word.length < 2 && !scriptsWithoutSpaces.test(word)) continue;
    result.push(foldWord(word));
  }
  return result;
}

/** Number of words, as a reader would count them, for the "posts of 5+ words" language measure. */
export function wordCount(text: string): number {
  return wordsOf(text).length;
}

/**
 * What the longer word of a family may add to the shorter: an inflection or
 * a suffix of English derivation. A word joined on ("every" and "everyday",
 * "sand" and "sandbox", "over" and "overall") makes a compound of another
 * meaning, not a member of the family.
 */
const familySuffixes = new Set(['', 's', 'es', 'ed', 'd', 'r', 'er', 'ers', 'ing', 'ly', 'y', 'ies', 'ion', 'al', 'ic', 'ist', 'ive', 'ity', 'ful', 'ize', 'ise', 'ous', 'est', 'en', 'e']);

/**
 * A set of folded words that also matches the rest of a word's family: two
 * words of four letters or more match when one begins with the other and
 * the longer adds at most three letters of a suffix (`familySuffixes`:
 * "compile" and "compiler", "driv" of "driving" and "driver"), which catches
 * what `foldWord` leaves apart.
 */
export class WordFamilySet {
  readonly words: ReadonlySet<string>;
  private readonly byPrefix = new Map<string, string[]>();

  constructor(words: Iterable<string>) {
    this.words = new Set(words);
    for (const word of this.words) {
      if (word.length < 4) continue;
      const prefix = word.slice(0, 4);
      const family = this.byPrefix.get(prefix) ?? [];
      family.push(word);
      this.byPrefix.set(prefix, family);
    }
  }

  get size() {
    return this.words.size;
  }

  has(word: string): boolean {
    if (this.words.has(word)) return true;
    if (word.length < 4) return false;
    for (const member of this.byPrefix.get(word.slice(0, 4)) ?? []) {
      const [shorter, longer] = member.length <= word.length ? [member, word] : [word, member];
      if (longer.startsWith(shorter) && longer.length - shorter.length <= 3 && familySuffixes.has(longer.slice(shorter.length))) return true;
    }
    return false;
  }
}
