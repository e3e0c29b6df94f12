import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TrigramGuards, TrigramIndex, trigramHashes } from '../classifier/trigram-guards.ts';

/** The alternatives one of whose literals has all its runs among the text's, read the plain way: a set of the text's run hashes. */
function passingByHand(guards: readonly (readonly string[])[], text: string): number[] {
  const runs = new Set(trigramHashes(text));
  return guards.flatMap((literals, alternative) => (literals.some((literal) => trigramHashes(literal).every((hash) => runs.has(hash))) ? [alternative] : []));
}

// Few letters, so that literals share runs and texts hold many of them.
const letters = fc.constantFrom('a', 'b', 'c', ' ', 'é', 'ß', 'よ', '😀');
const literal = fc.array(letters, { minLength: 3, maxLength: 6 }).map((parts) => parts.join(''));
const guardList = fc.array(fc.array(literal, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 60 });
const text = fc.array(letters, { maxLength: 45 }).map((parts) => parts.join(''));

describe('trigram guards', () => {
  it('pass the alternatives whose literals the text may hold, for each list of one index', () => {
    fc.assert(
      fc.property(fc.array(guardList, { minLength: 1, maxLength: 4 }), fc.array(text, { minLength: 1, maxLength: 4 }), (lists, texts) => {
        const index = new TrigramIndex();
        const guarded = lists.map((guards) => new TrigramGuards(guards, index));
        for (const written of texts) {
          lists.forEach((guards, list) => {
            const expected = passingByHand(guards, written);
            expect(guarded[list].passing(written)).toEqual(expected);
            // Every alternative one of whose literals the text holds passes.
            guards.forEach((literals, alternative) => {
              if (literals.some((one) => written.includes(one))) expect(expected).toContain(alternative);
            });
          });
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it('read each text afresh, whichever list read one before', () => {
    const stance = new TrigramGuards([['again'], ['broke', 'broken'], ['refund']]);
    const phrases = new TrigramGuards([['not bad'], ['too slow']], new TrigramIndex());
    expect(stance.passing('it broke again')).toEqual([0, 1]);
    expect(phrases.passing('too slow, not bad')).toEqual([0, 1]);
    expect(stance.passing('a refund')).toEqual([2]);
    expect(stance.passing('it broke again')).toEqual([0, 1]);
    expect(phrases.passing('no')).toEqual([]);
  });

  it("find a text's literals again for a list filed after the text was read", () => {
    const index = new TrigramIndex();
    const first = new TrigramGuards([['again']], index);
    expect(first.passing('broke again')).toEqual([0]);
    const second = new TrigramGuards([['refund'], ['broke']], index);
    expect(second.passing('broke again')).toEqual([1]);
    expect(() => new TrigramGuards([['ab']], index)).toThrow(/three characters/);
  });
});
