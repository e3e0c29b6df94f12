/** The values a classifier assigns to a mention (spec 1.2, 2.4 `classification`). */
export const sentiments = ['positive', 'negative', 'neutral'] as const;
export const intents = ['buy_intent', 'question', 'complaint', 'praise', 'comparison'] as const;

export type Sentiment = (typeof sentiments)[number];
export type Intent = (typeof intents)[number];

/** A mention counts as relevant at this score or above (spec 1.2, 8). */
export const relevanceLine = 40;

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
