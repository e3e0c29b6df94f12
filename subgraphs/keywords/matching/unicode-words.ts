/**
 * What counts as a word for matching (issue 5): runs of Unicode letters,
 * numbers and combining marks. Scripts written without spaces between words
 * (Han, kana, Thai…) get their own class, because demanding a boundary there
 * would mean a term could never match inside such text, nor a Latin term
 * written against it ("Rustを使う").
 */
export const SEPARATOR = 0;
export const SYMBOL = 1;
export const WORD_CHAR = 2;
export const UNSPACED_CHAR = 3;
/** The low half of a surrogate pair: it belongs to the character before it. */
export const TRAIL = 4;

export type CharClass = typeof SEPARATOR | typeof SYMBOL | typeof WORD_CHAR | typeof UNSPACED_CHAR | typeof TRAIL;

const WORD = /[\p{L}\p{N}\p{M}]/u;
const UNSPACED_SCRIPT = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Thai}\p{scx=Lao}\p{scx=Khmer}\p{scx=Myanmar}]/u;
const WHITESPACE = /\s/u;
const UNKNOWN = 255;

function classifyCodePoint(codePoint: number): CharClass {
  const char = String.fromCodePoint(codePoint);
  if (WHITESPACE.test(char)) return SEPARATOR;
  if (!WORD.test(char)) return SYMBOL;
  return UNSPACED_SCRIPT.test(char) ? UNSPACED_CHAR : WORD_CHAR;
}

// Filled on first sight of each code unit: the Unicode property regexes are
// far too slow to run per character of every post.
const basicPlane = new Uint8Array(0x10000).fill(UNKNOWN);
const astralPlanes = new Map<number, CharClass>();
for (let code = 0; code < 128; code++) basicPlane[code] = classifyCodePoint(code);

function classOfAstral(codePoint: number): CharClass {
  let found = astralPlanes.get(codePoint);
  if (found === undefined) {
    found = classifyCodePoint(codePoint);
    astralPlanes.set(codePoint, found);
  }
  return found;
}

/** Class of a code unit that is not part of a surrogate pair. */
export function classOfCode(code: number): CharClass {
  let found = basicPlane[code];
  if (found === UNKNOWN) {
    found = classifyCodePoint(code);
    basicPlane[code] = found;
  }
  return found as CharClass;
}

/** Class of the character at `index`; past either end counts as a separator. */
export function classAt(text: string, index: number): CharClass {
  if (index < 0 || index >= text.length) return SEPARATOR;
  const code = text.charCodeAt(index);
  if (code < 0xd800 || code > 0xdfff) return classOfCode(code);
  if (code <= 0xdbff) {
    const next = text.charCodeAt(index + 1);
    if (next >= 0xdc00 && next <= 0xdfff) return classOfAstral(text.codePointAt(index)!);
    return SYMBOL;
  }
  const before = text.charCodeAt(index - 1);
  return before >= 0xd800 && before <= 0xdbff ? TRAIL : SYMBOL;
}

/** Class of the whole character that ends just before `index`. */
export function classBefore(text: string, index: number): CharClass {
  if (index <= 0) return SEPARATOR;
  const found = classAt(text, index - 1);
  return found === TRAIL ? classAt(text, index - 2) : found;
}

export function isWordLike(charClass: CharClass): boolean {
  return charClass === WORD_CHAR || charClass === UNSPACED_CHAR;
}

/**
 * A run of word characters starts here; a switch between spaced and unspaced
 * scripts starts a new word too, so "Rustを" is two words.
 */
export function startsWord(previous: CharClass, current: CharClass): boolean {
  return isWordLike(current) && previous !== current;
}

/**
 * Whether a match touching `neighbour` on one side, whose own edge character
 * there is of class `edge`, breaks a word: only two spaced-script word
 * characters glue together ("Rust" in "Rustic"). An edge of punctuation
 * (".NET", "C++") needs no boundary, so "ASP.NET" mentions ".NET".
 */
export function gluesTogether(edge: CharClass, neighbour: CharClass): boolean {
  return edge === WORD_CHAR && neighbour === WORD_CHAR;
}

const NEEDS_NFC = /[^\u0000-\u00ff]/;

/**
 * NFC, so that "Café" typed with a combining accent equals the precomposed
 * one. Text within Latin-1 is already NFC; skipping it keeps the hot path free
 * of the normalizer for most posts.
 */
export function normalizeText(text: string): string {
  return NEEDS_NFC.test(text) ? text.normalize('NFC') : text;
}

/**
 * Lower case that keeps every offset: match offsets found in the folded text
 * are read back from the original for case-sensitive checks. The rare
 * characters whose lower case changes length ("İ") are left as they are, in
 * terms and posts alike, so both sides still agree. Lower casing never
 * shortens a character, so an unchanged total length means every offset held.
 */
export function foldCase(text: string): string {
  const lowered = text.toLowerCase();
  if (lowered.length === text.length) return lowered;
  let folded = '';
  for (const char of text) {
    const lower = char.toLowerCase();
    folded += lower.length === char.length ? lower : char;
  }
  return folded;
}

export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/gu, ' ');
}
