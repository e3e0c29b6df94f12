import { type Intent, intents, type Sentiment } from '../vocabulary/classification-values.ts';

export interface Classification {
  /** Integer 0 to 100. */
  relevance: number;
  sentiment: Sentiment;
  /** Each intent at most once, in the order of `intents`. */
  intents: Intent[];
  /** Machine-made: bots, release and status feeds, templated posts. */
  automated: boolean;
  /** ISO 639-1; null when the text is too short or mixed to tell. */
  language: string | null;
  /** One sentence explaining the relevance score. */
  note: string;
}

/** Intents in their canonical order, each once. */
export function orderedIntents(found: Iterable<Intent>): Intent[] {
  const set = new Set(found);
  return intents.filter((intent) => set.has(intent));
}
