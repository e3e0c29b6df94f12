/**
 * Word boundaries that know every script. JavaScript's `\b` and `\w` know
 * only ASCII letters, even with the `u` flag: `\bmigré\b` never matches
 * (it finds no boundary after "é"), `\bno\b` finds "no" in "noël", and
 * `rembours\w*` stops before the "é" of "remboursé". `unicodeWords` rewrites
 * a pattern written with `\b`, `\B`, `\w` and `\W` so that a word
 * character is any letter, mark, digit or underscore (`wordCharacter`).
 *
 * A boundary beside a character the pattern itself fixes as a word character
 * becomes one look-around (`(?!…)` after "migré", a look-behind for the
 * start of "alter"); only a boundary between two unknowns takes the general
 * form, either look-around pair. Each word-character class is a union of
 * Unicode properties that the regex parser and compiler build anew (some
 * 0.2 ms each, once per process): the classifier's patterns take some 0.3 s
 * more to load and their first post some 0.2 s more to compile.
 */
export const wordCharacter = String.raw`[\p{L}\p{M}\p{N}_]`;

const notWordAfter = `(?!${wordCharacter})`;
const notWordBefore = `(?<!${wordCharacter})`;
const wordAfter = `(?=${wordCharacter})`;
const wordBefore = `(?<=${wordCharacter})`;
/** `notWordBefore` and `wordBefore` checked after the first character of the word they stand before. */
const notWordBeforeOne = `(?<!${wordCharacter}[^])`;
const wordBeforeOne = `(?<=${wordCharacter}[^])`;
const anyBoundary = `(?:${wordBefore}${notWordAfter}|${notWordBefore}${wordAfter})`;
const noBoundary = `(?:${wordBefore}${wordAfter}|${notWordBefore}${notWordAfter})`;

/** A piece of a pattern's source: one atom, quantifier, group mark or alternation bar. */
export interface Token {
  text: string;
  kind: 'literal' | 'escape' | 'class' | 'open' | 'lookaround' | 'close' | 'bar' | 'quantifier' | 'anchor';
  /** For a group's opening or closing token, the index of the other one. */
  partner: number;
}

const escapeUnit = /\\(?:[pPk]\{[^}]*\}|k<[^>]*>|u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|c[a-zA-Z]|.)/suy;
const classUnit = /\[(?:\\.|[^\]\\])*\]/suy;
const groupOpening = /\((?:\?(?:<?[=!]|:|<[^>]+>))?/y;
const quantifierUnit = /(?:[*+?]|\{\d+(?:,\d*)?\})\??/y;

/** A pattern's source as its pieces, each group's opening and closing token naming the other. */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  const take = (pattern: RegExp, kind: Token['kind']) => {
    pattern.lastIndex = index;
    const found = pattern.exec(source);
    if (!found) return false;
    tokens.push({ text: found[0], kind, partner: -1 });
    index += found[0].length;
    return true;
  };
  while (index < source.length) {
    const char = source[index];
    if (char === '\\') take(escapeUnit, 'escape');
    else if (char === '[') take(classUnit, 'class');
    else if (char === '(') {
      groupOpening.lastIndex = index;
      const opening = groupOpening.exec(source)![0];
      tokens.push({ text: opening, kind: /^\(\?<?[=!]/.test(opening) ? 'lookaround' : 'open', partner: -1 });
      index += opening.length;
    } else if (char === ')') take(/\)/y, 'close');
    else if (char === '|') take(/\|/y, 'bar');
    else if ((char === '{' && take(quantifierUnit, 'quantifier')) || ('*+?'.includes(char) && take(quantifierUnit, 'quantifier'))) continue;
    else if (char === '^' || char === '$') take(/[$^]/y, 'anchor');
    else {
      const literal = String.fromCodePoint(source.codePointAt(index)!);
      tokens.push({ text: literal, kind: 'literal', partner: -1 });
      index += literal.length;
    }
  }
  const opened: number[] = [];
  tokens.forEach((token, index) => {
    if (token.kind === 'open' || token.kind === 'lookaround') opened.push(index);
    else if (token.kind === 'close') {
      const open = opened.pop()!;
      token.partner = open;
      tokens[open].partner = index;
    }
  });
  return tokens;
}

const oneWordCharacter = new RegExp(`^${wordCharacter}$`, 'u');
const isWordLiteral = (char: string) => oneWordCharacter.test(char);
/** A class of word letters alone, no range or escape ("[oa]", "[oó]"). */
const wordLettersClass = /^\[(?!\^)[\p{L}\p{N}_]+\]$/u;
const wordEscapes = /^\\(?:w|d|p\{(?:L|Letter|L[lmotu]|N|Nd|M)\})$/u;

/** Whether the atom at token `index` (a group by its opening or closing token) always matches a word character at that end. */
function atomIsWord(tokens: Token[], index: number, fromEnd: boolean): boolean {
  const token = tokens[index];
  if (token.kind === 'literal') return isWordLiteral(token.text);
  if (token.kind === 'escape') return wordEscapes.test(token.text);
  if (token.kind === 'class') return wordLettersClass.test(token.text);
  if (token.kind === 'open' || token.kind === 'close') {
    const [open, close] = token.kind === 'open' ? [index, token.partner] : [token.partner, index];
    if (tokens[open].kind === 'lookaround') return false;
    return alternativesOf(tokens, open, close).every(([start, end]) => (fromEnd ? endsWithWord(tokens, end) : startsWithWord(tokens, start, end)));
  }
  return false;
}

/** The token ranges [start, end) of a group's top-level alternatives (of the whole pattern for `open` -1 and `close` its length). */
export function alternativesOf(tokens: Token[], open: number, close: number): [number, number][] {
  const ranges: [number, number][] = [];
  let start = open + 1;
  let depth = 0;
  for (let index = open + 1; index < close; index++) {
    const kind = tokens[index].kind;
    if (kind === 'open' || kind === 'lookaround') depth++;
    else if (kind === 'close') depth--;
    else if (kind === 'bar' && depth === 0) {
      ranges.push([start, index]);
      start = index + 1;
    }
  }
  ranges.push([start, close]);
  return ranges;
}

/** A quantifier that lets its atom match nothing: `?`, `*`, `{0,…}`. */
export const mayBeEmpty = (quantifier: Token | undefined) => quantifier?.kind === 'quantifier' && /^(?:[?*]|\{0[,}])/.test(quantifier.text);

/**
 * Whether what the pattern matches just before token `end` always ends with
 * a word character: its last atom does, or that atom may match nothing and
 * both it and what comes before it end so ("(?:je |on )?cherche").
 */
function endsWithWord(tokens: Token[], end: number): boolean {
  let last = end - 1;
  const quantifier = tokens[last];
  if (quantifier?.kind === 'quantifier') last--;
  if (last < 0 || !['literal', 'escape', 'class', 'close'].includes(tokens[last].kind) || !atomIsWord(tokens, last, true)) return false;
  if (!mayBeEmpty(quantifier)) return true;
  return endsWithWord(tokens, tokens[last].kind === 'close' ? tokens[last].partner : last);
}

/** Whether what the pattern matches from token `start` (before `end`) always starts with a word character (see `endsWithWord`). */
function startsWithWord(tokens: Token[], start: number, end = tokens.length): boolean {
  if (start >= end || !['literal', 'escape', 'open'].includes(tokens[start].kind) || !atomIsWord(tokens, start, false)) return false;
  const after = tokens[start].kind === 'open' ? tokens[start].partner + 1 : start + 1;
  if (!mayBeEmpty(tokens[after])) return true;
  return startsWithWord(tokens, after + 1, end);
}

/**
 * The characters (literals, or escapes of word characters such as `\p{Lu}`)
 * that every match of the pattern from token `start` opens with, or null
 * where some match could open otherwise: with a class, a repeated group or
 * a quantified character. An optional
 * group counts only if each of its alternatives ends on a character that is
 * no word character ("(?:je |on )?cherche"): then a guard on the character
 * after it holds whether the group matched or not.
 */
function openingLiterals(tokens: Token[], start: number): number[] | null {
  const token = tokens[start];
  if (token?.kind === 'literal' || (token?.kind === 'escape' && wordEscapes.test(token.text))) return tokens[start + 1]?.kind === 'quantifier' ? null : [start];
  if (token?.kind !== 'open') return null;
  const close = tokens[start].partner;
  const quantifier = tokens[close + 1];
  const optional = quantifier?.kind === 'quantifier';
  if (optional && !/^\?\??$/.test(quantifier.text)) return null;
  const found: number[] = [];
  for (const [first, end] of alternativesOf(tokens, start, close)) {
    const last = tokens[end - 1];
    if (optional && !(end > first && last.kind === 'literal' && !isWordLiteral(last.text))) return null;
    const inner = openingLiterals(tokens, first);
    if (inner === null) return null;
    found.push(...inner);
  }
  if (!optional) return found;
  const rest = openingLiterals(tokens, close + 2);
  return rest === null ? null : [...found, ...rest];
}

const asciiWordLiteral = /^[a-zA-Z0-9_]$/;

const escapedWordClass = String.raw`\p{L}\p{M}\p{N}_`;

/**
 * The pattern with `\b`, `\B`, `\w` and `\W` meaning words of any script (see
 * the module comment); the `u` flag is added.
 *
 * A boundary before a word is checked after the word's first character
 * ("\bl(?<!W[^])ooking for", not "(?<!W)looking for"): a look-behind that
 * opens a pattern, or one of its alternatives, is tried at every position
 * of the text, where a literal first character lets the regex engine skip
 * to the places it occurs (ten times faster on the comparison patterns).
 * Before an ASCII letter, ASCII's `\b` stays in front: it turns most
 * positions away more cheaply than the look-behind, which then only has to
 * rule out a letter outside ASCII. The intent rules so take a third longer
 * than with `\b` alone, the classifier some 5–10%.
 */
export function unicodeWords(pattern: RegExp): RegExp {
  const flags = pattern.flags.includes('u') ? pattern.flags : `${pattern.flags}u`;
  // Long phrase lists with none of the four (the opinion lexicons') are not taken apart for nothing.
  if (!/\\[bBwW]/.test(pattern.source)) return new RegExp(pattern.source, flags);
  const tokens = tokenize(pattern.source);
  const guards = new Map<number, string>();
  const boundaryBefore = (index: number, lookBehind: string, lookBehindOne: string, asciiBoundary: string) => {
    const literals = openingLiterals(tokens, index + 1);
    if (literals === null) return lookBehind;
    for (const literal of literals) guards.set(literal, lookBehindOne);
    return literals.every((literal) => asciiWordLiteral.test(tokens[literal].text)) ? asciiBoundary : '';
  };
  const rewritten = tokens.map((token, index) => {
    if (token.kind === 'class') {
      if (/\\W/.test(token.text)) throw new Error(`\\W inside a character class has no Unicode rewriting: ${token.text}`);
      return token.text.replace(/\\\\|\\w/g, (escape) => (escape === '\\w' ? escapedWordClass : escape));
    }
    if (token.kind !== 'escape') return token.text;
    switch (token.text) {
      case '\\w': return wordCharacter;
      case '\\W': return `[^${escapedWordClass}]`;
      case '\\b':
        if (endsWithWord(tokens, index)) return notWordAfter;
        return startsWithWord(tokens, index + 1) ? boundaryBefore(index, notWordBefore, notWordBeforeOne, '\\b') : anyBoundary;
      case '\\B':
        if (endsWithWord(tokens, index)) return wordAfter;
        return startsWithWord(tokens, index + 1) ? boundaryBefore(index, wordBefore, wordBeforeOne, '') : noBoundary;
      default: return token.text;
    }
  });
  const source = rewritten.map((text, index) => text + (guards.get(index) ?? '')).join('');
  return new RegExp(source, flags);
}
