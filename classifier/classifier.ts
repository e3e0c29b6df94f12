import type { NormalizedPost } from '../jobs/connectors/normalized-post.ts';
import { createBuiltInClassifier } from './built-in-classifier.ts';
import type { Classification } from './classification.ts';
import type { KeywordFeedbackModel } from './feedback-model.ts';
import { createLlmClassifier } from './llm-classifier.ts';

export type KeywordKind = 'brand' | 'competitor' | 'topic';

export interface ClassifiedKeyword {
  id: string;
  term: string;
  kind: KeywordKind;
  /** What the user means by the term (spec 8: up to 300 characters). */
  context: string | null;
  groupDescription: string | null;
}

export interface CompanyProfile {
  name: string | null;
  description: string | null;
  website: string | null;
  competitors: string[];
  guidelines: string | null;
}

export interface ClassificationInput {
  mentionId: string;
  post: Pick<NormalizedPost, 'platform' | 'url' | 'text' | 'publishedAt' | 'links' | 'author'>;
  keyword: ClassifiedKeyword;
  company: CompanyProfile | null;
  /** What the keyword's verdicts taught; only the built-in classifier reads it. */
  learned?: KeywordFeedbackModel | null;
}

export type ClassificationOutcome =
  | { mentionId: string; ok: true; classification: Classification }
  /** A failed item is stored unscored and tried again later; a classifier never guesses instead. */
  | { mentionId: string; ok: false; error: string; retryable: boolean };

export interface Classifier {
  name: string;
  /** One outcome per input, in input order. */
  classifyBatch(inputs: ClassificationInput[]): Promise<ClassificationOutcome[]>;
}

/**
 * The classifier the operating contract selects: an OpenAI-compatible
 * chat-completions endpoint when `EARSHOT_CLASSIFIER_URL` is set, else the
 * built-in local classifier.
 */
export function createClassifier(env: Record<string, string | undefined> = process.env): Classifier {
  const url = env.EARSHOT_CLASSIFIER_URL?.trim();
  if (!url) return createBuiltInClassifier();
  return createLlmClassifier({
    baseUrl: url,
    apiKey: env.EARSHOT_CLASSIFIER_KEY?.trim() || null,
    model: env.EARSHOT_CLASSIFIER_MODEL?.trim() || undefined,
  });
}
