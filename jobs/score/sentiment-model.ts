import { readFileSync } from 'node:fs';
import { type Sentiment, sentiments } from './classification.ts';
import type { SentimentFeatures } from './sentiment-features.ts';

/** The committed model: `npm run train:sentiment` writes it from the training posts. */
export const sentimentModelPath = new URL('./sentiment-model.json', import.meta.url);

/**
 * A multinomial logistic regression over the sparse features of
 * `sentimentFeatures`: one weight per feature and class, one bias per class.
 */
export interface SentimentModel {
  classes: Sentiment[];
  bias: number[];
  weights: Record<string, number[]>;
  /** How it was trained, so a reader of the JSON knows what it is. */
  training: { posts: number; features: number; l2: number; epochs: number; minCount: number };
}

/** The model as the classifier uses it: the weights in a map, for fast lookups of a post's features. */
export interface LoadedSentimentModel {
  classes: Sentiment[];
  bias: number[];
  weights: ReadonlyMap<string, number[]>;
}

export interface TrainingExample {
  features: SentimentFeatures;
  label: Sentiment;
}

export interface TrainingOptions {
  /** L2 penalty on the weights (not the biases), per example. */
  l2: number;
  epochs: number;
  learningRate: number;
  /** A word or word pair must occur in this many posts to get a weight; rarer ones would be memorised. */
  minCount: number;
}

export const defaultTrainingOptions: TrainingOptions = { l2: 0.001, epochs: 400, learningRate: 1, minCount: 2 };

export function loadSentimentModel(): LoadedSentimentModel {
  return withWeightMap(JSON.parse(readFileSync(sentimentModelPath, 'utf8')) as SentimentModel);
}

export function withWeightMap(model: SentimentModel): LoadedSentimentModel {
  return { classes: model.classes, bias: model.bias, weights: new Map(Object.entries(model.weights)) };
}

function softmax(scores: number[]): number[] {
  const top = Math.max(...scores);
  const exps = scores.map((score) => Math.exp(score - top));
  const total = exps.reduce((sum, value) => sum + value, 0);
  return exps.map((value) => value / total);
}

function scoresOf(bias: number[], weights: ReadonlyMap<string, number[]>, features: Iterable<[string, number]>): number[] {
  const scores = [...bias];
  for (const [name, value] of features) {
    const row = weights.get(name);
    if (row) for (let k = 0; k < scores.length; k++) scores[k] += row[k] * value;
  }
  return scores;
}

/** The most probable sentiment of a post, with the probability of each class. */
export function predictSentiment(model: LoadedSentimentModel, features: SentimentFeatures): { label: Sentiment; probabilities: Record<Sentiment, number> } {
  const probabilities = softmax(scoresOf(model.bias, model.weights, features));
  let best = 0;
  for (let k = 1; k < probabilities.length; k++) if (probabilities[k] > probabilities[best]) best = k;
  return {
    label: model.classes[best],
    probabilities: Object.fromEntries(model.classes.map((name, k) => [name, probabilities[k]])) as Record<Sentiment, number>,
  };
}

/**
 * Fits the regression by full-batch gradient descent from zero weights: the
 * same examples in the same order always give the same model. Features
 * seen in fewer than `minCount` posts are dropped first; weights that end
 * below 1e-4 are left out of the model, and the rest rounded to 4 places
 * so the committed JSON stays small and diffs stay readable.
 */
export function trainSentimentModel(examples: TrainingExample[], options: TrainingOptions = defaultTrainingOptions): SentimentModel {
  const classes = [...sentiments];
  const counts = new Map<string, number>();
  for (const example of examples) for (const name of example.features.keys()) counts.set(name, (counts.get(name) ?? 0) + 1);
  const kept = (name: string) => !/^[wb]:/u.test(name) || (counts.get(name) ?? 0) >= options.minCount;
  const rows = examples.map((example) => ({
    features: [...example.features].filter(([name]) => kept(name)),
    target: classes.indexOf(example.label),
  }));
  const weights = new Map<string, number[]>();
  for (const row of rows) for (const [name] of row.features) if (!weights.has(name)) weights.set(name, classes.map(() => 0));
  const bias = classes.map(() => 0);
  const n = rows.length;
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    const gradients = new Map<string, number[]>();
    const biasGradient = classes.map(() => 0);
    for (const row of rows) {
      const probabilities = softmax(scoresOf(bias, weights, row.features));
      for (let k = 0; k < classes.length; k++) {
        const error = probabilities[k] - (k === row.target ? 1 : 0);
        biasGradient[k] += error;
        for (const [name, value] of row.features) {
          let gradient = gradients.get(name);
          if (!gradient) gradients.set(name, (gradient = classes.map(() => 0)));
          gradient[k] += error * value;
        }
      }
    }
    for (const [name, row] of weights) {
      const gradient = gradients.get(name);
      for (let k = 0; k < classes.length; k++) row[k] -= options.learningRate * ((gradient?.[k] ?? 0) / n + options.l2 * row[k]);
    }
    for (let k = 0; k < classes.length; k++) bias[k] -= (options.learningRate * biasGradient[k]) / n;
  }
  const round = (value: number) => Math.round(value * 1e4) / 1e4;
  const committed: Record<string, number[]> = {};
  for (const [name, row] of [...weights].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (row.some((value) => Math.abs(value) >= 1e-4)) committed[name] = row.map(round);
  }
  return {
    classes,
    bias: bias.map(round),
    weights: committed,
    training: { posts: n, features: Object.keys(committed).length, l2: options.l2, epochs: options.epochs, minCount: options.minCount },
  };
}
