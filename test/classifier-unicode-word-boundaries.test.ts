import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectIntents } from '../classifier/intents.ts';
import { readSentiment } from '../classifier/sentiment.ts';
import { stanceCues } from '../classifier/stance-cues.ts';
import { unicodeWords, wordCharacter } from '../classifier/unicode-word-boundaries.ts';

const noWords: ReadonlySet<string> = new Set();
const intentsOf = (text: string, language: string) => detectIntents({ text, platform: 'x', opinion: readSentiment(text, language, noWords), productsNamed: 0 });

/** The plain reading of `\b`, `\B` and `\w` over words of any script, with no look-behind moved: what `unicodeWords` must agree with. */
function reference(pattern: RegExp): RegExp {
  const source = pattern.source
    .replace(/\\b/g, `(?:(?<=${wordCharacter})(?!${wordCharacter})|(?<!${wordCharacter})(?=${wordCharacter}))`)
    .replace(/\\B/g, `(?:(?<=${wordCharacter})(?=${wordCharacter})|(?<!${wordCharacter})(?!${wordCharacter}))`)
    .replace(/\\w/g, wordCharacter);
  return new RegExp(source, 'u');
}

describe('word boundaries over every script', () => {
  it('find a phrase whose edge letter is accented, and no word inside a longer accented word', () => {
    const migrated = unicodeWords(/\bmigré\b/u);
    expect(migrated.test('on a migré vers Linear')).toBe(true);
    expect(migrated.test('un émigré, des migrés')).toBe(false);
    const no = unicodeWords(/\bno\b/u);
    expect(no.test('no way')).toBe(true);
    expect(no.test('joyeux noël, ñno')).toBe(false);
    expect(unicodeWords(/\brembours\w*\b/u).exec('il a été remboursé.')?.[0]).toBe('remboursé');
    expect(unicodeWords(/(?:\Ber|\bmore \w+) than\b/u).test('größer than')).toBe(true);
  });

  it('match where the plain look-around reading matches, at the same place', () => {
    const patterns = [
      /\b(?:je |on )?(?:cherche|recherche) (?:un|une|des)\b/u,
      /\b(?:fix|fixes|migré)\b|\bà la place\b/u,
      /(?:\Ber|\bmore \w+) than\b|\w{3}er als\b/u,
      /\b\p{Lu}\w* (?:or|ou) \p{Lu}/u,
      /\bv?\d+\.\d+(?:\.\d+)? is out\b/u,
      /\b(?:re)?search\b/u,
    ].map((pattern) => [unicodeWords(pattern), reference(pattern)] as const);
    const piece = fc.constantFrom(' ', 'é', 'x', '1', '_', '.', '😀', '𝐀', 'je ', 'on ', 'cherche', 'recherche', 'un', 'une', 'fix', 'fixes', 'migré', 'à la place', 'bigger', 'größer', 'more', ' than', 'er als', 'Linear', 'Émile', ' or ', ' ou ', 'v1.2', '.3', ' is out', 're', 'search');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join('')), (text) => {
        for (const [rewritten, plain] of patterns) expect(rewritten.exec(text)?.index, `${rewritten.source} on ${text}`).toBe(plain.exec(text)?.index);
      }),
      { numRuns: 3_000 },
    );
  });

  it('let the classifier read phrases that end or begin on an accented letter', () => {
    // `\w` stopped before the "é" of "remboursé" and the "ü" of "fünften", so neither cue was found.
    expect(stanceCues('commande annulée, j’ai été remboursé au bout de trois semaines')).toContain('sent-back');
    expect(stanceCues('die app stürzt zum fünften mal ab')).toContain('again');
    expect(intentsOf('Linear est plus élégant que Jira pour une petite équipe.', 'fr')).toContain('comparison');
  });

  it('keep the classifier from reading a word inside a longer accented word', () => {
    // "toll" (German praise) ended before the "é" of the French "tollé", an outcry.
    expect(intentsOf('La nouvelle tarification a provoqué un tollé sur le forum.', 'fr')).not.toContain('praise');
    expect(intentsOf('Das neue Update ist toll.', 'de')).toContain('praise');
  });
});
