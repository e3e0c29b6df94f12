import { chatCompletionSettings } from '../runtime/chat-completion.ts';
import { createBuiltInClassifier } from './built-in-classifier.ts';
import type { Classifier } from './classifier-types.ts';
import { createLlmClassifier } from './llm-classifier.ts';

/**
 * The classifier the operating contract selects: an OpenAI-compatible
 * chat-completions endpoint when `EARSHOT_CLASSIFIER_URL` is set, else the
 * built-in local classifier.
 */
export function createClassifier(env: Record<string, string | undefined> = process.env): Classifier {
  const settings = chatCompletionSettings(env);
  return settings ? createLlmClassifier(settings) : createBuiltInClassifier();
}
