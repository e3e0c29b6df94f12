import { LiteralGuardedPattern } from './literal-guarded-pattern.ts';
import { clausesOf, sentencesOf } from './post-sentences.ts';
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
 * Leaving a product right before its name, whether or not the other is
 * named: "switched our lab off", "moving away from".
 */
const leftOff = unicodeWords(/\b(?:switch\w*|mov(?:e|ed|ing)|migrat\w*)(?: \S+){0,3}? (?:off|away from) (?:the |my |our )?$/u);
/** Dropping a product right before its name: "dropped", "ditched", "left"… */
const dropped = unicodeWords(/\b(?:dropped|ditched|dumped|uninstalled|left) (?:the |my |our )?$/u);
/** …where the name closes its clause (a dropped call, a Yeti left in the car are no leaving) ("Kept Lightroom's camera, dropped Halide.") or the other follows ("Left Harvest for Clockify"). */
const leftEnds = unicodeWords(/^\S*(?:\s*(?:[.!;…]|$)| (?:for|to)\b)/u);

/**
 * The writer moving to a product, and the product it moved to (`to`):
 * "switched to Pimsleur", "went back to Greg", "moved the whole crew to
 * Milwaukee", "bin zu DaVinci Resolve gewechselt", "overgestapt naar bunq",
 * "je suis passé à Proton", "me cambié a Pepephone", "mudei para o Kobo",
 * "sono passato a Obsidian", "przeszedłem na Kindle". An English verb of
 * moving opens its clause or follows its subject ("I", "we", "and") and is
 * done or under way: "after switching the account to OAuth2" moves no
 * writer, "Going back to Jira feels like wading through mud" only imagines
 * it, "thinking about switching to" not yet; a bare "moved to" is mostly a
 * home.
 */
const movedTo = unicodeWords(
  /(?:(?:^\s*|[,;:(—–-]\s*|\b(?:i|we|i've|we've|and|then|so|finally|eventually|just|already|have|has|had)\s+)(?:switched|migrated|(?:went|gone|came) back|moved (?:back|over)|moved(?= (?:from|my|our|the|his|her|their|all|everything)\b))|\b(?:i'm|we're|i am|we are) (?:switching|migrating|going back|moving (?:back|over)|moving(?= (?:from|my|our|the|his|her|their|all|everything)\b)))(?: \S+){0,5}? (?:to|onto) (?<to>.+)|\b(?:zu|auf|nach) (?<toDe>(?:(?!(?:zu|auf|nach) )\S+ ){0,3}\S+) (?:gewechselt|umgestiegen|zurückgekehrt|zurückgegangen)\b|\b(?:wechsle|wechseln|wechselte|wechselten|steige|steigen)(?: \S+){0,3}? (?:zu|auf) (?<toDe2>.+)|\b(?:overgestapt|overgeschakeld|gemigreerd|teruggegaan|overgegaan) naar (?<toNl>.+)|\bnaar (?<toNl2>(?:(?!naar )\S+ ){0,3}\S+) (?:overgestapt|overgeschakeld|gemigreerd|teruggegaan|overgegaan)\b|\b(?:(?:suis|sommes|est) (?:passée?s?|revenue?s?|retournée?s?)|ai migré|avons migré|je passe) (?:à|sur|vers|chez) (?<toFr>.+)|\b(?:me cambié|me pasé|nos cambiamos|nos pasamos|volví|migré|migramos) (?:a|al) (?<toEs>.+)|\b(?:mudei|mudamos|migrei|migramos|voltei|passei) (?:para|pra|pro|ao|à) (?<toPt>.+)|\b(?:sono passat[oa]|siamo passat[ie]|sono tornat[oa]|siamo tornat[ie]|ho migrato|abbiamo migrato) (?:a|al|alla|ad|su) (?<toIt>.+)|\b(?:przeszed\p{L}*|przesiad\p{L}* się|wróci\p{L}*) (?:na|do) (?<toPl>.+)/u,
);
/**
 * The writer moving to a product in Japanese, named in Latin letters or
 * katakana before the particle: "Castro に移行", "Fantasticalに変えてから",
 * "Sway に乗り換えて"; "…に移行したい", "…に切り替えようか" only want to.
 */
const movedToInJapanese = /([\p{Script=Latin}\p{N}][\p{Script=Latin}\p{N} .+-]*|[\p{Script=Katakana}ー]{2,})\s*(?:に|へ)(?:移行|乗り換え|乗換え|変え|切り替え|切替え)(?!たい|よう)/u;
/** The verbs alone: the whole pattern, which starts anywhere in a run of Latin letters, is tried only where one stands. */
const movingInJapanese = /移行|乗り換え|乗換え|変え|切り替え|切替え/u;
/** …and the product it left, before "から" in the same sentence. */
const movedFromInJapanese = /から[^。！？]*$/u;
/** `movedTo` tried only on a clause of a post that holds one of its words, told by the post's three-character runs: most hold none. */
const mayHaveMovedTo = new LiteralGuardedPattern(movedTo);
/** The product moved to is a name: a capital letter among its first three words ("to a Reolink PoE doorbell", "to Overcast"), not "back to sleep". */
const namedDestination = /^(?:\S+ ){0,2}?[\p{Lu}\p{Script=Katakana}]/u;
/** The product left named before the one moved to: "from", "von", "van". */
const movedFrom = unicodeWords(/\b(?:from|von|van)\b/u);
/** Words read as the product moved to: "a Reolink PoE doorbell", "the Vivaldi browser". */
const destinationWords = 4;

/** Which way a post moves between the product tracked and another: `leaves` it, `joins` it, or neither. */
export type TrackedMove = 'leaves' | 'joins' | null;

/**
 * The post leaves the product it names for another ("Switched from Monarch
 * to Tallyroot", "Troquei o Whoop por um relógio Garmin", "J'ai remplacé
 * Futura par Avenir", "Left Harvest for Clockify", "dropped Halide"), or
 * the writer moves to another product while naming this one ("After 200
 * days of Drops… Switched to Pimsleur"), or moves to this one ("Tried the
 * store brand for a month, went back to Tide", "Castro に移行"): `namePattern` finds the
 * name (global, any case).
 */
export function trackedMove(text: string, namePattern: RegExp): TrackedMove {
  const lower = text.toLowerCase();
  for (const match of text.matchAll(namePattern)) {
    const start = match.index ?? 0;
    const end = start + match[0].length;
    const before = lower.slice(Math.max(0, start - reach.before), start);
    const after = lower.slice(end, end + reach.after);
    if ((leftFrom.test(before) && leftFor.test(after)) || leftOff.test(before) || (dropped.test(before) && leftEnds.test(after))) return 'leaves';
  }
  const japanese = movingInJapanese.test(text) ? movedToInJapanese.exec(text) : null;
  if (japanese) {
    if (japanese[1].search(namePattern) >= 0) return 'joins';
    const from = text.slice(0, japanese.index).match(movedFromInJapanese);
    if (!from || from[0].search(namePattern) >= 0) return 'leaves';
  }
  for (const clause of clausesOf(text)) {
    const clauseLower = clause.toLowerCase();
    const moved = mayHaveMovedTo.test(clauseLower, lower) ? movedTo.exec(clauseLower) : null;
    if (!moved?.groups) continue;
    const named = Object.values(moved.groups).find((value) => value !== undefined)!;
    const destinationStart = moved.index + moved[0].lastIndexOf(named);
    const destination = clause.slice(destinationStart).split(/[,:(—–]/u, 1)[0].split(/\s+/u, destinationWords).join(' ');
    if (destination.search(namePattern) >= 0) return 'joins';
    // A move from a third product ("Switched from LaunchDarkly to Flagpole for our feature flags") leaves no product tracked.
    if (namedDestination.test(destination) && !movedFrom.test(moved[0].slice(0, moved[0].length - named.length))) return 'leaves';
  }
  return null;
}

/**
 * A closing sentence that is only the writer's leaving ("Cancelled.",
 * "Returning it.", "Gelöscht.", "Opgezegd.", "Ik geef het op.", "Cancelado.",
 * "Désinstallé.", "解約した。"): the verdict the body led to, in ten languages.
 */
const leavingVerdict = unicodeWords(
  /^\s*(?:cancell?ed|uninstalled|deleted|unsubscribed|returned|returning (?:it|them)|sent (?:it|them) back|i give up|gelöscht|gekündigt|deinstalliert|abbestellt|zurückgeschickt|ich geb'?s auf|désinstallée?s?|résiliée?s?|supprimée?s?|renvoyée?s?|j'abandonne|cancelad[oa]s?|desinstalad[oa]s?|borrad[oa]s?|devuelt[oa]s?|me rindo|desisto|devolvid[oa]s?|disdett[oa]|disinstallat[oa]|cancellat[oa]|mi arrendo|opgezegd|verwijderd|gedeïnstalleerd|teruggestuurd|ik geef het op|odinstalowan\p{L}*|anulowan\p{L}*|usunięt\p{L}*|poddaję się|avinstallerad\p{L}*|uppsagd|uppsagt|raderad\p{L}*|jag ger upp|(?:解約|退会|削除|アンインストール|返品)(?:した|しました)?)[.!…。！]*\s*$/u,
);
/**
 * A closing sentence that is only a word of disappointment ("Sad.",
 * "Disappointing.", "Jammer.", "Dommage.", "Schade.", "Peccato.", "Szkoda.",
 * "残念。"): the verdict the body led to, as a leaving is.
 */
const disappointedVerdict = unicodeWords(
  /^\s*(?:(?:so |such a |what a |too |a )?(?:sad|disappointing|shame|pity|bad|letdown)|(?:zu |echt |sehr )?(?:schade|enttäuschend)|(?:quel |vraiment )?(?:dommage|décevant)|(?:qué |una )?(?:lástima|pena)|(?:muy )?decepcionante|(?:que )?pena|(?:che )?peccato|deludente|(?:echt |heel )?(?:jammer|teleurstellend)|szkoda|rozczarowujące|synd|(?:残念|がっかり)(?:だ|です)?)[.!…。！]*\s*$/u,
);

/**
 * The post closes on a sentence that only says the writer left, after a
 * body that says why ("Planta kost meer dan de meeste van mijn planten. Een
 * gratis herinneringsapp doet hetzelfde. Opgezegd."): all nine such posts
 * of the training corpora, the tune posts and the development sets are
 * negative; or that only says the writer is disappointed ("…verkeerde kleur
 * ontvangen en retourneren kost me zelf 15 euro. Jammer."): all four such
 * posts of the development sets are negative (the corpora hold none).
 */
export function closesOnVerdict(text: string): boolean {
  const told = sentencesOf(text.toLowerCase()).filter((sentence) => sentence.trim() !== '');
  return told.length > 1 && (leavingVerdict.test(told[told.length - 1]) || disappointedVerdict.test(told[told.length - 1]));
}
