import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TrigramGuards, trigramHashes } from '../classifier/trigram-guards.ts';

/** The alternatives one of whose literals has all its runs among the text's, read the plain way: a set of the text's run hashes. */
function passingByHand(guards: readonly (readonly string[])[], text: string): number[] {
  const runs = new Set(trigramHashes(text));
  return guards.flatMap((literals, alternative) => (literals.some((literal) => trigramHashes(literal).every((hash) => runs.has(hash))) ? [alternative] : []));
}

// Few letters, so that literals share runs and texts hold many of them.
const letters = fc.constantFrom('a', 'b', 'c', ' ', 'é', 'ß', 'よ', '😀');
const literal = fc.array(letters, { minLength: 3, maxLength: 6 }).map((parts) => parts.join(''));
// More alternatives than a text has runs: a list filed by key looks its keys up.
const guardLists = fc.array(fc.array(literal, { minLength: 1, maxLength: 3 }), { minLength: 50, maxLength: 120 });
const text = fc.array(letters, { maxLength: 45 }).map((parts) => parts.join(''));

describe('trigram guards', () => {
  it('pass the alternatives whose literals the text may hold, looked up by key or literal by literal alike', () => {
    fc.assert(
      fc.property(guardLists, fc.array(text, { minLength: 1, maxLength: 4 }), (guards, texts) => {
        const byLiteral = new TrigramGuards(guards, Infinity);
        const byKey = new TrigramGuards(guards, 0);
        for (const written of texts) {
          const expected = passingByHand(guards, written);
          expect(byLiteral.passing(written)).toEqual(expected);
          expect(byKey.passing(written)).toEqual(expected);
          // Every alternative one of whose literals the text holds passes.
          guards.forEach((literals, alternative) => {
            if (literals.some((one) => written.includes(one))) expect(expected).toContain(alternative);
          });
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it('read each text afresh, whichever list read one before', () => {
    const stance = new TrigramGuards([['again'], ['broke', 'broken'], ['refund']], 0);
    const phrases = new TrigramGuards([['not bad'], ['too slow']]);
    expect(stance.passing('it broke again')).toEqual([0, 1]);
    expect(phrases.passing('too slow, not bad')).toEqual([0, 1]);
    expect(stance.passing('a refund')).toEqual([2]);
    expect(stance.passing('it broke again')).toEqual([0, 1]);
    expect(phrases.passing('no')).toEqual([]);
  });
});
