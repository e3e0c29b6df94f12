import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clauseBreaks, WordFamilySet, wordsByClause, wordsOf } from '../classifier/content-words.ts';

const breaks = clauseBreaks('.,;:!?¿¡。、！？\n()"“”');

describe('words by clause', () => {
  it('are the words of each clause the breaks split, read in one pass or clause by clause', () => {
    const piece = fc.constantFrom('word', 'é', 'e\u0301', 'ß', '42', ' ', "'", '-', '_', '.', ', ', '!?', '\n', '(', '“', '¿', 'https://x.io/a', ' ://', '日本語', 'です。', 'ไทย', '😀', 'İ');
    const text = fc.array(piece, { maxLength: 20 }).map((parts) => parts.join('').toLowerCase());
    fc.assert(
      fc.property(text, (written) => {
        expect(wordsByClause(written, breaks)).toEqual(written.split(breaks.split).map(wordsOf));
      }),
      { numRuns: 3_000 },
    );
  });

  it('take any characters as breaks, those that mean something in a character class and those beyond one code unit too', () => {
    expect(wordsByClause('a-b]c^d\\e😀f g', clauseBreaks('-]^\\😀'))).toEqual([['a'], ['b'], ['c'], ['d'], ['e'], ['f', 'g']]);
  });

  it('start a clause at each run of breaks', () => {
    expect(wordsByClause('not bad, really: good (yes)', breaks)).toEqual([['not', 'bad'], ['really'], ['good'], ['yes'], []]);
  });
});

describe('word families', () => {
  it('match a word by its inflections and suffixes, not by a word joined on to make a compound', () => {
    const family = new WordFamilySet(['compile', 'driv', 'everyday', 'sandbox', 'overall']);
    for (const member of ['compile', 'compiler', 'compiles', 'driver', 'driving', 'everyday']) expect(family.has(member), member).toBe(true);
    for (const other of ['every', 'sand', 'over', 'compilation']) expect(family.has(other), other).toBe(false);
  });
});
