import { hashToken, lastTokenCheck } from './token-hash.ts';
import { tokenSignature } from './token-signature.ts';
import { classAt, foldCase, TRAIL, WORD_CHAR } from './unicode-words.ts';

/** A one-word pattern's hashes, made once when the pattern is compiled. */
export interface WordKey {
  text: string;
  hash: number;
  check: number;
  /** See tokenSignature: what the term index's scan chains a post's words by, so of the word folded, as the scan reads it. */
  signature: number;
}

export function wordKey(word: string): WordKey {
  const folded = foldCase(word);
  return { text: word, hash: hashToken(word, 0, word.length), check: lastTokenCheck(), signature: tokenSignature(folded, 0, folded.length) };
}

/** Whether a text holds a word, as a whole word. */
export interface WordLookup {
  has(key: WordKey): boolean;
}

const EMPTY_CHECK = 0;

/**
 * The runs of word characters in a text, as a hash set: most required and
 * excluded terms are one word, and a post that many keywords check answers
 * each of them with one lookup instead of one search of its text.
 */
export class WordSet implements WordLookup {
  /** Pairs [hash, check]; a check of 0 marks an empty slot, so stored checks are never 0. */
  private readonly slots: Int32Array;
  private readonly mask: number;

  constructor(text: string) {
    // More slots than characters: never fuller than half, since words are at most every other character.
    let size = 16;
    while (size <= text.length) size *= 2;
    this.slots = new Int32Array(size * 2);
    this.mask = size - 1;
    let runStart = -1;
    for (let index = 0; index < text.length; index++) {
      const charClass = classAt(text, index);
      if (charClass === WORD_CHAR || (charClass === TRAIL && runStart >= 0)) {
        if (runStart < 0) runStart = index;
        continue;
      }
      if (runStart >= 0) this.add(text, runStart, index);
      runStart = -1;
    }
    if (runStart >= 0) this.add(text, runStart, text.length);
  }

  has(key: WordKey): boolean {
    const check = key.check || 1;
    for (let slot = key.hash & this.mask; ; slot = (slot + 1) & this.mask) {
      const stored = this.slots[slot * 2 + 1];
      if (stored === EMPTY_CHECK) return false;
      if (stored === check && this.slots[slot * 2] === key.hash) return true;
    }
  }

  private add(text: string, start: number, end: number) {
    const hash = hashToken(text, start, end);
    const check = lastTokenCheck() || 1;
    for (let slot = hash & this.mask; ; slot = (slot + 1) & this.mask) {
      const stored = this.slots[slot * 2 + 1];
      if (stored === check && this.slots[slot * 2] === hash) return;
      if (stored === EMPTY_CHECK) {
        this.slots[slot * 2] = hash;
        this.slots[slot * 2 + 1] = check;
        return;
      }
    }
  }
}
