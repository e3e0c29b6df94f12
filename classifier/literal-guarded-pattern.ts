import { alternativesOf, mayBeEmpty, type Token, tokenize } from './unicode-word-boundaries.ts';

/** A guard shorter than this is in nearly every post: the alternative goes to the unguarded pattern. */
const shortestGuard = 3;
/** A backslash before a character that is no letter or digit makes it that character ("\.", "\?", "\-"). */
const escapedCharacter = /^\\[^\p{L}\p{N}]$/u;
/** Backreferences count the groups of the whole pattern: such a pattern is not taken apart. */
const backreference = /^\\(?:[1-9]|k)/u;

interface GuardedAlternative {
  /** Every match holds one of these literals, each given as the hashes of its three-character runs. */
  guard: readonly Uint16Array[];
  pattern: RegExp;
}

/** A hash of three UTF-16 code units, 0 to 65,535. */
const trigramHash = (first: number, second: number, third: number) => ((first << 10) ^ (second << 5) ^ third) & 0xffff;

function trigramHashes(literal: string): Uint16Array {
  const hashes = new Uint16Array(literal.length - 2);
  for (let index = 0; index < hashes.length; index++) hashes[index] = trigramHash(literal.charCodeAt(index), literal.charCodeAt(index + 1), literal.charCodeAt(index + 2));
  return hashes;
}

/**
 * The three-character runs of the text last tested, as bits by their hash:
 * a literal can occur in it only where every run of the literal's has its
 * bit set. Every guarded pattern tests the same few texts one after another
 * (a post's lower-cased text), so the bits are set once per text.
 */
const textTrigrams = new Uint32Array(65_536 / 32);
let trigramsText: string | null = null;

function readTrigrams(text: string): void {
  if (text === trigramsText) return;
  textTrigrams.fill(0);
  let first = text.charCodeAt(0);
  let second = text.charCodeAt(1);
  for (let index = 2; index < text.length; index++) {
    const third = text.charCodeAt(index);
    const hash = trigramHash(first, second, third);
    textTrigrams[hash >>> 5] |= 1 << (hash & 31);
    first = second;
    second = third;
  }
  trigramsText = text;
}

/** Whether the text last read may hold one of the literals. */
function mayHoldOne(guard: readonly Uint16Array[]): boolean {
  for (let literal = 0; literal < guard.length; literal++) {
    const hashes = guard[literal];
    let index = 0;
    while (index < hashes.length && (textTrigrams[hashes[index] >>> 5] & (1 << (hashes[index] & 31))) !== 0) index++;
    if (index === hashes.length) return true;
  }
  return false;
}

/** The set whose shortest string is the longest, then the one with fewer strings. */
function sharper(candidate: readonly string[], best: readonly string[] | null): boolean {
  if (best === null) return true;
  const shortest = (set: readonly string[]) => Math.min(...set.map((text) => text.length));
  return shortest(candidate) > shortest(best) || (shortest(candidate) === shortest(best) && candidate.length < best.length);
}

/**
 * Strings one of which every match of the tokens between `start` and `end`
 * holds, or null where none is known: a run of literal characters (read
 * through look-arounds, anchors and `\b`, which match no character), or for a
 * group every match of which passes through one of its alternatives, the
 * strings of all of them.
 */
function guardBetween(tokens: Token[], start: number, end: number): string[] | null {
  let best: string[] | null = null;
  const consider = (set: string[] | null) => {
    if (set !== null && sharper(set, best)) best = set;
  };
  let run = '';
  for (let index = start; index < end; index++) {
    const token = tokens[index];
    if (token.kind === 'lookaround') {
      index = token.partner;
      continue;
    }
    if (token.kind === 'anchor' || token.text === '\\b' || token.text === '\\B') continue;
    const quantifier = tokens[token.kind === 'open' ? token.partner + 1 : index + 1];
    const character = token.kind === 'literal' && token.text !== '.' ? token.text : token.kind === 'escape' && escapedCharacter.test(token.text) ? token.text.slice(1) : null;
    if (character !== null && quantifier?.kind !== 'quantifier') {
      run += character;
      continue;
    }
    if (run !== '') consider([run]);
    run = '';
    if (token.kind === 'open') {
      if (!mayBeEmpty(quantifier)) {
        const sets = alternativesOf(tokens, index, token.partner).map(([from, to]) => guardBetween(tokens, from, to));
        if (sets.every((set) => set !== null)) consider([...new Set(sets.flat())]);
      }
      index = token.partner;
    }
  }
  if (run !== '') consider([run]);
  return best;
}

/**
 * A pattern tested one top-level alternative at a time, each only on text
 * that may hold a literal every match of it holds (`guardBetween`, read by
 * the text's three-character runs, `readTrigrams`): irregexp tries every
 * alternative of a long list ("vs", "compared to", "schlägt", "より") at
 * every position of a post, where a few bit tests settle most posts
 * without it. The alternatives with no literal of three characters stay
 * one pattern. Answers as the pattern does (a match of an alternation is a
 * match of one alternative); `search` gives the same first index.
 */
export class LiteralGuardedPattern {
  private readonly guarded: GuardedAlternative[] = [];
  private readonly unguarded: RegExp | null;

  /** `wrap` writes each alternative into the pattern it is tried as (`alternative` alone by default). */
  constructor(pattern: RegExp, wrap = (alternative: string) => alternative) {
    const tokens = tokenize(pattern.source);
    if (pattern.ignoreCase || tokens.some((token) => token.kind === 'escape' && backreference.test(token.text))) {
      this.unguarded = new RegExp(wrap(pattern.source), pattern.flags);
      return;
    }
    const rest: string[] = [];
    const sourceOf = (start: number, end: number) => tokens.slice(start, end).map((token) => token.text).join('');
    const split = (open: number, close: number) => {
      for (const [from, to] of alternativesOf(tokens, open, close)) {
        // An alternative that is one group, unrepeated, is its own alternatives.
        if (to - from > 1 && tokens[from].kind === 'open' && tokens[from].partner === to - 1) {
          split(from, to - 1);
          continue;
        }
        const guard = guardBetween(tokens, from, to);
        if (guard === null || guard.some((text) => text.length < shortestGuard)) rest.push(sourceOf(from, to));
        else this.guarded.push({ guard: guard.map(trigramHashes), pattern: new RegExp(wrap(sourceOf(from, to)), pattern.flags) });
      }
    };
    split(-1, tokens.length);
    this.unguarded = rest.length === 0 ? null : new RegExp(wrap(rest.join('|')), pattern.flags);
  }

  /** The patterns of the alternatives the text may match, the unguarded one last. */
  candidates(text: string): RegExp[] {
    readTrigrams(text);
    const found: RegExp[] = [];
    for (const { guard, pattern } of this.guarded) if (mayHoldOne(guard)) found.push(pattern);
    if (this.unguarded !== null) found.push(this.unguarded);
    return found;
  }

  /** Whether the pattern (neither global nor sticky) matches anywhere in the text. */
  test(text: string): boolean {
    readTrigrams(text);
    for (const { guard, pattern } of this.guarded) {
      if (mayHoldOne(guard) && pattern.test(text)) return true;
    }
    return this.unguarded !== null && this.unguarded.test(text);
  }

  /** Where the pattern's first match begins, -1 where there is none (as `text.search(pattern)`; neither global nor sticky). */
  search(text: string): number {
    let first = this.unguarded === null ? -1 : text.search(this.unguarded);
    readTrigrams(text);
    for (const { guard, pattern } of this.guarded) {
      if (!mayHoldOne(guard)) continue;
      const index = text.search(pattern);
      if (index >= 0 && (first < 0 || index < first)) first = index;
    }
    return first;
  }
}
