import { readFileSync } from 'node:fs';
import { type Intent, orderedIntents, type Sentiment } from './classification.ts';
import type { LogisticModel } from './logistic-regression.ts';
import type { SentimentFeatures } from './sentiment-features.ts';

/** The committed models: `npm run train:classifier` writes them from the training posts. */
export const opinionModelsPath = new URL('./opinion-models.json', import.meta.url);

/**
 * Intents the classifier learns from labelled posts; `question` stays a rule
 * (a question mark or a question's opening says it, in any language).
 */
export const learnedIntents = ['buy_intent', 'complaint', 'praise', 'comparison'] as const satisfies readonly Intent[];
export type LearnedIntent = (typeof learnedIntents)[number];

/** One model for the sentiment, one yes/no model per learned intent. */
export interface OpinionModels {
  sentiment: LogisticModel;
  intents: Record<LearnedIntent, LogisticModel>;
  /** How they were trained, so a reader of the JSON knows what it is. */
  training: { sentimentPosts: number; intentPosts: number; epochs: number; l2: number; minCount: number };
}

/**
 * The models as the classifier uses them, folded into one table: per
 * feature the three sentiment weights, then one log-odds weight per learned
 * intent (its "yes" weight less its "no" weight, which is all a two-class
 * model needs), so a post's features are looked up once for all five.
 */
export interface LoadedOpinionModels {
  sentimentClasses: Sentiment[];
  bias: Float64Array;
  weights: ReadonlyMap<string, Float64Array>;
}

const width = 3 + learnedIntents.length;

export function loadOpinionModels(): LoadedOpinionModels {
  return foldOpinionModels(JSON.parse(readFileSync(opinionModelsPath, 'utf8')) as OpinionModels);
}

export function foldOpinionModels(models: OpinionModels): LoadedOpinionModels {
  const weights = new Map<string, Float64Array>();
  const rowOf = (name: string) => {
    let row = weights.get(name);
    if (!row) weights.set(name, (row = new Float64Array(width)));
    return row;
  };
  for (const [name, values] of Object.entries(models.sentiment.weights)) rowOf(name).set(values);
  const bias = new Float64Array(width);
  bias.set(models.sentiment.bias);
  learnedIntents.forEach((intent, i) => {
    const model = models.intents[intent];
    const [no, yes] = [model.classes.indexOf('no'), model.classes.indexOf('yes')];
    bias[3 + i] = model.bias[yes] - model.bias[no];
    for (const [name, values] of Object.entries(model.weights)) rowOf(name)[3 + i] = values[yes] - values[no];
  });
  return { sentimentClasses: models.sentiment.classes as Sentiment[], bias, weights };
}

/**
 * The post's sentiment (the most probable class) and intents: `question`
 * from the rules, each learned intent where its model finds it more likely
 * than not (log-odds above zero).
 */
export function readOpinionsOf(
  models: LoadedOpinionModels,
  features: SentimentFeatures,
  ruleIntents: readonly Intent[],
): { sentiment: Sentiment; intents: Intent[] } {
  const scores = Float64Array.from(models.bias);
  features.forEach((value, name) => {
    const row = models.weights.get(name);
    if (row) for (let c = 0; c < width; c++) scores[c] += row[c] * value;
  });
  let best = 0;
  for (let c = 1; c < 3; c++) if (scores[c] > scores[best]) best = c;
  const found: Intent[] = ruleIntents.includes('question') ? ['question'] : [];
  learnedIntents.forEach((intent, i) => {
    if (scores[3 + i] > 0) found.push(intent);
  });
  return { sentiment: models.sentimentClasses[best], intents: orderedIntents(found) };
}
