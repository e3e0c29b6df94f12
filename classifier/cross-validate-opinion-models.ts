/**
 * `npx tsx classifier/cross-validate-opinion-models.ts`: how the opinion models
 * read posts they did not learn from, measured on the training posts alone
 * (the holdouts are never read). Three folds: each tune keyword falls whole
 * into one fold, so a fold's tune posts are about keywords the models never
 * saw, as a user's own terms are; the corpus posts are dealt round the
 * folds. Features and training options are chosen on these figures:
 * `--l2`, `--epochs`, `--learning-rate` and `--min-count` train the folds'
 * models with other options than the committed ones, each value a list
 * (`--l2 0.0003,0.001,0.003`) measured in turn on posts read once.
 */
import { parseArgs } from 'node:util';
import type { Classification } from './classification.ts';
import { type ClassifierMetrics, measureClassifier } from './classifier-metrics.ts';
import { defaultTrainingOptions, type TrainingOptions } from './logistic-regression.ts';
import { foldOpinionModels, readOpinionsOf } from './opinion-models.ts';
import { type LabelledFeatures, readTrainingPosts, trainOpinionModels, type TrainingPosts } from './train-opinion-models.ts';

const folds = 3;

/** The fold of each post: tune posts by their keyword's place among the tune keywords, corpus posts by their own place. */
function foldOf(posts: TrainingPosts): Map<LabelledFeatures, number> {
  const keywords = [...new Set(posts.withIntents.flatMap((post) => (post.keyword === null ? [] : [post.keyword])))].sort();
  const fold = new Map<LabelledFeatures, number>();
  for (const list of [posts.sentimentOnly, posts.withIntents]) {
    list.forEach((post, index) => fold.set(post, post.keyword === null ? index % folds : keywords.indexOf(post.keyword) % folds));
  }
  return fold;
}

export interface CrossValidation {
  /** Tune posts, each read by models that never saw its keyword. */
  unseenKeywords: ClassifierMetrics;
  /** Corpus posts labelled with intents, each read by models that never saw it. */
  intentCorpus: ClassifierMetrics;
  /** Corpus posts labelled with their sentiment only (intents unmeasured). */
  sentimentCorpusAccuracy: number;
}

/** `posts`, when given, are the training posts already read (`readTrainingPosts`), so that several options share one reading. */
export async function crossValidateOpinionModels(options: TrainingOptions = defaultTrainingOptions, posts?: TrainingPosts): Promise<CrossValidation> {
  posts ??= await readTrainingPosts();
  const fold = foldOf(posts);
  const read = new Map<LabelledFeatures, Classification>();
  for (let k = 0; k < folds; k++) {
    const outside = (list: LabelledFeatures[]) => list.filter((post) => fold.get(post) !== k);
    const models = foldOpinionModels(trainOpinionModels({ sentimentOnly: outside(posts.sentimentOnly), withIntents: outside(posts.withIntents) }, options));
    for (const post of [...posts.sentimentOnly, ...posts.withIntents]) {
      if (fold.get(post) !== k) continue;
      const opinion = readOpinionsOf(models, post.features, post.ruleIntents, true);
      read.set(post, { relevance: 100, sentiment: opinion.sentiment, intents: opinion.intents, automated: false, language: null, note: '' });
    }
  }
  const measure = (list: LabelledFeatures[]) =>
    measureClassifier(
      list.map((post) => ({ text: '', expected: { relevant: true, sentiment: post.sentiment, intents: [...(post.intents ?? [])], automated: false, language: '' } })),
      list.map((post) => read.get(post)!),
    );
  return {
    unseenKeywords: measure(posts.withIntents.filter((post) => post.keyword !== null)),
    intentCorpus: measure(posts.withIntents.filter((post) => post.keyword === null)),
    sentimentCorpusAccuracy: measure(posts.sentimentOnly).sentimentAccuracy,
  };
}

export function printCrossValidation(result: CrossValidation) {
  const fixed = (value: number) => value.toFixed(3);
  const line = (name: string, metrics: ClassifierMetrics) => {
    const intents = Object.entries(metrics.perIntent).map(([intent, score]) => `${intent} ${fixed(score.f1)}`).join(', ');
    console.log(`${name}: ${metrics.posts} posts, sentiment ${fixed(metrics.sentimentAccuracy)}, intent micro F1 ${fixed(metrics.intentMicroF1)} (${intents})`);
  };
  console.log(`cross-validation, ${folds} folds, each post read by models trained without it`);
  line('tune posts, keyword unseen', result.unseenKeywords);
  line('intent corpus', result.intentCorpus);
  console.log(`sentiment corpus: sentiment ${fixed(result.sentimentCorpusAccuracy)}`);
}

/** Every combination of the options the command line lists, the committed value standing for any it leaves out. */
function optionsToTry(args: string[]): TrainingOptions[] {
  const flags = { l2: 'l2', epochs: 'epochs', 'learning-rate': 'learningRate', 'min-count': 'minCount' } as const;
  const { values } = parseArgs({ args, options: Object.fromEntries(Object.keys(flags).map((flag) => [flag, { type: 'string' }])) });
  let tried: TrainingOptions[] = [defaultTrainingOptions];
  for (const [flag, option] of Object.entries(flags)) {
    const listed = values[flag];
    if (typeof listed !== 'string') continue;
    const numbers = listed.split(',').map(Number);
    if (numbers.some((value) => !Number.isFinite(value) || value < 0)) throw new Error(`--${flag}: "${listed}" is not a list of numbers of zero or more`);
    tried = tried.flatMap((options) => numbers.map((value) => ({ ...options, [option]: value })));
  }
  return tried;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const tried = optionsToTry(process.argv.slice(2));
  const posts = await readTrainingPosts();
  for (const options of tried) {
    if (tried.length > 1) console.log(`\n${JSON.stringify(options)}`);
    printCrossValidation(await crossValidateOpinionModels(options, posts));
  }
}
