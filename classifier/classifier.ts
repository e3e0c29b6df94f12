import { createBuiltInClassifier } from './built-in-classifier.ts';
import type { Classifier } from './classifier-types.ts';
import { createLlmClassifier } from './llm-classifier.ts';

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
