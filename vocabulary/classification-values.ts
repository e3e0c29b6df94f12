// Shared vocabulary, importing nothing: the sentiments and intents a mention can be classified with.

/** The values a classifier assigns to a mention (spec 1.2, 2.4 `classification`). */
export const sentiments = ['positive', 'negative', 'neutral'] as const;
export const intents = ['buy_intent', 'question', 'complaint', 'praise', 'comparison'] as const;

export type Sentiment = (typeof sentiments)[number];
export type Intent = (typeof intents)[number];
