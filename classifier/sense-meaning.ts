import { stopWords } from '../vocabulary/stop-words.ts';
import { foldWord } from './content-words.ts';
import type { WordVectors } from './word-vectors.ts';

/**
 * Words this frequent ("make", "year", "else") lie near everything in the
 * vector space and say nothing of a post's topic: the 1,000 most frequent
 * words of the table are left out of every reading.
 */
const commonestWords = 1000;
/**
 * Cosines under this are what any two words of the table share; only the
 * part above it says that a word is near another.
 */
const kinshipFloor = 0.2;
/** How far one word leans a post toward or away from the sense, at most (a cosine difference). */
const leaningCap = 0.3;
/**
 * A term whose own vector lies this far from the sense (cosine with the
 * sense words' centroid under this) is mostly used for something else in
 * general text: "Kafka" is a writer before a streaming platform, "Apollo" a
 * space programme before a GraphQL server.
 */
const otherSenseAffinity = 0.3;
/** Words past this rank are too rare for their vectors to say what the term usually means. */
const usualMeaningWords = 30_000;
/** A word leaning more than this either way is named in the note. */
const noteworthyLeaning = 0.1;
/** Words remembered per sense: posts repeat their words, and a word's leaning costs some twenty cosines. */
const maxRemembered = 20_000;

interface LeaningWord {
  word: string;
  leaning: number;
}

function strongest(leaned: LeaningWord[]): string[] {
  return leaned.sort((a, b) => b.leaning - a.leaning).slice(0, 3).map((item) => item.word);
}

export interface MeaningReading {
  /** Sum of the post's words' leanings: positive toward the sense, negative toward another. */
  leaning: number;
  /** The words that leaned most, toward the sense and away from it. */
  toward: string[];
  away: string[];
}

/**
 * The words of a description that a post's words are measured against: in
 * the table, not function words, not the term's own in any inflection
 * ("machines" of "Time Machine": the term itself is no sense of it).
 * Frequent words count here ("game" in "not the video game"): the user
 * chose them.
 */
function meaningfulIds(vectors: WordVectors, words: Iterable<string>, termWords: ReadonlySet<string>): number[] {
  const ids = new Set<number>();
  for (const word of words) {
    if (word.length < 2 || stopWords.has(word) || termWords.has(word) || termWords.has(foldWord(word))) continue;
    const id = vectors.idOf(word);
    if (id >= 0) ids.add(id);
  }
  return [...ids];
}

/**
 * The meaning of a keyword's sense in word-vector space: the words of its
 * context, group description and company profile, the words the user ruled
 * out ("not the video game"), and the term's own vector, which stands for
 * what the term means in general text. A post's word leans toward the sense
 * by how much nearer it lies to the nearest sense word than to the term and
 * the ruled-out words: "borrow" and "compiler" lean a post on Rust toward
 * the language, "mildew" and "bike" toward corrosion, with no list of
 * either written anywhere.
 */
export class SenseMeaning {
  /** The cosine of the term's vector and the sense's centroid; null when either is unknown. */
  readonly termAffinity: number | null;
  /** What the term usually means, when that is not the sense: its nearest words ("mildew, stain"). */
  readonly usualMeaning: string[];
  private readonly sense: number[];
  private readonly other: number[];
  private readonly leanings = new Map<string, number>();

  constructor(
    private readonly vectors: WordVectors,
    description: { termWords: ReadonlySet<string>; term: string | null; senseWords: Iterable<string>; offSenseWords: Iterable<string> },
  ) {
    this.sense = meaningfulIds(vectors, description.senseWords, description.termWords);
    const term = description.term === null ? -1 : vectors.idOf(description.term);
    const ruledOut = meaningfulIds(vectors, description.offSenseWords, description.termWords).filter((id) => !this.sense.includes(id));
    const centroid = vectors.centroid(this.sense);
    this.termAffinity = term >= 0 && centroid ? vectors.similarityTo(term, centroid) : null;
    // The term's vector stands for what general text means by it: another
    // sense only where it lies away from this one ("crocs" are the clogs
    // before the reptiles; words near them lean toward the sense, not away).
    const termMeansOther = term >= 0 && (this.termAffinity === null || this.termAffinity < otherSenseAffinity);
    this.other = termMeansOther ? [term, ...ruledOut] : ruledOut;
    this.usualMeaning = this.termAffinity !== null && this.termAffinity < otherSenseAffinity ? this.nearestWords(term, 3) : [];
  }

  /** The word is in the vector table: general text uses it. */
  knows(word: string): boolean {
    return this.vectors.idOf(word) >= 0;
  }

  /** The term is mostly used for something else than the sense in general text. */
  get usuallyMeansOtherThing(): boolean {
    return this.usualMeaning.length > 0;
  }

  /** The words nearest the term that lie near no sense word: what else it means. */
  private nearestWords(term: number, count: number): string[] {
    const nearest: { id: number; similarity: number }[] = [];
    const limit = Math.min(usualMeaningWords, this.vectors.size);
    for (let id = commonestWords; id < limit; id++) {
      if (id === term) continue;
      const similarity = this.vectors.similarity(term, id);
      if (nearest.length < 4 * count || similarity > nearest[nearest.length - 1].similarity) {
        nearest.push({ id, similarity });
        nearest.sort((a, b) => b.similarity - a.similarity);
        if (nearest.length > 4 * count) nearest.pop();
      }
    }
    return nearest
      .filter(({ id }) => this.sense.every((sense) => this.vectors.similarity(id, sense) < otherSenseAffinity))
      .slice(0, count)
      .map(({ id }) => this.vectors.wordOf(id));
  }

  /** -0.3 to 0.3: how much nearer the word lies to the sense than to the term's other meanings; 0 for a word the table lacks. */
  leaningOf(word: string): number {
    let leaning = this.leanings.get(word);
    if (leaning !== undefined) return leaning;
    leaning = 0;
    const id = this.sense.length === 0 || word.length < 2 || stopWords.has(word) ? -1 : this.vectors.idOf(word);
    if (id >= commonestWords) {
      let toward = -1;
      for (const sense of this.sense) toward = Math.max(toward, this.vectors.similarity(id, sense));
      let away = 0;
      for (const other of this.other) away = Math.max(away, this.vectors.similarity(id, other));
      leaning = Math.max(-leaningCap, Math.min(leaningCap, Math.max(0, toward - kinshipFloor) - Math.max(0, away - kinshipFloor)));
    }
    if (this.leanings.size >= maxRemembered) this.leanings.clear();
    this.leanings.set(word, leaning);
    return leaning;
  }

  /**
   * The leanings of a post's distinct words (lower case, as `wordsOf` reads
   * them), summed; `skipped` words (the term's own, in any inflection:
   * "rings" of "Ring") lean nothing, and `towardOnly` words lean toward the
   * sense or nothing.
   */
  read(words: readonly string[], skipped: ReadonlySet<string>, towardOnly: (word: string) => boolean): MeaningReading {
    let leaning = 0;
    const seen = new Set<string>();
    const toward: LeaningWord[] = [];
    const away: LeaningWord[] = [];
    for (const word of words) {
      if (seen.has(word) || skipped.has(word) || skipped.has(foldWord(word))) continue;
      seen.add(word);
      let value = this.leaningOf(word);
      if (value < 0 && towardOnly(word)) value = 0;
      leaning += value;
      if (value > noteworthyLeaning) toward.push({ word, leaning: value });
      else if (value < -noteworthyLeaning) away.push({ word, leaning: -value });
    }
    return { leaning, toward: strongest(toward), away: strongest(away) };
  }
}
