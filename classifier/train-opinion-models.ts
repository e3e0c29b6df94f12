/**
 * `npm run train:classifier`: fits the opinion models (`opinion-models.ts`)
 * and writes `opinion-models.json`. Sentiment learns from
 * `training/sentiment-corpus.jsonl`, `training/intent-corpus.jsonl` and the
 * tune posts of the evaluation set; each learned intent from the intent
 * corpus and the tune posts. The holdout is never read.
 * test/classifier-opinion-models.test.ts fails when the committed models
 * differ from a fresh training.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { z } from 'zod';
import { type Intent, intents, type Sentiment, sentiments } from '../vocabulary/classification-values.ts';
import { automationSignals } from './automation-signals.ts';
import { loadPostReaders, type PostReaders, readOpinion, readPost } from './built-in-classifier.ts';
import { inputOf, readEvalSet } from './classifier-eval-set.ts';
import { detectLanguage } from './language.ts';
import { defaultTrainingOptions, type TrainingOptions, trainLogisticModel } from './logistic-regression.ts';
import { learnedIntents, type OpinionModels, opinionModelsPath } from './opinion-models.ts';
import { buildSenseProfile } from './sense-profile.ts';
import { type SentimentFeatures, sentimentFeatures } from './sentiment-features.ts';

const trainingDirectory = new URL('./training/', import.meta.url);

const trainingPostSchema = z.object({
  text: z.string().min(1),
  language: z.string().regex(/^[a-z]{2}$/u),
  sentiment: z.enum(sentiments),
  intents: z.array(z.enum(intents)).optional(),
});

export interface LabelledFeatures {
  features: SentimentFeatures;
  /** The intents the rules found, which the models read beside the words (only `question` is final). */
  ruleIntents: readonly Intent[];
  sentiment: Sentiment;
  /** Absent for posts labelled with their sentiment only. */
  intents?: readonly Intent[];
  /** The keyword of a tune post; null for a post of the training corpora, which names none. */
  keyword: string | null;
}

/** Every labelled post the models learn from, in the order training reads them. */
export interface TrainingPosts {
  /** `sentiment-corpus.jsonl`: labelled with their sentiment only. */
  sentimentOnly: LabelledFeatures[];
  /** `intent-corpus.jsonl`, then the tune posts. */
  withIntents: LabelledFeatures[];
}

const noWords: ReadonlySet<string> = new Set();

/** Training posts without a keyword: read as a post on X naming no product. */
async function corpusPosts(readers: PostReaders, file: string): Promise<LabelledFeatures[]> {
  const lines = (await readFile(new URL(file, trainingDirectory), 'utf8')).split('\n').filter((line) => line.trim() !== '');
  return lines.map((line, index) => {
    const parsed = trainingPostSchema.safeParse(JSON.parse(line));
    if (!parsed.success) throw new Error(`${file} line ${index + 1}: ${parsed.error.issues[0].message}`);
    const post = { platform: 'x' as const, text: parsed.data.text, links: [], author: { name: '', handle: '' } };
    const language = detectLanguage(readers.languageDetector, post.text);
    const { automated } = automationSignals(post);
    const { intents, evidence } = readOpinion(readers, post, { language, ignoredWords: noWords, productsNamed: 0, automated });
    return { features: sentimentFeatures(evidence), ruleIntents: intents, sentiment: parsed.data.sentiment, intents: parsed.data.intents, keyword: null };
  });
}

/** The tune posts of the evaluation set, read exactly as the classifier reads them. */
async function tunePosts(readers: PostReaders): Promise<LabelledFeatures[]> {
  const posts = (await readEvalSet()).filter((post) => post.split === 'tune');
  return posts.map((post) => {
    const input = inputOf(post);
    const { intents, evidence } = readPost(readers, input, buildSenseProfile(input.keyword, input.company, readers));
    return { features: sentimentFeatures(evidence), ruleIntents: intents, sentiment: post.expected.sentiment, intents: post.expected.intents, keyword: post.keyword.term };
  });
}

export async function readTrainingPosts(): Promise<TrainingPosts> {
  const readers = await loadPostReaders();
  const tune = await tunePosts(readers);
  return {
    sentimentOnly: await corpusPosts(readers, 'sentiment-corpus.jsonl'),
    withIntents: [...(await corpusPosts(readers, 'intent-corpus.jsonl')), ...tune],
  };
}

export async function trainCommittedOpinionModels(): Promise<OpinionModels> {
  return trainOpinionModels(await readTrainingPosts());
}

/** A post's features but its words and word pairs, as a post of a field the models never saw reads to them. */
function withoutWords(features: SentimentFeatures): SentimentFeatures {
  return new Map([...features].filter(([name]) => !/^[wb]:/u.test(name)));
}

/**
 * The sentiment model learns from every post, each intent model from the
 * posts labelled with intents; the sentiment model of unfamiliar posts from
 * every post and a copy of each without its words.
 */
export function trainOpinionModels({ sentimentOnly, withIntents }: TrainingPosts, options: TrainingOptions = defaultTrainingOptions): OpinionModels {
  const all = [...sentimentOnly, ...withIntents];
  const examples = all.map((post) => ({ features: post.features, label: post.sentiment }));
  const sentiment = trainLogisticModel(examples, [...sentiments], options);
  const unfamiliarSentiment = trainLogisticModel([...examples, ...examples.map((example) => ({ ...example, features: withoutWords(example.features) }))], [...sentiments], options);
  const intentModels = Object.fromEntries(
    learnedIntents.map((intent) => [
      intent,
      trainLogisticModel(withIntents.map((post) => ({ features: post.features, label: post.intents?.includes(intent) ? 'yes' : 'no' })), ['no', 'yes'], options),
    ]),
  ) as OpinionModels['intents'];
  const { epochs, l2, minCount } = options;
  return { sentiment, intents: intentModels, unfamiliarSentiment, training: { sentimentPosts: all.length, intentPosts: withIntents.length, epochs, l2, minCount } };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const models = await trainCommittedOpinionModels();
  await writeFile(opinionModelsPath, `${JSON.stringify(models)}\n`);
  console.log(`opinion-models.json: sentiment from ${models.training.sentimentPosts} posts, intents from ${models.training.intentPosts}`);
}
