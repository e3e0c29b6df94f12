/**
 * Which alternatives of a list a text may match, told by literals: each
 * alternative has literals one of which every match of it holds, and a
 * literal can occur in a text only where every one of its three-character
 * runs does. A text's runs are hashed into a 64K-bit map once
 * (`readTrigrams`), and the literals of every list it is tested against are
 * found from them at once (`TrigramIndex`): the classifier's lists, three
 * dozen of them with some 2,000 literals, test the same few texts one after
 * another (a post's lower-cased text, the clauses of it), and most of a
 * text's runs begin no literal of any list.
 */

/** A hash of three UTF-16 code units, 0 to 65,535. */
const trigramHash = (first: number, second: number, third: number) => ((first << 10) ^ (second << 5) ^ third) & 0xffff;

/** The hashes of a literal's three-character runs. */
export function trigramHashes(literal: string): number[] {
  const hashes: number[] = [];
  for (let index = 0; index + 2 < literal.length; index++) hashes.push(trigramHash(literal.charCodeAt(index), literal.charCodeAt(index + 1), literal.charCodeAt(index + 2)));
  return hashes;
}

/** The runs of the text last read, as bits by their hash, and the distinct hashes set (to clear them, and to look them up). */
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
 * The literals of many lists, each filed under one of its runs (its key:
 * the run fewest literals filed before it share). For a text, the literals
 * it may hold are those filed under its own runs whose every run it holds:
 * found once per text for all lists, where testing each list's literals in
 * turn cost some 900 tests a post. A list's literals are numbered one after
 * another, so its share of a text's literals is one range of their numbers.
 */
export class TrigramIndex {
  private readonly hashes: number[] = [];
  /** Where each literal's hashes end in `hashes`. */
  private readonly literalEnds: number[] = [];
  private readonly keyBits = new Uint32Array(65_536 / 32);
  private readonly literalsByKey = new Map<number, number[]>();
  /** How many literals hold each run: the rarest run of a new literal is its key. */
  private readonly literalsWithRun = new Map<number, number>();
  /** The text the literals were last found for, and them in ascending order. */
  private textFound: string | null = null;
  private found: number[] = [];

  get size(): number {
    return this.literalEnds.length;
  }

  /** Files the literals (three characters or more each) and answers their numbers, in order. */
  add(literals: readonly string[]): number {
    const first = this.literalEnds.length;
    const literalHashes = literals.map((literal) => {
      const hashes = trigramHashes(literal);
      if (hashes.length === 0) throw new Error(`a literal guard needs three characters: ${JSON.stringify(literal)}`);
      return hashes;
    });
    for (const hashes of literalHashes) for (const hash of new Set(hashes)) this.literalsWithRun.set(hash, (this.literalsWithRun.get(hash) ?? 0) + 1);
    literalHashes.forEach((hashes, index) => {
      this.hashes.push(...hashes);
      this.literalEnds.push(this.hashes.length);
      const key = hashes.reduce((best, hash) => (this.literalsWithRun.get(hash)! < this.literalsWithRun.get(best)! ? hash : best));
      this.keyBits[key >>> 5] |= 1 << (key & 31);
      const filed = this.literalsByKey.get(key);
      if (filed) filed.push(first + index);
      else this.literalsByKey.set(key, [first + index]);
    });
    this.textFound = null;
    return first;
  }

  /** The numbers of the literals the text may hold, in ascending order. */
  literalsIn(text: string): readonly number[] {
    readTrigrams(text);
    if (text === this.textFound) return this.found;
    const found: number[] = [];
    for (let index = 0; index < textHashCount; index++) {
      const hash = textHashes[index];
      if ((this.keyBits[hash >>> 5] & (1 << (hash & 31))) === 0) continue;
      for (const literal of this.literalsByKey.get(hash)!) if (this.holds(literal)) found.push(literal);
    }
    this.found = found.sort((a, b) => a - b);
    this.textFound = text;
    return found;
  }

  /** Whether every run of the literal is in the text last read. */
  private holds(literal: number): boolean {
    const end = this.literalEnds[literal];
    for (let index = literal === 0 ? 0 : this.literalEnds[literal - 1]; index < end; index++) if (!textHas(this.hashes[index])) return false;
    return true;
  }
}

/** The index of the classifier's lists. */
const classifierIndex = new TrigramIndex();

/** The literals of a list's alternatives, found for a text through an index shared with other lists. */
export class TrigramGuards {
  /** The number of the list's first literal in the index, and the one past its last. */
  private readonly first: number;
  private readonly end: number;
  /** The alternative each literal guards, by its place in the list. */
  private readonly literalAlternative: Uint32Array;

  /** `guards[alternative]`: the literals, one of which every match of the alternative holds (each of three characters or more). */
  constructor(guards: readonly (readonly string[])[], private readonly index = classifierIndex) {
    const literals = guards.flat();
    this.literalAlternative = Uint32Array.from(guards.flatMap((literalsOf, alternative) => literalsOf.map(() => alternative)));
    this.first = index.add(literals);
    this.end = this.first + literals.length;
  }

  /** The alternatives the text may match, in list order. */
  passing(text: string): number[] {
    const found = this.index.literalsIn(text);
    // The first of the text's literals at or after the list's first.
    let low = 0;
    let high = found.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (found[middle] < this.first) low = middle + 1;
      else high = middle;
    }
    const passed: number[] = [];
    for (let at = low; at < found.length && found[at] < this.end; at++) {
      const alternative = this.literalAlternative[found[at] - this.first];
      // A list's literals are numbered alternative by alternative: one passing twice comes twice in a row.
      if (passed.length === 0 || passed[passed.length - 1] !== alternative) passed.push(alternative);
    }
    return passed;
  }
}
