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

/**
 * English function words no other language ELD reads writes as words of its
 * own ("we", "in", "is", "on" and "to" are left out: Dutch, German, French
 * and Polish write them too).
 */
const englishMarkers = new Set(['the', 'and', 'with', 'this', 'that', 'you', 'your', 'of', 'are', 'was', 'for', 'it', 'have', 'has', 'my', 'our', 'what', 'how', 'why', 'just', 'not', 'but']);
const englishMarkersNeeded = 2;
/** A letter outside a–z: an accent or another script. */
const beyondEnglishLetters = /[^\P{L}a-zA-Z]/u;

/**
 * Prose written in a–z alone with two distinct English function words is English:
 * ELD answers "en" for every such post of the training sets and the tune
 * posts (1,836 of 3,331), and skipping its n-gram scoring there makes the
 * classifier a fifth faster on English posts.
 */
function plainlyEnglish(prose: string, words: readonly string[]): boolean {
  if (beyondEnglishLetters.test(prose)) return false;
  const markers = new Set<string>();
  for (const word of words) {
    if (englishMarkers.has(word)) markers.add(word);
    if (markers.size >= englishMarkersNeeded) return true;
  }
  return false;
}

/** ISO 639-1 language of a post, or null when the text is too short or unclear to tell. */
export function detectLanguage(languageDetector: LanguageDetector, text: string): string | null {
  const prose = text.replace(notProse, ' ').trim();
  const proseWords = wordsOf(prose);
  const words = proseWords.length;
  if (words === 0) return null;
  if (plainlyEnglish(prose, proseWords)) return 'en';
  const result = languageDetector.detect(prose);
  if (!/^[a-z]{2}$/.test(result.language)) return null;
  // ELD calls one- and two-word texts unreliable even when right; a
  // three-word post is still worth a language, an unreliable pair is not.
  // (Asked only of short texts: the answer sorts every language's score.)
  if (words < 3 && !result.isReliable()) return null;
  return result.language;
}
