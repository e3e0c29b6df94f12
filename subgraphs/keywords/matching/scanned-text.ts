import { grownTo } from './grown-array.ts';
import type { WordKey, WordLookup } from './word-set.ts';

const BUCKET_BITS = 10;
/** Restarting the stamps long before Int32 overflows. */
const MAX_SCAN = 1 << 30;

/**
 * What the term index's scan learnt of the folded text it read last, valid
 * until its next scan. The scan lists its words (runs of word characters)
 * with the token signature it computes for each anyway; the first rule that
 * asks about a word chains them by signature. Most posts have no candidate
 * keyword with a rule to check, so they never pay for the chains, and those
 * that do answer a rule's one-word term with a few loads instead of hashing
 * every word of the post again into a WordSet.
 */
export class ScannedText implements WordLookup {
  /**
   * No whitespace but single spaces: collapsing whitespace runs would give
   * the text back unchanged (and folding keeps whitespace, so the same holds
   * of the unfolded text).
   */
  singleSpaced = true;
  private text = '';
  private scan = 0;
  /** Words listed but not yet chained: chaining happens on the first question. */
  private chained = 0;
  private readonly headScan = new Int32Array(1 << BUCKET_BITS);
  private readonly head = new Int32Array(1 << BUCKET_BITS);
  private start = new Int32Array(256);
  private end = new Int32Array(256);
  private signature = new Int32Array(256);
  private next = new Int32Array(256);
  private count = 0;

  reset(text: string) {
    // A word is at least one code unit followed by one that ends it: add() then never checks for room.
    const mostWords = (text.length >> 1) + 1;
    if (mostWords > this.start.length) this.grow(mostWords);
    this.text = text;
    this.singleSpaced = true;
    this.count = 0;
    this.chained = 0;
    if (++this.scan < MAX_SCAN) return;
    this.headScan.fill(0);
    this.scan = 1;
  }

  /** At most one word per two code units of the text reset() took. */
  add(start: number, end: number, signature: number) {
    const word = this.count++;
    this.start[word] = start;
    this.end[word] = end;
    this.signature[word] = signature;
  }

  /**
   * False when no word of the text has this tokenSignature; true for any word
   * that does, and for the rare other word sharing its signature. The whole
   * signature is compared, not only its bucket: with some 200 words in 1,024
   * buckets, one absent word in five would otherwise get past.
   */
  mayHold(signature: number): boolean {
    if (this.chained < this.count) this.chain();
    const bucket = signature >>> (32 - BUCKET_BITS);
    if (this.headScan[bucket] !== this.scan) return false;
    for (let word = this.head[bucket]; word >= 0; word = this.next[word]) if (this.signature[word] === signature) return true;
    return false;
  }

  has(key: WordKey): boolean {
    return this.holds(key, this.text);
  }

  /**
   * Whether `original`, the text the scanned one is the folded copy of (same
   * offsets, same words), holds the word in the case it is written: a
   * case-sensitive rule answered without reading the post again.
   */
  hasCased(key: WordKey, original: string): boolean {
    return this.holds(key, original);
  }

  private holds(key: WordKey, text: string): boolean {
    if (this.chained < this.count) this.chain();
    const bucket = key.signature >>> (32 - BUCKET_BITS);
    if (this.headScan[bucket] !== this.scan) return false;
    const length = key.text.length;
    for (let word = this.head[bucket]; word >= 0; word = this.next[word]) {
      if (this.signature[word] === key.signature && this.end[word] - this.start[word] === length && text.startsWith(key.text, this.start[word])) return true;
    }
    return false;
  }

  private chain() {
    const { head, headScan, next, signature, scan } = this;
    for (let word = this.chained; word < this.count; word++) {
      const bucket = signature[word] >>> (32 - BUCKET_BITS);
      next[word] = headScan[bucket] === scan ? head[bucket] : -1;
      headScan[bucket] = scan;
      head[bucket] = word;
    }
    this.chained = this.count;
  }

  private grow(words: number) {
    const size = Math.max(words, this.start.length * 2);
    this.start = grownTo(this.start, size);
    this.end = grownTo(this.end, size);
    this.signature = grownTo(this.signature, size);
    this.next = grownTo(this.next, size);
  }
}
