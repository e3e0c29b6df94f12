import { classAt, foldCase, isWordLike, TRAIL, WORD_CHAR } from './unicode-words.ts';

/**
 * Spec 2.1.3 `exactPhrase` false: a multi-word term also matches its words
 * close together in any order, with plurals and spelling variants. "Close" is
 * all the words within a run of the term's own length plus this many other
 * words, so two words may stand at most four words apart.
 */
export const FUZZY_EXTRA_WORDS = 3;

/** Bits of `covers`: one per word of the term, so at most 31 words. */
const MAX_UNITS = 31;

/**
 * One written form that stands for one word of the term, or for two adjacent
 * words written joined ("opensource" for "open source").
 */
export interface FuzzyForm {
  /** Case-folded, as the form is looked for. */
  text: string;
  /** With a case-sensitive term: the exact spelling the post must show. */
  caseText: string | null;
  /** Which words of the term (bit i = word i) this form stands for. */
  covers: number;
}

export interface FuzzyPhrase {
  unitCount: number;
  /** Each word of the term, case-folded: the same word in two terms has the same forms. */
  words: string[];
  forms: FuzzyForm[];
}

const LATIN_WORD = /^\p{Script=Latin}+$/u;
// Words that end like plurals without being one ("news" is not two "new").
const NOT_PLURAL = /(?:ss|us|is|ics|news|series|species)$/u;

/** Replaces the last `cut` letters; a replaced upper-case ending stays upper case (COLOUR → COLOR). */
function withEnding(word: string, cut: number, ending: string): string {
  const replaced = word.slice(word.length - cut);
  const upper = cut > 0 && replaced === replaced.toUpperCase() && replaced !== replaced.toLowerCase();
  return word.slice(0, word.length - cut) + (upper ? ending.toUpperCase() : ending);
}

function singulars(word: string, lower: string): string[] {
  if (lower.length < 4 || NOT_PLURAL.test(lower)) return [];
  if (/[^aeiou]ies$/u.test(lower)) return [withEnding(word, 3, 'y')];
  const found: string[] = [];
  // "boxes" drops -es, "databases" drops -s: without a dictionary, try both.
  if (/(?:s|x|z|ch|sh)es$/u.test(lower)) found.push(withEnding(word, 2, ''));
  if (lower.endsWith('s')) found.push(withEnding(word, 1, ''));
  return found;
}

function plural(word: string, lower: string): string {
  if (/[^aeiou]y$/u.test(lower)) return withEnding(word, 1, 'ies');
  if (/(?:s|x|z|ch|sh)$/u.test(lower)) return withEnding(word, 0, 'es');
  return withEnding(word, 0, 's');
}

/** British and American spellings, each way: [ending, other ending, shortest word it applies to]. */
const SPELLING_PAIRS: [string, string, number][] = [
  ['our', 'or', 5],
  ['isation', 'ization', 8],
  ['ise', 'ize', 6],
  ['ised', 'ized', 7],
  ['ises', 'izes', 7],
  ['ising', 'izing', 8],
  ['iser', 'izer', 7],
  ['yse', 'yze', 6],
  ['tre', 'ter', 5],
  ['ogue', 'og', 6],
  ['elled', 'eled', 7],
  ['elling', 'eling', 8],
  ['eller', 'eler', 7],
];

function spellings(word: string, lower: string): string[] {
  const found = [word];
  for (const [british, american, shortest] of SPELLING_PAIRS) {
    if (lower.length < shortest) continue;
    if (lower.endsWith(british)) found.push(withEnding(word, british.length, american));
    else if (lower.endsWith(american)) found.push(withEnding(word, american.length, british));
  }
  return found;
}

/**
 * The forms a word of a fuzzy term may take in a post: itself, singular and
 * plural (s, es, ies), and British/American spellings of each. Only Latin
 * words are inflected; the rules mean nothing for other scripts.
 */
export function wordForms(word: string): string[] {
  const lower = word.toLowerCase();
  if (lower.length < 3 || !LATIN_WORD.test(lower)) return [word];
  const forms = new Set<string>([word]);
  const stems = singulars(word, lower);
  for (const stem of stems.length > 0 ? stems : [word]) {
    for (const spelled of spellings(stem, stem.toLowerCase())) {
      forms.add(spelled);
      forms.add(plural(spelled, spelled.toLowerCase()));
    }
  }
  return [...forms];
}

function isPlainWord(piece: string): boolean {
  for (let index = 0; index < piece.length; index++) {
    const charClass = classAt(piece, index);
    if (charClass !== WORD_CHAR && charClass !== TRAIL) return false;
  }
  return true;
}

function hasWordCharacter(piece: string): boolean {
  for (let index = 0; index < piece.length; index++) if (isWordLike(classAt(piece, index))) return true;
  return false;
}

interface Unit {
  word: string;
  plain: boolean;
  forms: string[];
}

/**
 * The words of a term (split at spaces and hyphens: "open-source" is two
 * words) and every form that stands for them; null when the term has fewer
 * than two distinct words, since a lone word has nothing to be close to. A
 * word with other symbols in it ("node.js", "c++") keeps its one spelling.
 */
export function fuzzyPhrase(term: string, caseSensitive: boolean): FuzzyPhrase | null {
  const units: Unit[] = [];
  for (const piece of term.split(/[\s\-\u2010-\u2015]+/u)) {
    if (!hasWordCharacter(piece)) continue;
    const word = caseSensitive ? piece : foldCase(piece);
    // A word repeated, or one that is another's plural, adds no constraint a single hit would not meet.
    if (units.some((unit) => unit.forms.includes(word))) continue;
    const plain = isPlainWord(word);
    units.push({ word, plain, forms: plain ? wordForms(word) : [word] });
  }
  if (units.length < 2 || units.length > MAX_UNITS) return null;
  const forms: FuzzyForm[] = [];
  const add = (form: string, covers: number) => forms.push({ text: caseSensitive ? foldCase(form) : form, caseText: caseSensitive ? form : null, covers });
  units.forEach((unit, index) => unit.forms.forEach((form) => add(form, 1 << index)));
  for (let index = 0; index + 1 < units.length; index++) {
    const [left, right] = [units[index], units[index + 1]];
    if (left.plain && right.plain) right.forms.forEach((form) => add(left.word + form, (1 << index) | (1 << (index + 1))));
  }
  return { unitCount: units.length, words: units.map((unit) => foldCase(unit.word)), forms };
}

/** Scratch for fuzzyWindowFits, which the engine calls for every fuzzy candidate of every post. */
const unitCounts = new Int32Array(MAX_UNITS);
let scratchOrder = new Int32Array(64);

/** Past this many hits, Array.sort: an insertion sort's quadratic cost would outweigh its comparator calls. */
const INSERTION_SORT_HITS = 32;

/**
 * Indices of `words` in order of word index, in the first words.length
 * places. A term has a few hits a post, so mostly an insertion sort in place
 * of Array.sort and its comparator calls.
 */
function hitOrder(words: readonly number[]): Int32Array {
  if (words.length > scratchOrder.length) scratchOrder = new Int32Array(words.length * 2);
  const order = scratchOrder;
  if (words.length > INSERTION_SORT_HITS) {
    order.set(words.map((_, index) => index).sort((a, b) => words[a] - words[b]));
    return order;
  }
  for (let index = 0; index < words.length; index++) {
    let at = index;
    while (at > 0 && words[order[at - 1]] > words[index]) {
      order[at] = order[at - 1];
      at--;
    }
    order[at] = index;
  }
  return order;
}

/**
 * Whether some run of at most unitCount + FUZZY_EXTRA_WORDS words holds every
 * word of the term. `words[i]` is the word index of a hit of a form covering
 * `covers[i]`; hits come in any order.
 */
export function fuzzyWindowFits(words: readonly number[], covers: readonly number[], unitCount: number): boolean {
  const order = hitOrder(words);
  const maxSpan = unitCount - 1 + FUZZY_EXTRA_WORDS;
  const counts = unitCounts.fill(0, 0, unitCount);
  let covered = 0;
  let left = 0;
  for (let right = 0; right < words.length; right++) {
    for (let unit = 0; unit < unitCount; unit++) {
      if ((covers[order[right]] & (1 << unit)) !== 0 && counts[unit]++ === 0) covered++;
    }
    while (covered === unitCount) {
      if (words[order[right]] - words[order[left]] <= maxSpan) return true;
      for (let unit = 0; unit < unitCount; unit++) {
        if ((covers[order[left]] & (1 << unit)) !== 0 && --counts[unit] === 0) covered--;
      }
      left++;
    }
  }
  return false;
}
