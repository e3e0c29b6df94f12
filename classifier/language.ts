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
const mayHoldNames = /[:@#]|www\./u;

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

/**
 * Function words of the other Latin-script languages Earshot reads most, each
 * list with the words it shares with another ("de", "la", "que"): only a word
 * on one list alone marks its language.
 */
const functionWords: Record<string, string> = {
  de: 'und ist nicht ich wir auch sehr aber noch schon nach bei kein keine jetzt immer wieder mit ein eine einen dem den der das die für auf sich nur wenn oder in es',
  fr: 'les est pas une des pour avec je nous vous mais très dans sur ce qui cette sont être avoir au aux du le et de en la un que il on ne se a',
  es: 'el los las es pero muy para por está y lo mi mucho también cuando porque sin nuestro hay de en la un una que se no a con del',
  pt: 'não uma os muito mas com do da em no na ao você isso eu ele é também de a o que e se um para por as',
  it: 'il di che è non per gli sono ma molto anche della lo ho questo la un una e a in del con se da o',
  nl: 'de het een en van is niet ik op te dat voor maar zijn wel ook nog heel we in',
};
/** The letters beyond a–z each of those languages writes; a post with any other (Polish "ł", Czech "ř") is left to ELD. */
const alphabets: Record<string, RegExp> = {
  de: /[^\P{L}a-zäöüß]/u,
  fr: /[^\P{L}a-zàâæçéèêëîïôœùûüÿ]/u,
  es: /[^\P{L}a-záéíóúñü]/u,
  pt: /[^\P{L}a-záâãàçéêíóôõú]/u,
  it: /[^\P{L}a-zàèéìíîòóù]/u,
  nl: /[^\P{L}a-zëïéèöüáó]/u,
};
const markerLanguages = new Map<string, string>();
{
  const languagesOf = new Map<string, string[]>();
  for (const [language, words] of Object.entries(functionWords)) {
    for (const word of words.split(' ')) languagesOf.set(word, [...(languagesOf.get(word) ?? []), language]);
  }
  for (const [word, languages] of languagesOf) if (languages.length === 1) markerLanguages.set(word, languages[0]);
}
const kana = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const latinLetter = /\p{Script=Latin}/u;

/**
 * Prose of three words or more whose function words (two distinct ones at
 * least) all belong to one of German, French, Spanish, Portuguese, Italian
 * or Dutch, written in that language's letters, is in that language; kana
 * with no Latin letter is Japanese. ELD answers the same for every such
 * post of the training sets and the evaluation set's tune and holdout posts
 * (525 of 3,701), and its n-gram scoring is most of a classification's
 * language work.
 */
function plainlyOneLanguage(prose: string, words: readonly string[]): string | null {
  if (kana.test(prose)) return latinLetter.test(prose) ? null : 'ja';
  if (words.length < 3) return null;
  let language: string | null = null;
  const markers = new Set<string>();
  for (const word of words) {
    const marked = markerLanguages.get(word) ?? (englishMarkers.has(word) ? 'en' : undefined);
    if (marked === undefined) continue;
    if (language !== null && marked !== language) return null;
    language = marked;
    markers.add(word);
  }
  if (language === null || language === 'en' || markers.size < 2 || alphabets[language].test(prose.toLowerCase())) return null;
  return language;
}

/**
 * ISO 639-1 language of a post, or null when the text is too short or unclear
 * to tell. `textWords` are the text's words (`wordsOf`), where the caller has
 * read them already.
 */
export function detectLanguage(languageDetector: LanguageDetector, text: string, textWords?: readonly string[]): string | null {
  // Every name or address holds ":", "@", "#" or "www.": text with none is left as it is, not searched.
  const mayName = mayHoldNames.test(text);
  const prose = (mayName ? text.replace(notProse, ' ') : text).trim();
  // Spaces around a text hold no word: without names, its words are the prose's.
  const proseWords = textWords !== undefined && !mayName ? textWords : wordsOf(prose);
  const words = proseWords.length;
  if (words === 0) return null;
  if (plainlyEnglish(prose, proseWords)) return 'en';
  const plain = plainlyOneLanguage(prose, proseWords);
  if (plain !== null) return plain;
  const result = languageDetector.detect(prose);
  if (!/^[a-z]{2}$/.test(result.language)) return null;
  // ELD calls one- and two-word texts unreliable even when right; a
  // three-word post is still worth a language, an unreliable pair is not.
  // (Asked only of short texts: the answer sorts every language's score.)
  if (words < 3 && !result.isReliable()) return null;
  return result.language;
}
