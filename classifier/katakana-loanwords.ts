/**
 * Japanese writes words borrowed from English in katakana, by their sound:
 * "ワークフロー" is workflow, "バッテリー" battery, "イベント" event. Read
 * as a skeleton of consonants, both the katakana and the English spelling
 * meet where Japanese hears the English word: no vowels, "l" heard as "r",
 * "v" as "b", "z" as "s", "n" before a lip sound as "m", an "r" before a
 * consonant or at a word's end silent, as Japanese renders non-rhotic
 * English ("ワーク" for work).
 */
const kanaSounds: Record<string, string> = {
  ア: 'a', イ: 'i', ウ: 'u', エ: 'e', オ: 'o', カ: 'ka', キ: 'ki', ク: 'ku', ケ: 'ke', コ: 'ko', ガ: 'ga', ギ: 'gi', グ: 'gu', ゲ: 'ge', ゴ: 'go',
  サ: 'sa', シ: 'si', ス: 'su', セ: 'se', ソ: 'so', ザ: 'za', ジ: 'ji', ズ: 'zu', ゼ: 'ze', ゾ: 'zo', タ: 'ta', チ: 'chi', ツ: 'tsu', テ: 'te', ト: 'to',
  ダ: 'da', ヂ: 'ji', ヅ: 'zu', デ: 'de', ド: 'do', ナ: 'na', ニ: 'ni', ヌ: 'nu', ネ: 'ne', ノ: 'no', ハ: 'ha', ヒ: 'hi', フ: 'fu', ヘ: 'he', ホ: 'ho',
  バ: 'ba', ビ: 'bi', ブ: 'bu', ベ: 'be', ボ: 'bo', パ: 'pa', ピ: 'pi', プ: 'pu', ペ: 'pe', ポ: 'po', マ: 'ma', ミ: 'mi', ム: 'mu', メ: 'me', モ: 'mo',
  ヤ: 'ya', ユ: 'yu', ヨ: 'yo', ラ: 'ra', リ: 'ri', ル: 'ru', レ: 're', ロ: 'ro', ワ: 'wa', ヲ: 'o', ン: 'n', ヴ: 'bu',
  ァ: 'a', ィ: 'i', ゥ: 'u', ェ: 'e', ォ: 'o', ャ: 'ya', ュ: 'yu', ョ: 'yo',
};
const katakanaWord = /^[\p{Script=Katakana}ー]+$/u;
/** Skeletons this short name too many words. */
const minConsonants = 3;

/** The consonants of a sound spelled in Latin letters, as Japanese hears them. */
function skeleton(spelling: string): string {
  const sounds = spelling
    .replace(/r(?=[^aeiouy]|$)/gu, '')
    .replace(/ph/gu, 'f').replace(/th/gu, 's').replace(/ck/gu, 'k').replace(/c(?=[eiy])/gu, 's').replace(/[cq]/gu, 'k')
    .replace(/x/gu, 'ks').replace(/v/gu, 'b').replace(/l/gu, 'r').replace(/ch|sh|ts|z/gu, 's').replace(/j/gu, 's')
    .replace(/n(?=[bpm])/gu, 'm');
  return sounds.replace(/[aeiouywh]/gu, '').replace(/(.)\1+/gu, '$1');
}

/** The skeleton of a katakana word ("ワークフロー" → "kfr"), or null for any other word. */
export function katakanaSkeleton(word: string): string | null {
  if (!katakanaWord.test(word)) return null;
  let spelling = '';
  for (const kana of word) spelling += kanaSounds[kana] ?? '';
  const found = skeleton(spelling);
  // Three consonants in three kana are a short word's, which many English words share ("モデル": model, modal, medal).
  return found.length > minConsonants || (found.length === minConsonants && [...word].length > minConsonants) ? found : null;
}

/** The skeleton of an English word ("workflow" → "kfr"), or null where it is too short to tell words apart. */
export function englishSkeleton(word: string): string | null {
  if (!/^[a-z]+$/u.test(word)) return null;
  const found = skeleton(word);
  return found.length >= minConsonants ? found : null;
}
