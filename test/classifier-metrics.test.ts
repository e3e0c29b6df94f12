import { describe, expect, it } from 'vitest';
import type { Classification } from '../classifier/classification.ts';
import { type Expectation, measureClassifier } from '../classifier/classifier-metrics.ts';
import { readDevelopmentSet, readEvalSet, readFreshHoldout } from '../classifier/classifier-eval-set.ts';

const said = (overrides: Partial<Classification>): Classification => ({
  relevance: 80, sentiment: 'neutral', intents: [], automated: false, language: 'en', note: 'n.', ...overrides,
});
const labelled = (overrides: Partial<Expectation['expected']>, text = 'one two three four five words here'): Expectation => ({
  text,
  expected: { relevant: true, sentiment: 'neutral', intents: [], automated: false, language: 'en', ...overrides },
});

describe('classifier metrics', () => {
  it('counts relevance at the line of 40 and the other fields as defined', () => {
    const metrics = measureClassifier(
      [
        labelled({ relevant: true, intents: ['question'] }),
        labelled({ relevant: true, sentiment: 'negative', intents: ['complaint', 'question'] }),
        labelled({ relevant: false, language: 'de' }),
        labelled({ relevant: false, automated: true }, 'too short'),
      ],
      [
        said({ relevance: 40, intents: ['question'] }),
        said({ relevance: 39, sentiment: 'negative', intents: ['complaint'] }),
        said({ relevance: 41, language: 'nl' }),
        said({ relevance: 0, automated: true, language: null }),
      ],
    );
    expect(metrics.relevance).toMatchObject({ precision: 0.5, recall: 0.5, f1: 0.5, accuracy: 0.5, support: 2 });
    expect(metrics.relevance.allRelevantF1).toBeCloseTo(2 / 3);
    expect(metrics.sentimentAccuracy).toBe(1);
    expect(metrics.intentExactAccuracy).toBe(0.75);
    expect(metrics.perIntent.question).toMatchObject({ precision: 1, recall: 0.5 });
    expect(metrics.perIntent.complaint).toMatchObject({ precision: 1, recall: 1 });
    expect(metrics.intentMicroF1).toBeCloseTo(0.8);
    expect(metrics).toMatchObject({ languageAccuracy: 2 / 3, languagePosts: 3 });
    expect(metrics.automated).toMatchObject({ accuracy: 1, precision: 1, recall: 1 });
  });

  it('has an evaluation set of 300+ labelled posts with a fixed holdout third', async () => {
    const posts = await readEvalSet();
    expect(posts.length).toBeGreaterThanOrEqual(300);
    expect(new Set(posts.map((post) => post.id)).size).toBe(posts.length);
    // The first round was split every third post; the second round's holdout
    // was written by its own annotator. Together the holdout stays a third.
    posts.filter((post) => post.round === 1).forEach((post, index) => expect(post.split).toBe(index % 3 === 2 ? 'holdout' : 'tune'));
    const holdoutShare = posts.filter((post) => post.split === 'holdout').length / posts.length;
    expect(holdoutShare).toBeGreaterThan(0.3);
    expect(holdoutShare).toBeLessThan(0.37);
    expect(new Set(posts.map((post) => post.keyword.term)).size).toBeGreaterThanOrEqual(5);
    expect(new Set(posts.map((post) => post.expected.language)).size).toBeGreaterThanOrEqual(6);
    for (const intent of ['buy_intent', 'question', 'complaint', 'praise', 'comparison'] as const) {
      expect(posts.filter((post) => post.expected.intents.includes(intent)).length).toBeGreaterThanOrEqual(20);
    }
    expect(posts.filter((post) => post.expected.automated).length).toBeGreaterThanOrEqual(15);
    expect(posts.filter((post) => !post.expected.relevant).length).toBeGreaterThanOrEqual(60);
  });

  it('has a round-3 holdout of 300+ posts on 10+ keywords the other rounds never name', async () => {
    const [earlier, round3] = await Promise.all([readEvalSet(), readFreshHoldout(3)]);
    const earlierTerms = new Set(earlier.map((post) => post.keyword.term.toLowerCase()));
    const terms = new Set(round3.map((post) => post.keyword.term.toLowerCase()));
    expect(round3.length).toBeGreaterThanOrEqual(300);
    expect(terms.size).toBeGreaterThanOrEqual(10);
    expect([...terms].filter((term) => earlierTerms.has(term))).toEqual([]);
    expect(new Set([...earlier, ...round3].map((post) => post.id)).size).toBe(earlier.length + round3.length);
    expect(round3.every((post) => post.split === 'holdout' && post.round === 3 && post.keyword.context !== null)).toBe(true);
  });

  it('has a round-6 holdout of 300+ posts on 10+ keywords that no other set names, a third not in English', async () => {
    const [earlier, round3, development, round6] = await Promise.all([readEvalSet(), readFreshHoldout(3), readDevelopmentSet(), readFreshHoldout(6)]);
    const otherTerms = new Set([...earlier, ...round3, ...development].map((post) => post.keyword.term.toLowerCase()));
    const terms = new Set(round6.map((post) => post.keyword.term.toLowerCase()));
    expect(round6.length).toBeGreaterThanOrEqual(300);
    expect(terms.size).toBeGreaterThanOrEqual(10);
    expect([...terms].filter((term) => otherTerms.has(term))).toEqual([]);
    const ids = [...earlier, ...round3, ...development, ...round6].map((post) => post.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(round6.every((post) => post.split === 'holdout' && post.round === 6 && post.keyword.context !== null)).toBe(true);
    expect(round6.filter((post) => post.expected.language !== 'en').length / round6.length).toBeGreaterThanOrEqual(1 / 3);
  });

  it('has a development set of 300+ posts on 10+ keywords that neither the other rounds nor round 3 name, a third not in English', async () => {
    const [earlier, round3, development] = await Promise.all([readEvalSet(), readFreshHoldout(3), readDevelopmentSet()]);
    const otherTerms = new Set([...earlier, ...round3].map((post) => post.keyword.term.toLowerCase()));
    const terms = new Set(development.map((post) => post.keyword.term.toLowerCase()));
    expect(development.length).toBeGreaterThanOrEqual(300);
    expect(terms.size).toBeGreaterThanOrEqual(10);
    expect([...terms].filter((term) => otherTerms.has(term))).toEqual([]);
    const ids = [...earlier, ...round3, ...development].map((post) => post.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(development.every((post) => post.split === 'development' && [4, 5, 7, 8].includes(post.round) && post.keyword.context !== null)).toBe(true);
    for (const round of [5, 7, 8]) expect(new Set(development.filter((post) => post.round === round).map((post) => post.keyword.term)).size).toBeGreaterThanOrEqual(10);
    expect(development.filter((post) => post.expected.language !== 'en').length / development.length).toBeGreaterThanOrEqual(1 / 3);
    expect(development.filter((post) => !post.expected.relevant).length).toBeGreaterThanOrEqual(100);
  });
});
