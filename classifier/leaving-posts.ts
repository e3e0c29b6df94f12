import { unicodeWords } from './unicode-word-boundaries.ts';

/**
 * Leaving a product, right before its name: "switched from", "moved our team
 * wiki off", "migrating away from", "umgestiegen von", "passé de", "troquei
 * o", "replaced", "remplacé", "cambié el"… in nine languages.
 */
const leftFrom = unicodeWords(
  /\b(?:switch\w*|mov(?:e|ed|ing)|migrat\w*|went|came|ditch\w*|dropp?\w*|left|leaving|quit\w*|changed|umgestiegen|gewechselt|passée?s?|passat[oaie]|pas[ée]|mudei|mudamos|overgestapt|przesiad\p{L}*(?: się)?|przeszed\p{L}*)(?: \S+){0,3}? (?:from|off|von|de|da|van|z) (?:the |my |our |o |a |el |la |il |le |het |de )?$|\b(?:replaced|remplacé|troquei|trocamos|cambié|sostituito|vervangen|ersetzt)(?: (?:the|my|our|o|a|el|la|il|le|het|de|das|den|die))? $/u,
);
/** …and what follows the name: the other product it was left for ("… to Tablo", "… par Avenir", "… por um Garmin"). */
const leftFor = unicodeWords(/^\S* (?:to|for|with|by|auf|zu|durch|par|pour|à|a|al|por|pelo|pela|para|pra|con|per|naar|door|na|do)\b/u);
/** Characters read before and after an occurrence of the name. */
const reach = { before: 60, after: 40 };

/**
 * The post leaves the product it names for another ("Switched from Monarch
 * to Tallyroot", "Troquei o Whoop por um relógio Garmin", "J'ai remplacé
 * Futura par Avenir"): `namePattern` finds the name (global, any case).
 */
export function leavesForAnother(text: string, namePattern: RegExp): boolean {
  const lower = text.toLowerCase();
  for (const match of text.matchAll(namePattern)) {
    const start = match.index ?? 0;
    const end = start + match[0].length;
    if (leftFrom.test(lower.slice(Math.max(0, start - reach.before), start)) && leftFor.test(lower.slice(end, end + reach.after))) return true;
  }
  return false;
}
