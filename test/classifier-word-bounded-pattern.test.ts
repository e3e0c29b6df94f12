import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wordCharacter } from '../classifier/unicode-word-boundaries.ts';
import { WordBoundedPattern } from '../classifier/word-bounded-pattern.ts';

const phrases = 'so good|good|broke|se casse(?:nt)?|zepsuł\\p{L}*|a1';
const lookBehind = new RegExp(`(?<!${wordCharacter})(?:${phrases})(?!${wordCharacter})`, 'gu');

describe('word-bounded phrase patterns', () => {
  it('find a phrase only where no letter, digit or underscore of any script touches it', () => {
    const pattern = new WordBoundedPattern(phrases);
    expect(pattern.test('so good!')).toBe(true);
    expect(pattern.test('goodness')).toBe(false);
    expect(pattern.test('9good')).toBe(false);
    expect(pattern.test('égood')).toBe(false);
    expect(pattern.test('_good')).toBe(false);
    // A letter outside the Basic Multilingual Plane, two code units long.
    expect(pattern.test('𝐀good')).toBe(false);
    expect(pattern.test('😀good')).toBe(true);
    expect(pattern.test('il se casse, zepsułem')).toBe(true);
    expect(pattern.replace('xgood, so good and good.', (phrase) => `[${phrase}]`)).toBe('xgood, [so good] and [good].');
  });

  it('replace as the same pattern with a look-behind would', () => {
    const character = fc.constantFrom(...'goodbrkeas ', ' ', '1', '_', 'é', 'ł', '𝐀', '😀', ',', 'se casse', 'zepsuł', 'so good', 'a1');
    const text = fc.array(character, { maxLength: 24 }).map((parts) => parts.join(''));
    const pattern = new WordBoundedPattern(phrases);
    fc.assert(
      fc.property(text, (written) => {
        const mark = (phrase: string) => `<${phrase}>`;
        expect(pattern.replace(written, mark)).toBe(written.replace(lookBehind, mark));
        expect(pattern.test(written)).toBe(written.replace(lookBehind, mark) !== written);
        // A clause read with its phrases' literals found in the whole text.
        const clause = written.slice(written.length >> 2);
        expect(pattern.replace(clause, mark, written)).toBe(clause.replace(lookBehind, mark));
      }),
      { numRuns: 2_000 },
    );
  });
});
