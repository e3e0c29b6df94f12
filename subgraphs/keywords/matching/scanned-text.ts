import { AFFIX_BUCKET_BITS, AFFIX_BUCKET_UNITS, affixBucket, type WordAffix } from './word-affix.ts';
import type { WordKey, WordLookup } from './word-set.ts';

const SIGNATURE_BUCKET_BITS = 10;
/** Restarting the scan numbers long before Int32 overflows. */
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
  /** Numbers the scans, so that chains know which scan they were made for. */
  private scan = 0;
  /** Word i's start, end and signature at 3i, 3i + 1 and 3i + 2: the scan writes each word to one place. */
  private words = new Int32Array(3 * 256);
  private count = 0;
  private readonly bySignature = new WordChains(SIGNATURE_BUCKET_BITS);
  /**
   * The words chained by their first and by their last AFFIX_BUCKET_UNITS
   * code units: a post checked for wildcard terms ("hiring*", "*bot") is
   * usually checked for many (every workspace of a popular term has its
   * own), each otherwise a search of the whole text.
   */
  private readonly byStart = new WordChains(AFFIX_BUCKET_BITS);
  private readonly byEnd = new WordChains(AFFIX_BUCKET_BITS);

  reset(text: string) {
    // A word is at least one code unit followed by one that ends it: add() then never checks for room.
    const mostWords = (text.length >> 1) + 1;
    if (3 * mostWords > this.words.length) this.words = new Int32Array(3 * Math.max(mostWords, (2 * this.words.length) / 3));
    this.text = text;
    this.singleSpaced = true;
    this.count = 0;
    if (++this.scan < MAX_SCAN) return;
    this.scan = 1;
    for (const chains of [this.bySignature, this.byStart, this.byEnd]) chains.madeFor = 0;
  }

  /** At most one word per two code units of the text reset() took. */
  add(start: number, end: number, signature: number) {
    const at = 3 * this.count++;
    const { words } = this;
    words[at] = start;
    words[at + 1] = end;
    words[at + 2] = signature;
  }

  /**
   * False when no word of the text has this tokenSignature; true for any word
   * that does, and for the rare other word sharing its signature. The whole
   * signature is compared, not only its bucket: with some 200 words in 1,024
   * buckets, one absent word in five would otherwise get past.
   */
  mayHold(signature: number): boolean {
    const chains = this.signatureChains();
    for (let word = chains.first(signature >>> (32 - SIGNATURE_BUCKET_BITS)); word >= 0; word = chains.next[word]) {
      if (this.words[3 * word + 2] === signature) return true;
    }
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
    const chains = this.signatureChains();
    const { words } = this;
    const length = key.text.length;
    for (let word = chains.first(key.signature >>> (32 - SIGNATURE_BUCKET_BITS)); word >= 0; word = chains.next[word]) {
      const at = 3 * word;
      if (words[at + 2] === key.signature && words[at + 1] - words[at] === length && text.startsWith(key.text, words[at])) return true;
    }
    return false;
  }

  /**
   * False when no word of the text starts with `affix`; true when one does.
   * Whole words, as the scan cut them, so only an affix of ASCII letters and
   * digits (WordAffix) is asked about.
   */
  hasWordStarting(affix: WordAffix): boolean {
    const { byStart: chains, text, words } = this;
    if (chains.madeFor !== this.scan) {
      chains.begin(this.scan, this.count);
      for (let word = 0, at = 0; word < this.count; word++, at += 3) if (words[at + 1] - words[at] >= AFFIX_BUCKET_UNITS) chains.link(word, affixBucket(text, words[at]));
    }
    for (let word = chains.first(affix.bucket); word >= 0; word = chains.next[word]) {
      const at = 3 * word;
      if (words[at + 1] - words[at] >= affix.text.length && text.startsWith(affix.text, words[at])) return true;
    }
    return false;
  }

  /** hasWordStarting for the end of a word. */
  hasWordEnding(affix: WordAffix): boolean {
    const { byEnd: chains, text, words } = this;
    if (chains.madeFor !== this.scan) {
      chains.begin(this.scan, this.count);
      for (let word = 0, at = 0; word < this.count; word++, at += 3) if (words[at + 1] - words[at] >= AFFIX_BUCKET_UNITS) chains.link(word, affixBucket(text, words[at + 1] - AFFIX_BUCKET_UNITS));
    }
    for (let word = chains.first(affix.bucket); word >= 0; word = chains.next[word]) {
      const at = 3 * word;
      if (words[at + 1] - words[at] >= affix.text.length && text.startsWith(affix.text, words[at + 1] - affix.text.length)) return true;
    }
    return false;
  }

  /** The words chained by signature, made on the first question of a scan. */
  private signatureChains(): WordChains {
    const chains = this.bySignature;
    if (chains.madeFor === this.scan) return chains;
    chains.begin(this.scan, this.count);
    const { words } = this;
    for (let word = 0; word < this.count; word++) chains.link(word, words[3 * word + 2] >>> (32 - SIGNATURE_BUCKET_BITS));
    return chains;
  }
}

/**
 * A scan's words chained by a bucket number. The heads are cleared when a
 * scan's chains are begun, not stamped with the scan: linking a word then
 * reads no stamp, whose test (in a random bucket) the processor would
 * mispredict word after word.
 */
class WordChains {
  /** The scan whose words are chained. */
  madeFor = 0;
  next = new Int32Array(256);
  private readonly head: Int32Array;

  constructor(bits: number) {
    this.head = new Int32Array(1 << bits);
  }

  begin(scan: number, words: number) {
    if (words > this.next.length) this.next = new Int32Array(Math.max(words, this.next.length * 2));
    this.head.fill(-1);
    this.madeFor = scan;
  }

  link(word: number, bucket: number) {
    this.next[word] = this.head[bucket];
    this.head[bucket] = word;
  }

  first(bucket: number): number {
    return this.head[bucket];
  }
}
