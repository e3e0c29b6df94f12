import { hashToken, lastTokenCheck } from './token-hash.ts';
import { tokenSignature } from './token-signature.ts';
import { classAt, SEPARATOR, TRAIL, WORD_CHAR } from './unicode-words.ts';

/**
 * Terms are matched as sequences of tokens: a run of word characters is one
 * token, any other non-space character (a symbol, or a letter of a script
 * written without spaces) is a token of its own, and whitespace only marks
 * that the next token stands apart. Whole-word matching then comes for free
 * ("rust" is not a token of "rustic"), while "ASP.NET" still holds ".NET" and
 * "東京に" holds "東京".
 */
export interface TokenizedPattern {
  tokens: string[];
  /** spaced[i]: whitespace stands before tokens[i] (always false for the first). */
  spaced: boolean[];
}

/** Code units of the character at `index`: 2 for a surrogate pair. */
export function charWidth(text: string, index: number): number {
  const code = text.charCodeAt(index);
  if (code < 0xd800 || code > 0xdbff) return 1;
  const next = text.charCodeAt(index + 1);
  return next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
}

/** The tokens of a pattern, read the way TermIndex.scan reads a post. */
export function tokenizePattern(pattern: string): TokenizedPattern {
  const tokens: string[] = [];
  const spaced: boolean[] = [];
  let pendingSpace = false;
  let index = 0;
  while (index < pattern.length) {
    const charClass = classAt(pattern, index);
    if (charClass === SEPARATOR) {
      pendingSpace = tokens.length > 0;
      index++;
      continue;
    }
    let end = index + charWidth(pattern, index);
    if (charClass === WORD_CHAR) {
      while (end < pattern.length) {
        const next = classAt(pattern, end);
        if (next !== WORD_CHAR && next !== TRAIL) break;
        end++;
      }
    }
    tokens.push(pattern.slice(index, end));
    spaced.push(pendingSpace);
    pendingSpace = false;
    index = end;
  }
  return { tokens, spaced };
}

const MIN_FILTER_BITS_LOG2 = 15;
/** 32 KB, a first-level cache; past some 16,000 tokens more of them get past the filter instead. */
const MAX_FILTER_BITS_LOG2 = 18;
/** About 1% of tokens outside the vocabulary get past the filter at this size, two bits set per token. */
const FILTER_BITS_PER_TOKEN = 16;

/** The filter's second bit for a signature: its low half turned to the top, where the first bit is read. */
const secondBitOf = (signature: number) => (signature << 16) | (signature >>> 16);
const EMPTY = -1;

function emptySlots(count: number): Int32Array {
  const slots = new Int32Array(count * 4);
  for (let slot = 0; slot < count; slot++) slots[slot * 4 + 2] = EMPTY;
  return slots;
}

/**
 * Every distinct token of the indexed patterns, with an id each. A post's
 * token is first checked against a bit filter of token signatures, small
 * enough to stay in the processor's cache, which turns away almost every
 * token no pattern holds; the rest are hashed and looked up in an
 * open-addressed table.
 */
export class TokenVocabulary {
  private readonly ids = new Map<string, number>();
  private readonly texts: string[] = [];
  private filterShift = 32 - MIN_FILTER_BITS_LOG2;
  private filter = new Int32Array(1 << (MIN_FILTER_BITS_LOG2 - 5));
  /** Slot i holds [hash, check, id, unused] at 4i: one probe reads one cache line. */
  private slots = emptySlots(1 << 10);
  private mask = (1 << 10) - 1;
  /** Ids of the one-character ASCII tokens ("." of ".NET", "+" of "C++"), by code: posts hold them at every sentence's end. */
  private readonly asciiIds = new Int32Array(128).fill(EMPTY);

  get size(): number {
    return this.texts.length;
  }

  intern(token: string): number {
    const known = this.ids.get(token);
    if (known !== undefined) return known;
    const id = this.texts.length;
    this.texts.push(token);
    this.ids.set(token, id);
    if (token.length === 1 && token.charCodeAt(0) < 128) this.asciiIds[token.charCodeAt(0)] = id;
    if (this.texts.length * FILTER_BITS_PER_TOKEN > this.filter.length * 32 && this.filterShift > 32 - MAX_FILTER_BITS_LOG2) this.growFilter();
    else this.addToFilter(token);
    if (this.texts.length * 2 > this.mask + 1) this.growTable();
    else this.place(hashToken(token, 0, token.length), lastTokenCheck(), id);
    return id;
  }

  /** False when no pattern holds a token of this tokenSignature; true for most tokens that some pattern holds. */
  mayHold(signature: number): boolean {
    const { filter, filterShift } = this;
    const first = signature >>> filterShift;
    if ((filter[first >>> 5] & (1 << (first & 31))) === 0) return false;
    const second = secondBitOf(signature) >>> filterShift;
    return (filter[second >>> 5] & (1 << (second & 31))) !== 0;
  }

  /** Id of the one-character token of this ASCII code (below 128); -1 when no pattern holds it. */
  asciiId(code: number): number {
    return this.asciiIds[code];
  }

  /** Id of the token text[start, end), whose tokenSignature is `signature`; -1 when no pattern holds it. */
  find(text: string, start: number, end: number, signature: number): number {
    if (!this.mayHold(signature)) return EMPTY;
    const hash = hashToken(text, start, end);
    const check = lastTokenCheck();
    const { slots, mask } = this;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const at = slot << 2;
      if (slots[at + 2] === EMPTY || (slots[at] === hash && slots[at + 1] === check)) return slots[at + 2];
    }
  }

  private addToFilter(token: string) {
    const signature = tokenSignature(token, 0, token.length);
    for (const bit of [signature >>> this.filterShift, secondBitOf(signature) >>> this.filterShift]) this.filter[bit >>> 5] |= 1 << (bit & 31);
  }

  private growFilter() {
    this.filterShift--;
    this.filter = new Int32Array(this.filter.length * 2);
    for (const token of this.texts) this.addToFilter(token);
  }

  private place(hash: number, second: number, id: number) {
    let slot = hash & this.mask;
    while (this.slots[(slot << 2) + 2] !== EMPTY) slot = (slot + 1) & this.mask;
    this.slots.set([hash, second, id], slot << 2);
  }

  private growTable() {
    const size = (this.mask + 1) * 2;
    this.slots = emptySlots(size);
    this.mask = size - 1;
    this.texts.forEach((token, id) => this.place(hashToken(token, 0, token.length), lastTokenCheck(), id));
  }
}
