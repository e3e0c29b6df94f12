import { describe, expect, it } from 'vitest';
import { createBuiltInClassifier } from '../classifier/built-in-classifier.ts';
import type { ClassificationInput, ClassifiedKeyword } from '../classifier/classifier-types.ts';
import { feedbackAdjustment, type KeywordFeedbackModel, learnFromVerdicts } from '../classifier/feedback-model.ts';
import { apolloVerdicts } from './apollo-verdicts.ts';

// No context on purpose: the verdicts are all the classifier learns the sense from.
const rust: ClassifiedKeyword = { id: 'kw_rust', term: 'Rust', kind: 'topic', context: null, groupDescription: null };
const apollo: ClassifiedKeyword = { id: 'kw_apollo', term: 'Apollo', kind: 'brand', context: null, groupDescription: null };


const verdicts = [
  { text: 'Rust on the rear wheel arches of my car again, the body shop wants 900 for it', relevant: false },
  { text: 'How do I stop rust spreading on the car door sills before winter salt?', relevant: false },
  { text: 'Rust under the car is worse than I thought, the sills and arches are gone', relevant: false },
  { text: 'Rust 1.85 ships async closures and the compiler is faster on big workspaces', relevant: true },
  { text: 'Our compiler team moved the parser to Rust and crates made the build simpler', relevant: true },
];

function input(text: string, learned: KeywordFeedbackModel | null, keyword = rust): ClassificationInput {
  return {
    mentionId: `mm_${text.length}`,
    post: {
      platform: 'reddit',
      url: 'https://reddit.example/r/1',
      text,
      publishedAt: new Date('2025-03-01T09:00:00Z'),
      links: [],
      author: { platformId: 'u1', name: 'Sam', handle: 'sam', url: 'https://reddit.example/u/sam', avatarUrl: null, followers: 40 },
    },
    keyword,
    company: null,
    learned,
  };
}

async function relevanceOf(text: string, learned: KeywordFeedbackModel | null, keyword = rust): Promise<number> {
  const [outcome] = await createBuiltInClassifier().classifyBatch([input(text, learned, keyword)]);
  if (!outcome.ok) throw new Error(outcome.error);
  return outcome.classification.relevance;
}

describe('feedback model', () => {
  const model = learnFromVerdicts(verdicts, { term: 'Rust' });

  it('counts the posts each word appeared in, per verdict, leaving the term out', () => {
    expect(model).toMatchObject({ version: 1, acceptedPosts: 2, rejectedPosts: 3 });
    expect(model.rejectedTerms).toMatchObject({ car: 3, sill: 2, arch: 2 });
    expect(model.acceptedTerms).toMatchObject({ compiler: 2, crate: 1 });
    expect(model.rejectedTerms.rust).toBeUndefined();
    expect(model.acceptedTerms.rust).toBeUndefined();
    expect(JSON.parse(JSON.stringify(model))).toEqual(model);
  });

  it('lowers a new post in a rejected sense from relevant to not relevant', async () => {
    const spaceProgram = 'Apollo 17 moon mission photos get a NASA remaster';
    const before = await relevanceOf(spaceProgram, null, apollo);
    const after = await relevanceOf(spaceProgram, learnFromVerdicts(apolloVerdicts, { term: 'Apollo' }), apollo);
    expect(before).toBeGreaterThanOrEqual(40);
    expect(after).toBeLessThan(40);
    expect(after).toBeLessThan(before - 20);
  });

  it('lowers a rejected sense further and lifts an accepted one over the line', async () => {
    const corrosion = 'Found rust on the car sills today, is it worth fixing before the inspection?';
    expect(await relevanceOf(corrosion, model)).toBeLessThan(await relevanceOf(corrosion, null));
    const language = 'The Rust compiler finally explains lifetime errors in plain words';
    const before = await relevanceOf(language, null);
    const after = await relevanceOf(language, model);
    expect(before).toBeLessThan(40);
    expect(after).toBeGreaterThanOrEqual(40);
  });

  it('says which words moved the score and leaves unseen words alone', () => {
    const adjustment = feedbackAdjustment(model, ['car', 'sill', 'weather']);
    expect(adjustment.weight).toBeLessThan(0);
    expect(adjustment.rejectedCues).toEqual(['car', 'sill']);
    expect(feedbackAdjustment(model, ['weather', 'garden'])).toEqual({ weight: 0, rejectedCues: [], acceptedCues: [] });
  });

  it('answers each model by its own verdicts, however many models it has read before', () => {
    const reversed = learnFromVerdicts(verdicts.map((verdict) => ({ ...verdict, relevant: !verdict.relevant })), { term: 'Rust' });
    expect(feedbackAdjustment(model, ['car', 'sill']).weight).toBeLessThan(0);
    expect(feedbackAdjustment(reversed, ['car', 'sill'])).toMatchObject({ acceptedCues: ['car', 'sill'], rejectedCues: [] });
    expect(feedbackAdjustment(reversed, ['car', 'sill']).weight).toBeCloseTo(-feedbackAdjustment(model, ['car', 'sill']).weight);
  });
});
