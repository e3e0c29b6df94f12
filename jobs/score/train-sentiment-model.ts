/**
 * `npm run train:sentiment`: fits the sentiment model (`sentiment-model.ts`)
 * on the training posts in `training/sentiment-corpus.jsonl` and the tune
 * part of the evaluation set, and writes `sentiment-model.json`. The
 * holdout is never read. test/classifier-sentiment-model.test.ts fails
 * when the committed model differs from a fresh training.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { z } from 'zod';
import { automationSignals } from './automation-signals.ts';
import { loadPostReaders, type PostReaders, readOpinion, readPost } from './built-in-classifier.ts';
import { sentiments } from './classification.ts';
import { inputOf, readEvalSet } from './classifier-eval-set.ts';
import { detectLanguage } from './language.ts';
import { buildSenseProfile } from './sense-profile.ts';
import { sentimentFeatures } from './sentiment-features.ts';
import { type SentimentModel, sentimentModelPath, type TrainingExample, trainSentimentModel } from './sentiment-model.ts';

export const sentimentCorpusPath = new URL('./training/sentiment-corpus.jsonl', import.meta.url);

const corpusPostSchema = z.object({ text: z.string().min(1), language: z.string().regex(/^[a-z]{2}$/u), sentiment: z.enum(sentiments) });

const noWords: ReadonlySet<string> = new Set();

/** Training posts without a keyword: read as a post on X naming no product. */
export async function corpusExamples(loaded: PostReaders): Promise<TrainingExample[]> {
  const lines = (await readFile(sentimentCorpusPath, 'utf8')).split('\n').filter((line) => line.trim() !== '');
  return lines.map((line, index) => {
    const parsed = corpusPostSchema.safeParse(JSON.parse(line));
    if (!parsed.success) throw new Error(`sentiment-corpus.jsonl line ${index + 1}: ${parsed.error.issues[0].message}`);
    const post = { platform: 'x' as const, text: parsed.data.text, links: [], author: { name: '', handle: '' } };
    const language = detectLanguage(loaded.languageDetector, post.text);
    const { automated } = automationSignals(post);
    const { evidence } = readOpinion(loaded, post, { language, ignoredWords: noWords, productsNamed: 0, automated });
    return { features: sentimentFeatures(evidence), label: parsed.data.sentiment };
  });
}

/** The tune posts of the evaluation set, read exactly as the classifier reads them. */
export async function tuneExamples(loaded: PostReaders): Promise<TrainingExample[]> {
  const posts = (await readEvalSet()).filter((post) => post.split === 'tune');
  return posts.map((post) => {
    const input = inputOf(post);
    const { evidence } = readPost(loaded, input, buildSenseProfile(input.keyword, input.company, loaded.english));
    return { features: sentimentFeatures(evidence), label: post.expected.sentiment };
  });
}

export async function trainCommittedSentimentModel(): Promise<SentimentModel> {
  const loaded = await loadPostReaders();
  return trainSentimentModel([...(await corpusExamples(loaded)), ...(await tuneExamples(loaded))]);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const model = await trainCommittedSentimentModel();
  await writeFile(sentimentModelPath, `${JSON.stringify(model)}\n`);
  console.log(`sentiment-model.json: ${model.training.posts} posts, ${model.training.features} features`);
}
