/**
 * Words of another language that share their stem with an English word of
 * a keyword's description: "amplificador" and "amplifier", "nébuleuse" and
 * "nebula", "méditations" and "meditation", "detergente" and "detergent".
 * European languages write most names of things made or studied since
 * Latin with the English word's stem, and the glossary holds only some 150
 * general concepts, so a post in German, Spanish or French that names the
 * sense (or a sense the context rules out) in such a word was read as
 * naming nothing. Japanese borrows the same words by their sound, in
 * katakana (`katakana-loanwords.ts`): "ワークフロー" is a workflow.
 */
import { englishSkeleton, katakanaSkeleton } from './katakana-loanwords.ts';

const minStem = 5;
/** The shared start must cover this much of the shorter word: "compagnie" is not "compare". */
const minShare = 0.6;

/** A word without its accents: "nébuleuse" → "nebuleuse". */
function unaccented(word: string): string {
  return /[^\u0000-\u007f]/u.test(word) ? word.normalize('NFD').replace(/\p{M}/gu, '') : word;
}

export class CognateIndex {
  private readonly byStem = new Map<string, string[]>();
  private readonly bySound = new Map<string, string>();

  constructor(words: Iterable<string>) {
    for (const word of words) {
      const sound = englishSkeleton(word);
      if (sound !== null && !this.bySound.has(sound)) this.bySound.set(sound, word);
      if (word.length < minStem || !/^[a-z]+$/u.test(word)) continue;
      const stem = word.slice(0, minStem);
      const family = this.byStem.get(stem) ?? [];
      family.push(word);
      this.byStem.set(stem, family);
    }
  }

  /** The English word `word` shares its stem with, or null. */
  cognateOf(word: string): string | null {
    const sound = katakanaSkeleton(word);
    if (sound !== null) return this.bySound.get(sound) ?? null;
    if (word.length < minStem) return null;
    const plain = unaccented(word);
    for (const english of this.byStem.get(plain.slice(0, minStem)) ?? []) {
      let shared = minStem;
      while (shared < plain.length && shared < english.length && plain[shared] === english[shared]) shared++;
      if (shared >= minShare * Math.min(plain.length, english.length)) return english;
    }
    return null;
  }
}
