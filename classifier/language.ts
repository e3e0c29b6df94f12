import { wordsOf } from './content-words.ts';

/** The part of `eld` Earshot uses. */
interface LanguageDetector {
  detect(text: string): { language: string; isReliable(): boolean };
}

let detector: Promise<LanguageDetector> | undefined;

/**
 * ELD (Efficient Language Detector, n-gram tables for 60 languages, answers
 * in ISO 639-1). The medium table: on the tune posts of the evaluation set it
 * is as accurate as the large one (every post of five words or more right)
 * and loads in half the time (1.6 s against 3 s here). Loaded on first use so
 * that processes that never classify never pay for it.
 */
export function loadLanguageDetector(): Promise<LanguageDetector> {
  detector ??= import('eld/medium').then(({ eld }) => eld);
  return detector;
}

// Handles, hashtags and addresses are names, not language; left in they pull
// short posts towards English.
const notProse = /\bhttps?:\/\/\S+|\bwww\.\S+|[@#][\p{L}\p{N}_.]+|\S+@\S+\.\S+/gu;

/** ISO 639-1 language of a post, or null when the text is too short or unclear to tell. */
export function detectLanguage(languageDetector: LanguageDetector, text: string): string | null {
  const prose = text.replace(notProse, ' ').trim();
  const words = wordsOf(prose).length;
  if (words === 0) return null;
  const result = languageDetector.detect(prose);
  if (!/^[a-z]{2}$/.test(result.language)) return null;
  // ELD calls one- and two-word texts unreliable even when right; a
  // three-word post is still worth a language, an unreliable pair is not.
  // (Asked only of short texts: the answer sorts every language's score.)
  if (words < 3 && !result.isReliable()) return null;
  return result.language;
}
