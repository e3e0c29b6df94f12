import { type Intent, intents, type Sentiment } from '../vocabulary/classification-values.ts';
import { relevanceLine } from '../vocabulary/relevance.ts';
import type { Classification } from './classification.ts';
import { wordCount } from './content-words.ts';

export interface Expectation {
  text: string;
  expected: { relevant: boolean; sentiment: Sentiment; intents: Intent[]; automated: boolean; language: string };
}

export interface BinaryScore {
  precision: number;
  recall: number;
  f1: number;
  support: number;
}

export interface ClassifierMetrics {
  posts: number;
  /** Relevant means a score at or above the line of 40 (spec 1.2). */
  relevance: BinaryScore & { accuracy: number; allRelevantF1: number };
  sentimentAccuracy: number;
  /** Share of posts whose intent set is exactly the labelled set (the empty set included). */
  intentExactAccuracy: number;
  /** F1 over every (post, intent) decision pooled. */
  intentMicroF1: number;
  perIntent: Record<Intent, BinaryScore>;
  /** On posts of five or more words (the aim's population); `languagePosts` says how many. */
  languageAccuracy: number;
  languagePosts: number;
  automated: BinaryScore & { accuracy: number };
}

function binary(tp: number, fp: number, fn: number): BinaryScore {
  const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 1 : tp / (tp + fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1, support: tp + fn };
}

const share = (count: number, total: number) => (total === 0 ? 1 : count / total);

export function measureClassifier(labelled: readonly Expectation[], predicted: readonly Classification[]): ClassifierMetrics {
  const counts = { tp: 0, fp: 0, fn: 0, tn: 0, sentiment: 0, exact: 0, language: 0, languagePosts: 0, autoTp: 0, autoFp: 0, autoFn: 0, autoRight: 0 };
  const intentCounts = Object.fromEntries(intents.map((intent) => [intent, { tp: 0, fp: 0, fn: 0 }])) as Record<Intent, { tp: number; fp: number; fn: number }>;
  labelled.forEach(({ text, expected }, index) => {
    const got = predicted[index];
    const relevant = got.relevance >= relevanceLine;
    if (relevant && expected.relevant) counts.tp++;
    else if (relevant) counts.fp++;
    else if (expected.relevant) counts.fn++;
    else counts.tn++;
    if (got.sentiment === expected.sentiment) counts.sentiment++;
    const wanted = new Set(expected.intents);
    const found = new Set(got.intents);
    if (wanted.size === found.size && [...wanted].every((intent) => found.has(intent))) counts.exact++;
    for (const intent of intents) {
      if (found.has(intent) && wanted.has(intent)) intentCounts[intent].tp++;
      else if (found.has(intent)) intentCounts[intent].fp++;
      else if (wanted.has(intent)) intentCounts[intent].fn++;
    }
    if (wordCount(text) >= 5) {
      counts.languagePosts++;
      if (got.language === expected.language) counts.language++;
    }
    if (got.automated === expected.automated) counts.autoRight++;
    if (got.automated && expected.automated) counts.autoTp++;
    else if (got.automated) counts.autoFp++;
    else if (expected.automated) counts.autoFn++;
  });
  const posts = labelled.length;
  const relevantPosts = counts.tp + counts.fn;
  const pooled = Object.values(intentCounts).reduce((sum, c) => ({ tp: sum.tp + c.tp, fp: sum.fp + c.fp, fn: sum.fn + c.fn }), { tp: 0, fp: 0, fn: 0 });
  return {
    posts,
    relevance: {
      ...binary(counts.tp, counts.fp, counts.fn),
      accuracy: share(counts.tp + counts.tn, posts),
      allRelevantF1: binary(relevantPosts, posts - relevantPosts, 0).f1,
    },
    sentimentAccuracy: share(counts.sentiment, posts),
    intentExactAccuracy: share(counts.exact, posts),
    intentMicroF1: binary(pooled.tp, pooled.fp, pooled.fn).f1,
    perIntent: Object.fromEntries(intents.map((intent) => [intent, binary(intentCounts[intent].tp, intentCounts[intent].fp, intentCounts[intent].fn)])) as Record<Intent, BinaryScore>,
    languageAccuracy: share(counts.language, counts.languagePosts),
    languagePosts: counts.languagePosts,
    automated: { ...binary(counts.autoTp, counts.autoFp, counts.autoFn), accuracy: share(counts.autoRight, posts) },
  };
}
