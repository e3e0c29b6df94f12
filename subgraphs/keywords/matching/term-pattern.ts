import { normalizeTermText } from './term-syntax.ts';
import { classAt, classBefore, foldCase, gluesTogether, SEPARATOR, SYMBOL, TRAIL, WORD_CHAR, type CharClass } from './unicode-words.ts';
import { wordAffix, type WordAffix } from './word-affix.ts';
import { wordKey, type WordKey } from './word-set.ts';

/**
 * A required or excluded term (spec 2.1.3) ready to look for in a post
 * (see PreparedPost.contains): whole words, unless an
 * excluded term's leading or trailing `*` lets that end run into a word.
 */
export interface TermPattern {
  /** Same key, same answer: lets one post answer a pattern once for all keywords. */
  key: string;
  needle: string;
  caseSensitive: boolean;
  /** Whether the needle holds a space, so it must be looked for in text with whitespace runs collapsed. */
  spansWhitespace: boolean;
  /** Set when the needle is one whole word: then a post's WordSet answers it. */
  word: WordKey | null;
  /**
   * For a longer needle, its longest word that must stand whole in the post
   * wherever the needle does ("hiring" of "hiring now", "foo" of "*bar foo"):
   * a post without that word is answered without searching its text.
   */
  wholeWord: WordKey | null;
  /**
   * For a needle without a whole word (mostly an excluded "hiring*" or
   * "*bot"), the letters a word of the post must start with wherever the
   * needle occurs, its end closed; else those a word must end with. A post
   * whose words lack it is answered without searching its text.
   */
  wordStart: WordAffix | null;
  wordEnd: WordAffix | null;
  /** The needle's first character, or SYMBOL when a wildcard frees that end. */
  edgeBefore: CharClass;
  edgeAfter: CharClass;
  /** PreparedPost.serial of the post `answer` is for: see PreparedPost.contains. */
  answeredFor: number;
  answer: boolean;
}

function isOneWord(text: string): boolean {
  for (let index = 0; index < text.length; index++) if (!isWordPart(classAt(text, index))) return false;
  return true;
}

const isWordPart = (charClass: CharClass) => charClass === WORD_CHAR || charClass === TRAIL;

/**
 * The longest run of word characters in `needle` with a boundary on both
 * sides: another character of the needle, or a needle end a wildcard does not
 * open. Null when there is none (a needle of one word, open at an end).
 * A run starts at a word character: the second half of a symbol written as
 * a surrogate pair ("😀") is no word, though it reads as TRAIL.
 */
function longestWholeWord(needle: string, openBefore: boolean, openAfter: boolean): string | null {
  let longest: string | null = null;
  let start = -1;
  for (let index = 0; index <= needle.length; index++) {
    const charClass = index < needle.length ? classAt(needle, index) : SEPARATOR;
    if (charClass === WORD_CHAR || (charClass === TRAIL && start >= 0)) {
      if (start < 0) start = index;
      continue;
    }
    if (start < 0) continue;
    const bounded = (start > 0 || !openBefore) && (index < needle.length || !openAfter);
    if (bounded && (longest === null || index - start > longest.length)) longest = needle.slice(start, index);
    start = -1;
  }
  return longest;
}

function compile(core: string, caseSensitive: boolean, openBefore: boolean, openAfter: boolean): TermPattern | null {
  const normalized = normalizeTermText(core);
  if (!normalized) return null;
  const needle = caseSensitive ? normalized : foldCase(normalized);
  const edgeBefore = openBefore ? SYMBOL : classAt(needle, 0);
  const edgeAfter = openAfter ? SYMBOL : classBefore(needle, needle.length);
  const key = `${caseSensitive ? 'C' : 'i'}${openBefore ? '*' : '|'}${openAfter ? '*' : '|'}${needle}`;
  const word = !openBefore && !openAfter && isOneWord(needle) ? wordKey(needle) : null;
  const whole = word ? null : longestWholeWord(needle, openBefore, openAfter);
  const wordStart = word || whole || openBefore ? null : wordAffix(needle, false);
  const wordEnd = word || whole || wordStart || openAfter ? null : wordAffix(needle, true);
  return {
    key,
    needle,
    caseSensitive,
    spansWhitespace: needle.includes(' '),
    word,
    wholeWord: whole === null ? null : wordKey(whole),
    wordStart,
    wordEnd,
    edgeBefore,
    edgeAfter,
    answeredFor: 0,
    answer: false,
  };
}

/** A required term appears as whole words. */
export function requiredTermPattern(entry: string, caseSensitive: boolean): TermPattern | null {
  return compile(entry, caseSensitive, false, false);
}

/**
 * `foo*` is a word starting with foo, `*bar` one ending with bar, `*mid*` one
 * containing mid. An entry that is nothing but stars names no text and is
 * dropped (null) rather than excluding every post.
 */
export function excludedTermPattern(entry: string, caseSensitive: boolean): TermPattern | null {
  const trimmed = entry.trim();
  const openBefore = trimmed.startsWith('*');
  const openAfter = trimmed.endsWith('*');
  return compile(trimmed.replace(/^\*+|\*+$/gu, ''), caseSensitive, openBefore, openAfter);
}

/**
 * One pattern object per distinct key for everything compiled with it (the
 * matcher's keywords and workspace filters): "hiring" excluded by a keyword
 * and by its workspace is then looked for once per post, and a pattern many
 * keywords share stays warm in the processor's cache.
 */
export class PatternPool {
  private readonly patterns = new Map<string, TermPattern>();

  intern(pattern: TermPattern): TermPattern {
    const known = this.patterns.get(pattern.key);
    if (known) return known;
    this.patterns.set(pattern.key, pattern);
    return pattern;
  }
}

/**
 * A rule's patterns as the engine checks them: those with a gate first, a
 * word the post must hold whole for the pattern to occur (its `word`, else its
 * `wholeWord`), whose signatures lie in one flat array. A post's words answer
 * most gates from the signatures alone, so a keyword's absent terms are
 * passed over without reading their pattern objects, cold in the processor's
 * cache when many keywords are checked.
 */
export interface PatternList {
  readonly patterns: readonly TermPattern[];
  /** gates[i]: the signature of patterns[i]'s gate word; the patterns past gates.length have none. */
  readonly gates: Int32Array;
}

/** Most keywords have no required or no excluded terms: they share this one. */
const NO_PATTERNS: PatternList = { patterns: [], gates: new Int32Array(0) };

export function patternList(patterns: readonly TermPattern[]): PatternList {
  if (patterns.length === 0) return NO_PATTERNS;
  const gateOf = (pattern: TermPattern) => pattern.word ?? pattern.wholeWord;
  const gated = patterns.filter((pattern) => gateOf(pattern) !== null);
  return {
    patterns: [...gated, ...patterns.filter((pattern) => gateOf(pattern) === null)],
    gates: Int32Array.from(gated, (pattern) => gateOf(pattern)!.signature),
  };
}

export function compilePatterns(
  entries: readonly string[],
  caseSensitive: boolean,
  compileEntry: (entry: string, caseSensitive: boolean) => TermPattern | null,
  pool?: PatternPool,
): TermPattern[] {
  const compiled: TermPattern[] = [];
  for (const entry of entries) {
    const pattern = compileEntry(entry, caseSensitive);
    if (pattern) compiled.push(pool ? pool.intern(pattern) : pattern);
  }
  return compiled;
}

/**
 * Offset of the first occurrence of `needle` at or after `from` whose ends do
 * not glue onto a neighbouring word character; -1 when there is none.
 */
export function findTerm(text: string, needle: string, from: number, edgeBefore: CharClass, edgeAfter: CharClass): number {
  for (let at = text.indexOf(needle, from); at >= 0; at = text.indexOf(needle, at + 1)) {
    if (gluesTogether(edgeBefore, classBefore(text, at))) continue;
    if (gluesTogether(edgeAfter, classAt(text, at + needle.length))) continue;
    return at;
  }
  return -1;
}

/**
 * `text` is the post's NFC text, folded unless the pattern is case-sensitive,
 * and with whitespace runs collapsed when the pattern spans whitespace.
 */
export function patternOccursIn(text: string, pattern: TermPattern): boolean {
  return findTerm(text, pattern.needle, 0, pattern.edgeBefore, pattern.edgeAfter) >= 0;
}
