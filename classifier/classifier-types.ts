/**
 * What a classifier takes and answers. Apart from the factory (`classifier.ts`)
 * because the classifiers it builds need these types and must not import it.
 */
import type { NormalizedPost } from '../vocabulary/normalized-post.ts';
import type { Classification } from './classification.ts';
import type { KeywordFeedbackModel } from './feedback-model.ts';
import type { KeywordKind } from '../vocabulary/keyword-kinds.ts';

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
  /** Readies what classifying needs ahead of the first batch (the built-in models); a batch readies it too when this was not called. */
  prepare?(): Promise<void>;
  /** One outcome per input, in input order. */
  classifyBatch(inputs: ClassificationInput[]): Promise<ClassificationOutcome[]>;
}
