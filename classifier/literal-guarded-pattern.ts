import { TrigramGuards } from './trigram-guards.ts';
import { alternativesOf, mayBeEmpty, type Token, tokenize } from './unicode-word-boundaries.ts';

/** A guard shorter than this is in nearly every post: the alternative goes to the unguarded pattern. */
const shortestGuard = 3;
/** A backslash before a character that is no letter or digit makes it that character ("\.", "\?", "\-"). */
const escapedCharacter = /^\\[^\p{L}\p{N}]$/u;
/** Backreferences count the groups of the whole pattern: such a pattern is not taken apart. */
const backreference = /^\\(?:[1-9]|k)/u;

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
 * the text's three-character runs, `TrigramGuards`): irregexp tries every
 * alternative of a long list ("vs", "compared to", "schlägt", "より") at
 * every position of a post, where a few bit tests settle most posts
 * without it. The alternatives with no literal of three characters stay
 * one pattern. Answers as the pattern does (a match of an alternation is a
 * match of one alternative); `search` gives the same first index.
 */
export class LiteralGuardedPattern {
  private readonly guards: TrigramGuards;
  private readonly guarded: RegExp[] = [];
  private readonly unguarded: RegExp | null;

  /** `wrap` writes each alternative into the pattern it is tried as (`alternative` alone by default). */
  constructor(pattern: RegExp, wrap = (alternative: string) => alternative) {
    const tokens = tokenize(pattern.source);
    const guards: string[][] = [];
    if (pattern.ignoreCase || tokens.some((token) => token.kind === 'escape' && backreference.test(token.text))) {
      this.guards = new TrigramGuards(guards);
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
        else {
          guards.push(guard);
          this.guarded.push(new RegExp(wrap(sourceOf(from, to)), pattern.flags));
        }
      }
    };
    split(-1, tokens.length);
    this.guards = new TrigramGuards(guards);
    this.unguarded = rest.length === 0 ? null : new RegExp(wrap(rest.join('|')), pattern.flags);
  }

  /**
   * The patterns of the alternatives the text may match, the unguarded one
   * last. `within`, a text that holds `text` (a post for one of its
   * sentences), is read for the literals instead: it holds every run `text`
   * does, so no alternative that may match is left out, and the literals of
   * one text are found once for all its parts.
   */
  candidates(text: string, within = text): RegExp[] {
    const found = this.guards.passing(within).map((alternative) => this.guarded[alternative]);
    if (this.unguarded !== null) found.push(this.unguarded);
    return found;
  }

  /** Whether the pattern (neither global nor sticky) matches anywhere in the text; `within` as for `candidates`. */
  test(text: string, within = text): boolean {
    for (const alternative of this.guards.passing(within)) if (this.guarded[alternative].test(text)) return true;
    return this.unguarded !== null && this.unguarded.test(text);
  }

  /** Where the pattern's first match begins, -1 where there is none (as `text.search(pattern)`; neither global nor sticky). */
  search(text: string): number {
    let first = this.unguarded === null ? -1 : text.search(this.unguarded);
    for (const alternative of this.guards.passing(text)) {
      const index = text.search(this.guarded[alternative]);
      if (index >= 0 && (first < 0 || index < first)) first = index;
    }
    return first;
  }
}
