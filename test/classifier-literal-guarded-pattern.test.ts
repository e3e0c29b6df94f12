import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LiteralGuardedPattern } from '../classifier/literal-guarded-pattern.ts';
import { unicodeWords } from '../classifier/unicode-word-boundaries.ts';

// Alternatives whose literals hide behind quantifiers, groups, look-arounds and escapes.
const source = String.raw`\bthanks?\b|colou?r|(?:je |on )?cherche|(?<!nie )\bpolecam\b|a\.bc{1,2}|(?:vs|versus) \w+|more \w+ than\b|\b(?:switched|moved)\b.*\b(?:from|to)\b|x+yz|(?:ab)+cd|[qk]uick|より`;
const pattern = unicodeWords(new RegExp(source, 'u'));

describe('literal-guarded patterns', () => {
  it('try only the alternatives whose literals the text holds', () => {
    const guarded = new LiteralGuardedPattern(pattern);
    // "vs|versus", "x+yz", "(?:ab)+cd" and "より" hold no literal of three characters: they stay one pattern, tried on every text.
    expect(guarded.candidates('nothing to see here').map(String)).toEqual([String(unicodeWords(/(?:vs|versus) \w+|x+yz|(?:ab)+cd|より/u))]);
    expect(guarded.candidates('we switched to it from vim')).toHaveLength(2);
    // "colo" of "colou?r" and "thank" of "thanks?": the letters before the optional one.
    expect(guarded.candidates('colour thank')).toHaveLength(3);
    expect(guarded.candidates('color thanks quick')).toHaveLength(4);
  });

  it('answer as the pattern does, where it matches first too', () => {
    const guarded = new LiteralGuardedPattern(pattern);
    const piece = fc.constantFrom('thank', 's', 'colo', 'u', 'r', 'je ', 'on ', 'cherche', 'nie ', 'polecam', 'a.b', 'c', 'b', 'vs ', 'versus', 'more ', ' than', 'switched', 'moved', ' to ', ' from', 'x', 'yz', 'ab', 'cd', 'quick', 'kuick', 'より', ' ', 'é', '_', '.', '1');
    const text = fc.array(piece, { maxLength: 16 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, (written) => {
        expect(guarded.test(written)).toBe(pattern.test(written));
        expect(guarded.search(written)).toBe(written.search(pattern));
        // A part tried with its literals read from the whole text.
        const part = written.slice(written.length >> 2, written.length - (written.length >> 3));
        expect(guarded.test(part, written)).toBe(pattern.test(part));
      }),
      { numRuns: 3_000 },
    );
  });

  it('leave a case-insensitive pattern whole', () => {
    const guarded = new LiteralGuardedPattern(/thanks|cherche/iu);
    expect(guarded.candidates('nothing here')).toHaveLength(1);
    expect(guarded.test('THANKS')).toBe(true);
  });
});
