import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { loadPostReaders, readOpinion } from '../jobs/score/built-in-classifier.ts';
import type { Sentiment } from '../jobs/score/classification.ts';
import { detectLanguage } from '../jobs/score/language.ts';
import { sentimentFeatures } from '../jobs/score/sentiment-features.ts';
import { loadSentimentModel, predictSentiment, sentimentModelPath, trainSentimentModel, withWeightMap } from '../jobs/score/sentiment-model.ts';
import { trainCommittedSentimentModel } from '../jobs/score/train-sentiment-model.ts';

const noWords: ReadonlySet<string> = new Set();

async function featuresOf(text: string, ignoredWords: ReadonlySet<string> = noWords) {
  const loaded = await loadPostReaders();
  const language = detectLanguage(loaded.languageDetector, text);
  const { evidence } = readOpinion(loaded, { text, platform: 'x' }, { language, ignoredWords, productsNamed: 0, automated: false });
  return sentimentFeatures(evidence);
}

describe('sentiment features', () => {
  it('marks the words a negation governs, up to the end of the clause', async () => {
    const features = await featuresOf("It isn't fast or stable, but the docs are good.");
    expect(features.has('w:¬fast')).toBe(true);
    expect(features.has('w:¬stable')).toBe(true);
    expect(features.has('w:fast')).toBe(false);
    expect(features.has('w:good')).toBe(true);
    expect(features.has('w:¬good')).toBe(false);
  });

  it('leaves out the keyword’s own words and code identifiers', async () => {
    const features = await featuresOf('Bolt returned BAD_USER_INPUT and `kill_switch` again', new Set(['bolt']));
    const words = [...features.keys()].filter((name) => name.startsWith('w:'));
    expect(words).not.toContain('w:bolt');
    expect(words).not.toContain('w:bad');
    expect(words).not.toContain('w:kill');
    expect(words).toContain('w:returned');
  });

  it('carries the lexicon’s reading and the kind of post', async () => {
    const features = await featuresOf('We are hiring! Absolutely love this team.');
    expect(features.get('lex:praise')).toBeGreaterThan(0);
    expect(features.get('kind:reporting')).toBe(1);
    expect(features.get('kind:exclamation')).toBe(1);
  });
});

describe('sentiment model', () => {
  const toy = (text: string, label: Sentiment) => ({ features: new Map(text.split(' ').map((word) => [`w:${word}`, 1] as const)), label });
  const examples = [
    toy('love it so much', 'positive'),
    toy('love the new editor', 'positive'),
    toy('great support love it', 'positive'),
    toy('hate the new pricing', 'negative'),
    toy('hate it so much', 'negative'),
    toy('awful support hate it', 'negative'),
    toy('how do i export', 'neutral'),
    toy('how do i invite people', 'neutral'),
    toy('new release today', 'neutral'),
  ];

  it('learns from labelled posts and reads unseen ones by their words', () => {
    const model = trainSentimentModel(examples, { l2: 0.001, epochs: 300, learningRate: 1, minCount: 2 });
    const read = (text: string) => predictSentiment(withWeightMap(model), new Map(text.split(' ').map((word) => [`w:${word}`, 1] as const))).label;
    expect(read('i love it')).toBe('positive');
    expect(read('i hate it')).toBe('negative');
    expect(read('how do i')).toBe('neutral');
    // Seen in one post only, below minCount: no weight, so no opinion.
    expect(model.weights['w:awful']).toBeUndefined();
  });

  it('gives the same model for the same posts', () => {
    const options = { l2: 0.001, epochs: 50, learningRate: 1, minCount: 1 };
    expect(JSON.stringify(trainSentimentModel(examples, options))).toBe(JSON.stringify(trainSentimentModel(examples, options)));
  });

  it('reads posts written for this test, outside its training data', async () => {
    const model = loadSentimentModel();
    const read = async (text: string) => predictSentiment(model, await featuresOf(text)).label;
    expect(await read('Their support ghosted me for three weeks and then closed the ticket without a word.')).toBe('negative');
    expect(await read('Set it up in five minutes and it has worked flawlessly ever since. Thank you!')).toBe('positive');
    expect(await read('How do I export my workspace to CSV?')).toBe('neutral');
  });

  it('is committed as a fresh training on the corpus and the tune posts would write it', { timeout: 120_000 }, async () => {
    const fresh = `${JSON.stringify(await trainCommittedSentimentModel())}\n`;
    expect(fresh === (await readFile(sentimentModelPath, 'utf8')), 'sentiment-model.json is stale: run npm run train:sentiment').toBe(true);
  });
});
