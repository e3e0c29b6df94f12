import { contentWordsOf, foldWord, wordsOf } from './content-words.ts';

/**
 * What a keyword's verdicts (spec 2.4: a user marks mentions relevant or not)
 * taught the built-in classifier: in how many accepted and rejected posts
 * each content word appeared. Plain counts, so that the model is JSON, can be
 * stored beside the keyword, and is rebuilt from the verdicts at any time.
 */
export interface KeywordFeedbackModel {
  version: 1;
  acceptedPosts: number;
  rejectedPosts: number;
  /** Word → number of accepted posts containing it. */
  acceptedTerms: Record<string, number>;
  /** Word → number of rejected posts containing it. */
  rejectedTerms: Record<string, number>;
}

export interface Verdict {
  text: string;
  relevant: boolean;
}

/** Words kept per side, commonest first. Bounds the stored model for keywords with thousands of verdicts. */
const maxWordsPerSide = 400;

function keepCommonest(counts: Map<string, number>): Record<string, number> {
  const sorted = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, maxWordsPerSide);
  return Object.fromEntries(sorted);
}

/** Builds a keyword's model from all of its verdicts. `term` is left out: it is in every post, accepted or not. */
export function learnFromVerdicts(verdicts: readonly Verdict[], options: { term: string }): KeywordFeedbackModel {
  const termWords = new Set(wordsOf(options.term).flatMap((word) => [word, foldWord(word)]));
  const accepted = new Map<string, number>();
  const rejected = new Map<string, number>();
  let acceptedPosts = 0;
  let rejectedPosts = 0;
  for (const verdict of verdicts) {
    const counts = verdict.relevant ? accepted : rejected;
    if (verdict.relevant) acceptedPosts++;
    else rejectedPosts++;
    for (const word of new Set(contentWordsOf(verdict.text))) {
      if (!termWords.has(word)) counts.set(word, (counts.get(word) ?? 0) + 1);
    }
  }
  return { version: 1, acceptedPosts, rejectedPosts, acceptedTerms: keepCommonest(accepted), rejectedTerms: keepCommonest(rejected) };
}

/**
 * How a typical content word is spread over posts before any verdict: a
 * prior of one post in twenty, worth two posts of evidence. It keeps a word
 * seen once in three rejections from outweighing everything else, and lets a
 * side with no verdicts at all say "unknown" rather than "never".
 */
const priorShare = 0.05;
const priorWeight = 2;
/** A word must appear in two judged posts before it counts. */
const minimumEvidence = 2;
/** Per-word and total caps, in log-odds: feedback steers the score, it does not replace the reading. */
const maxWordWeight = 1.2;
const maxTotalWeight = 3;

export interface FeedbackAdjustment {
  /** Log-odds to add to the relevance score; negative lowers it. */
  weight: number;
  /** Words that pulled the score down, strongest first. */
  rejectedCues: string[];
  acceptedCues: string[];
}

/**
 * Each word's log-likelihood ratio of "accepted" over "rejected", capped,
 * for the words with evidence enough and a ratio worth counting. Worked out
 * once per model and kept while the model is: a keyword's posts come in
 * batches, all read against the same verdicts. Models are values, never
 * changed once built.
 */
const wordWeightsOfModel = new WeakMap<KeywordFeedbackModel, ReadonlyMap<string, number>>();

function wordWeightsOf(model: KeywordFeedbackModel): ReadonlyMap<string, number> {
  const known = wordWeightsOfModel.get(model);
  if (known) return known;
  const weighed = new Map<string, number>();
  for (const word of [...Object.keys(model.acceptedTerms), ...Object.keys(model.rejectedTerms)]) {
    if (weighed.has(word)) continue;
    const accepted = model.acceptedTerms[word] ?? 0;
    const rejected = model.rejectedTerms[word] ?? 0;
    if (accepted + rejected < minimumEvidence) continue;
    const acceptedShare = (accepted + priorWeight * priorShare) / (model.acceptedPosts + priorWeight);
    const rejectedShare = (rejected + priorWeight * priorShare) / (model.rejectedPosts + priorWeight);
    const weight = Math.max(-maxWordWeight, Math.min(maxWordWeight, Math.log(acceptedShare / rejectedShare)));
    if (Math.abs(weight) >= 0.1) weighed.set(word, weight);
  }
  wordWeightsOfModel.set(model, weighed);
  return weighed;
}

/** The ratios of a new post's content words that the verdicts have seen (`wordWeightsOf`), summed and capped. */
export function feedbackAdjustment(model: KeywordFeedbackModel, contentWords: readonly string[]): FeedbackAdjustment {
  const wordWeights = wordWeightsOf(model);
  const weights: [string, number][] = [];
  for (const word of new Set(contentWords)) {
    const weight = wordWeights.get(word);
    if (weight !== undefined) weights.push([word, weight]);
  }
  const total = weights.reduce((sum, [, weight]) => sum + weight, 0);
  return {
    weight: Math.max(-maxTotalWeight, Math.min(maxTotalWeight, total)),
    rejectedCues: weights.filter(([, weight]) => weight < 0).sort((a, b) => a[1] - b[1]).map(([word]) => word),
    acceptedCues: weights.filter(([, weight]) => weight > 0).sort((a, b) => b[1] - a[1]).map(([word]) => word),
  };
}
