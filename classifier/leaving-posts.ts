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

/**
 * A closing sentence that is only the writer's leaving ("Cancelled.",
 * "Returning it.", "Gelöscht.", "Opgezegd.", "Ik geef het op.", "Cancelado.",
 * "Désinstallé.", "解約した。"): the verdict the body led to, in ten languages.
 */
const leavingVerdict = unicodeWords(
  /^\s*(?:cancell?ed|uninstalled|deleted|unsubscribed|returned|returning (?:it|them)|sent (?:it|them) back|i give up|gelöscht|gekündigt|deinstalliert|abbestellt|zurückgeschickt|ich geb'?s auf|désinstallée?s?|résiliée?s?|supprimée?s?|renvoyée?s?|j'abandonne|cancelad[oa]s?|desinstalad[oa]s?|borrad[oa]s?|devuelt[oa]s?|me rindo|desisto|devolvid[oa]s?|disdett[oa]|disinstallat[oa]|cancellat[oa]|mi arrendo|opgezegd|verwijderd|gedeïnstalleerd|teruggestuurd|ik geef het op|odinstalowan\p{L}*|anulowan\p{L}*|usunięt\p{L}*|poddaję się|avinstallerad\p{L}*|uppsagd|uppsagt|raderad\p{L}*|jag ger upp|(?:解約|退会|削除|アンインストール|返品)(?:した|しました)?)[.!…。！]*\s*$/u,
);
const sentences = /[^.!?。！？\n]+[.!?。！？\n]*/gu;

/**
 * The post closes on a sentence that only says the writer left, after a
 * body that says why ("Planta kost meer dan de meeste van mijn planten. Een
 * gratis herinneringsapp doet hetzelfde. Opgezegd."): all nine such posts
 * of the training corpora, the tune posts and the development sets are
 * negative.
 */
export function closesByLeaving(text: string): boolean {
  const told = text.toLowerCase().match(sentences)?.filter((sentence) => sentence.trim() !== '') ?? [];
  return told.length > 1 && leavingVerdict.test(told[told.length - 1]);
}
