/**
 * Which alternatives of a list a text may match, told by literals: each
 * alternative has literals one of which every match of it holds, and a
 * literal can occur in a text only where every one of its three-character
 * runs does. A text's runs are hashed into a 64K-bit map once
 * (`readTrigrams`); every list then tests its literals against the same map,
 * since the classifier's lists test the same few texts one after another (a
 * post's lower-cased text, the clauses of it).
 */

/** A hash of three UTF-16 code units, 0 to 65,535. */
const trigramHash = (first: number, second: number, third: number) => ((first << 10) ^ (second << 5) ^ third) & 0xffff;

/** The hashes of a literal's three-character runs. */
export function trigramHashes(literal: string): number[] {
  const hashes: number[] = [];
  for (let index = 0; index + 2 < literal.length; index++) hashes.push(trigramHash(literal.charCodeAt(index), literal.charCodeAt(index + 1), literal.charCodeAt(index + 2)));
  return hashes;
}

/** The runs of the text last read, as bits by their hash, and the distinct hashes set (to clear them, and for `byKey` look-ups). */
const textBits = new Uint32Array(65_536 / 32);
const textHashes = new Uint16Array(65_536);
let textHashCount = 0;
let textRead: string | null = null;

function readTrigrams(text: string): void {
  if (text === textRead) return;
  // Clearing only the words set costs a text's length, where clearing the map costs 8 KB.
  for (let index = 0; index < textHashCount; index++) textBits[textHashes[index] >>> 5] = 0;
  textHashCount = 0;
  let first = text.charCodeAt(0);
  let second = text.charCodeAt(1);
  for (let index = 2; index < text.length; index++) {
    const third = text.charCodeAt(index);
    const hash = trigramHash(first, second, third);
    const bit = 1 << (hash & 31);
    if ((textBits[hash >>> 5] & bit) === 0) {
      textBits[hash >>> 5] |= bit;
      textHashes[textHashCount++] = hash;
    }
    first = second;
    second = third;
  }
  textRead = text;
}

const textHas = (hash: number) => (textBits[hash >>> 5] & (1 << (hash & 31))) !== 0;

/**
 * The literals of a list's alternatives, tested against a text's runs. A
 * short list tests each literal in turn; a long one (the stance cues' 469
 * alternatives, the opinion phrases) would test hundreds where a text has
 * some hundred runs, so it also files each literal under one of its runs
 * (its key: the run fewest of the list's literals share) and, where the
 * list is longer than the text has runs, looks up the text's runs instead.
 * Either way gives the same alternatives.
 */
export class TrigramGuards {
  /** Every literal's hashes, one literal after another. */
  private readonly hashes: Uint16Array;
  /** Where each literal's hashes end in `hashes`. */
  private readonly literalEnds: Uint32Array;
  /** The alternative each literal guards. */
  private readonly literalAlternative: Uint32Array;
  private readonly alternatives: number;
  /** For a long list: the keys as bits, and the literals by key. */
  private readonly keyBits: Uint32Array | null = null;
  private readonly byKey = new Map<number, number[]>();
  /** The text on which each alternative last passed (a count of texts read by this list), so that one passing twice is listed once. */
  private readonly passedOn: Float64Array;
  private reads = 0;

  /** `guards[alternative]`: the literals, one of which every match of the alternative holds (each of three characters or more). */
  constructor(guards: readonly (readonly string[])[], indexFrom = 64) {
    const hashes: number[] = [];
    const literalEnds: number[] = [];
    const literalAlternative: number[] = [];
    const literalHashes = guards.flatMap((literals, alternative) => literals.map((literal) => ({ alternative, hashes: trigramHashes(literal) })));
    for (const literal of literalHashes) {
      hashes.push(...literal.hashes);
      literalEnds.push(hashes.length);
      literalAlternative.push(literal.alternative);
    }
    this.hashes = Uint16Array.from(hashes);
    this.literalEnds = Uint32Array.from(literalEnds);
    this.literalAlternative = Uint32Array.from(literalAlternative);
    this.alternatives = guards.length;
    this.passedOn = new Float64Array(guards.length);
    if (guards.length < indexFrom) return;
    const shared = new Map<number, number>();
    for (const literal of literalHashes) for (const hash of new Set(literal.hashes)) shared.set(hash, (shared.get(hash) ?? 0) + 1);
    this.keyBits = new Uint32Array(65_536 / 32);
    literalHashes.forEach((literal, index) => {
      const key = literal.hashes.reduce((best, hash) => (shared.get(hash)! < shared.get(best)! ? hash : best));
      this.keyBits![key >>> 5] |= 1 << (key & 31);
      const filed = this.byKey.get(key);
      if (filed) filed.push(index);
      else this.byKey.set(key, [index]);
    });
  }

  /** The alternatives the text may match, in list order. */
  passing(text: string): number[] {
    readTrigrams(text);
    const passed: number[] = [];
    if (this.keyBits === null || this.alternatives <= textHashCount) {
      let literal = 0;
      while (literal < this.literalEnds.length) {
        const alternative = this.literalAlternative[literal];
        if (this.holds(literal)) {
          passed.push(alternative);
          while (literal < this.literalEnds.length && this.literalAlternative[literal] === alternative) literal++;
        } else literal++;
      }
      return passed;
    }
    const read = ++this.reads;
    for (let index = 0; index < textHashCount; index++) {
      const hash = textHashes[index];
      if ((this.keyBits[hash >>> 5] & (1 << (hash & 31))) === 0) continue;
      for (const literal of this.byKey.get(hash)!) {
        const alternative = this.literalAlternative[literal];
        if (this.passedOn[alternative] !== read && this.holds(literal)) {
          this.passedOn[alternative] = read;
          passed.push(alternative);
        }
      }
    }
    return passed.sort((a, b) => a - b);
  }

  /** Whether every run of the literal is in the text last read. */
  private holds(literal: number): boolean {
    const end = this.literalEnds[literal];
    for (let index = literal === 0 ? 0 : this.literalEnds[literal - 1]; index < end; index++) if (!textHas(this.hashes[index])) return false;
    return true;
  }
}
