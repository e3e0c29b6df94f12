import type { SentimentFeatures } from './sentiment-features.ts';

/**
 * A multinomial logistic regression over sparse features: one weight per
 * feature and class, one bias per class. The classifier's sentiment and
 * learned intents are such models; `opinion-models.ts` reads them.
 */
export interface LogisticModel {
  classes: string[];
  bias: number[];
  weights: Record<string, number[]>;
}

export interface TrainingExample {
  features: SentimentFeatures;
  label: string;
}

export interface TrainingOptions {
  /** L2 penalty on the weights (not the biases), per example. */
  l2: number;
  epochs: number;
  learningRate: number;
  /** A word or word pair must occur in this many posts to get a weight; rarer ones would be memorised. */
  minCount: number;
}

/** Chosen on a development set of 160 posts kept out of training (PERFORMANCE.md, "Classifier quality"). */
export const defaultTrainingOptions: TrainingOptions = { l2: 0.001, epochs: 400, learningRate: 1, minCount: 2 };

function softmax(scores: number[]): number[] {
  const top = Math.max(...scores);
  const exps = scores.map((score) => Math.exp(score - top));
  const total = exps.reduce((sum, value) => sum + value, 0);
  return exps.map((value) => value / total);
}

/**
 * Fits the regression by full-batch gradient descent from zero weights: the
 * same examples in the same order always give the same model. Words and
 * word pairs seen in fewer than `minCount` posts are dropped first; weights
 * that end below 1e-4 are left out, the rest rounded to 4 places, so the
 * committed JSON stays small and its diffs readable.
 */
export function trainLogisticModel(examples: TrainingExample[], classes: string[], options: TrainingOptions = defaultTrainingOptions): LogisticModel {
  const counts = new Map<string, number>();
  for (const example of examples) for (const name of example.features.keys()) counts.set(name, (counts.get(name) ?? 0) + 1);
  const kept = (name: string) => !/^[wb]:/u.test(name) || (counts.get(name) ?? 0) >= options.minCount;
  // Features are numbered in order of first sight, and the weights kept in
  // one flat array: the same arithmetic as a map per feature, many times faster.
  const index = new Map<string, number>();
  const rows = examples.map((example) => {
    const target = classes.indexOf(example.label);
    if (target < 0) throw new Error(`"${example.label}" is none of ${classes.join(', ')}`);
    const features = [...example.features].filter(([name]) => kept(name));
    for (const [name] of features) if (!index.has(name)) index.set(name, index.size);
    return { ids: features.map(([name]) => index.get(name)!), values: features.map(([, value]) => value), target };
  });
  const k = classes.length;
  const weights = new Float64Array(index.size * k);
  const gradient = new Float64Array(index.size * k);
  const bias = classes.map(() => 0);
  const n = rows.length;
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    gradient.fill(0);
    const biasGradient = classes.map(() => 0);
    for (const row of rows) {
      const scores = [...bias];
      for (let f = 0; f < row.ids.length; f++) for (let c = 0; c < k; c++) scores[c] += weights[row.ids[f] * k + c] * row.values[f];
      const probabilities = softmax(scores);
      for (let c = 0; c < k; c++) {
        const error = probabilities[c] - (c === row.target ? 1 : 0);
        biasGradient[c] += error;
        for (let f = 0; f < row.ids.length; f++) gradient[row.ids[f] * k + c] += error * row.values[f];
      }
    }
    for (let w = 0; w < weights.length; w++) weights[w] -= options.learningRate * (gradient[w] / n + options.l2 * weights[w]);
    for (let c = 0; c < k; c++) bias[c] -= (options.learningRate * biasGradient[c]) / n;
  }
  const round = (value: number) => Math.round(value * 1e4) / 1e4;
  const committed: Record<string, number[]> = {};
  for (const [name, id] of [...index].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const row = Array.from(weights.subarray(id * k, id * k + k));
    if (row.some((value) => Math.abs(value) >= 1e-4)) committed[name] = row.map(round);
  }
  return { classes, bias: bias.map(round), weights: committed };
}
