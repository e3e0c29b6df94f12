import { WordBoundedPattern } from './word-bounded-pattern.ts';

/** Phrases standing as words, and Japanese, which has no spaces, anywhere. */
interface CuePattern {
  words: WordBoundedPattern;
  japanese: RegExp | null;
}

function cue(phrases: string, japanese?: string): CuePattern {
  return { words: new WordBoundedPattern(phrases), japanese: japanese ? new RegExp(japanese, 'u') : null };
}

/**
 * Cues of a post's stance that mean the same in every language Earshot
 * reads (en, de, fr, es, pt, it, nl, pl, sv, ja): a fault that came back, a thing
 * that broke or came damaged ("dented", "chegou amassado", "won't turn on"), a purchase sent back, a price that rose, an answer still
 * awaited, more expected for the money, too much of something ("too
 * pricey", "troppo lunghi", "caro demais"), worse than it was ("used to
 * be instant", "since the last update", "antes era"), a question that is a
 * complaint ("why does…", "anyone else with…", "is that normal?",
 * "¿en serio…?"), something lacking ("still has no", "fehlt", "manca"),
 * something that lasted, a purchase the writer would make again. The opinion models learn one weight per cue
 * from posts of any language, so that "se me rompió el cargador" weighs
 * what "the charger broke" weighs where no Spanish training post says it.
 * Patterns are lower case and meet lower-cased text.
 */
const cueFamilies: [name: string, pattern: CuePattern][] = [
  [
    'again',
    cue(String.raw`again|yet another|once more|for the (?:\w+) time|third time|schon wieder|wieder|erneut|zum \w+ mal|encore une fois|de nouveau|à nouveau|une fois de plus|énième|otra vez|de nuevo|una vez más|por enésima vez|de novo|outra vez|mais uma vez|di nuovo|ancora una volta|un'altra volta|per l'ennesima volta|alweer|opnieuw|nog een keer|znowu|znów|ponownie|po raz kolejny|po raz \p{L}+|kolejny raz|igen|återigen|än en gång|ännu en gång|(?:andra|tredje|fjärde|femte|sjätte|sjunde|åttonde|nionde|tionde) gången`, 'また|再び'),
  ],
  [
    'broke',
    cue(String.raw`broke|broken|cracked|cracks|leaking|leaks|leaked|fell off|fell apart|falling apart|tore|torn|ripped|snapped|peeling|died|dead after|stopped working|quit working|kaputt|defekt|gebrochen|gerissen|undicht|abgebrochen|abgefallen|cassée?s?|se casse(?:nt)?|fendue?s?|se fend(?:ent)?|déchirée?s?|se déchire(?:nt)?|fuit|en panne|tombée? en panne|rot[oa]s?|rompió|se rompió|se rajó|gotea|dejó de funcionar|quebr(?:ou|ad[oa])|rachou|rasgou|vaza|parou de funcionar|rott[oa]|si è rott[oa]|crepat[oa]|smesso di funzionare|kapot|gebroken|gescheurd|lekt|stuk gegaan|zepsuł\p{L}*|zepsut\p{L}*|pękł\p{L}*|pęknięt\p{L}*|rozpadł\p{L}*|przestał\p{L}* działać|cieknie|przecieka|odpadł\p{L}*|gick sönder|gått sönder|trasig\p{L}*|läcker|sprack|spruckit|slutade (?:fungera|funka)|slutat (?:fungera|funka)|dented|scuffed|arrived damaged|came damaged|damaged in (?:transit|shipping)|dead on arrival|(?:won't|wo not|will not|doesn't|does not|can't|ca not) (?:turn on|power on|boot)|verbeult|zerkratzt|beschädigt|geht nicht mehr an|lässt sich nicht mehr einschalten|abîmée?s?|cabossée?s?|endommagée?s?|ne s'allume plus|abollad[oa]s?|dañad[oa]s?|ya no enciende|ya no prende|amassad[oa]s?|danificad[oa]s?|não liga mais|chegou quebrad[oa]|ammaccat[oa]|ammaccatur\p{L}+|danneggiat[oa]|graffiat[oa]|non si accende più|gedeukt|deuk|bekrast|beschadigd|gaat niet meer aan|wgniecion\p{L}*|wgniecenie|porysowan\p{L}*|uszkodzon\p{L}*|nie włącza się|bucklig\p{L}*|buckla|repig\p{L}*|skadad\p{L}*|skadat|går inte att starta`, '壊れ|割れ|故障|漏れ|へこ|凹ん|破損|傷だらけ|電源が入らな'),
  ],
  [
    'sent-back',
    cue(String.raw`returned (?:it|them|the|my|our)|returning (?:it|them)|sent (?:it|them) back|refund(?:ed)?|zurückgeschickt|zurückgegeben|zurückschicken|zurückgeben|renvoyer|retourner|devolver|devolvê-l[oa]|restituire|rimandare indietro|terugsturen|retourneren|retoure|erstattung|renvoyée?s?|retournée?s?|rembours\w*|devolví|devolución|devuelt[oa]|reembolso|devolvi|devolução|reso|restituit[oa]|rimbors\w*|teruggestuurd|retour|terugbetaald|zwróciłe[mś]|zwróciłam|odesłałe[mś]|odesłałam|zwrot\p{L}*|reklamacj\p{L}*|skickade tillbaka|skickat tillbaka|returnerade|returnerat|pengarna tillbaka|återbetalning`, '返品|返金'),
  ],
  [
    'price-rise',
    cue(String.raw`(?:pric|preis|prix|preci|preç|prezz|prijs|abo|subscription)\w*[^.!?]{0,40}(?:raised|increased|went up|doubled|tripled|erhöht|gestiegen|augmenté|subió|subido|aumentou|aumentad[oa]|aumentato|verhoogd|gestegen)|(?:raised|increased|doubled|erhöht|augmenté|subió|aumentou|aumentato|verhoogd)[^.!?]{0,30}(?:pric|preis|prix|precio|preço|prezz|prijs)\w*|price (?:hike|increase|rise)|shrinkflation|more expensive|preis(?:e)? erhöht|preiserhöhung|teurer|augmenté (?:le|les|ses) prix|hausse (?:de|des) prix|plus cher|subió el precio|subida de precio|más car[oa]|aumentou o preço|mais car[oa]|aumentato il prezzo|rincar\w+|più car[oa]|prijsverhoging|duurder|podwyżk\p{L}*|podnieśli cen\p{L}*|podniosł\p{L}* cen\p{L}*|drożej|droższ\p{L}*|dyrare|prishöjning|höjt priset|höjde priset|höjer priset`, '値上げ'),
  ],
  [
    'kept-waiting',
    cue(String.raw`still waiting|weeks later|no (?:reply|answer|response|update|updates)|never heard back|on hold for|warte seit|keine (?:antwort|rückmeldung)|toujours pas|j'attends (?:toujours|depuis)|aucune (?:réponse|nouvelle)|sigo esperando|sin (?:respuesta|noticias)|todavía no|ainda não|sem (?:resposta|retorno)|continuo esperando|ancora non|sto ancora aspettando|nessuna (?:risposta|notizia)|wacht al|nog steeds (?:niet|geen)|geen (?:reactie|antwoord)|nadal czekam|wciąż czekam|brak odpowiedzi|bez odpowiedzi|zero odpowiedzi|väntar fortfarande|fortfarande inget|fortfarande ingen|inget svar från|utan svar`, '返事がない|返信がない'),
  ],
  [
    'expected-more',
    cue(String.raw`i (?:had )?expected (?:more|better)|expected more|i'd expect|i would expect|for (?:that|this|the) (?:price|money)|at (?:that|this) price|ich hätte (?:mehr )?erwartet|für (?:den|diesen) preis|je m'attendais|on s'attend|pour ce prix|à ce prix|esperaba (?:más|algo)|por ese precio|a ese precio|esperava (?:mais|algo)|por esse preço|a esse preço|mi aspettavo|per quel prezzo|a quel prezzo|ik had (?:meer )?verwacht|voor die prijs|voor dat geld|za tę cenę|za taką cenę|za takie pieniądze|spodziewał\p{L}* się więcej|oczekiwał\p{L}* więcej|för det priset|till det priset|förväntat mig mer|förväntade mig mer`, 'この値段で|期待外れ|期待してた'),
  ],
  [
    'too-much',
    cue(String.raw`(?:way |far |much )?too (?!(?:good|bad|and|but|so|the|a|an|i|it|is|was|for|to|in|on|at|with|lol)\b)\p{L}+|(?:viel |etwas |ein bisschen )?zu (?:teuer|groß|klein|laut|langsam|schwer|lang|kurz|eng|spät|wenig|viel|heiß|kalt|voll|kompliziert|dünn|dick|hoch|hart|breit|träge)|trop (?!(?:bien|bon|bonne|cool|beau|belle|mignon|mignonne|génial|fort|hâte)\b)\p{L}+|demasiad[oa]s? \p{L}+|(?:car[oa]s?|lent[oa]s?|pesad[oa]s?|grande|pequen[oa]|complicad[oa]) demais|tropp[oaie] (?!(?:bell|buon|fort)\p{L}*)\p{L}+|veel te \p{L}+|te (?:duur|groot|klein|luid|traag|zwaar|lang|kort|krap|laat|weinig|veel|heet|koud|vol|ingewikkeld|dun|dik|hoog|breed)|zbyt \p{L}+|za (?:drog\p{L}*|duż\p{L}*|mał\p{L}*|głośn\p{L}*|woln\p{L}*|ciężk\p{L}*|dług\p{L}*|krótk\p{L}*)|för (?:dyr|dyrt|dyra|långsam|långsamt|stor|stort|liten|litet|tung|tungt|krånglig|krångligt|högljudd|seg|segt|länge|mycket reklam)`),
  ],
  [
    'worse-since',
    cue(String.raw`used to (?:be|work|take|open|sync)|(?:since|after) (?:the|this|that|an?) (?:last |latest |recent |new )?(?:update|upgrade|release|version)|früher (?:war|ging|lief|hat)|seit (?:dem|der) (?:letzten |neuen )?(?:update|aktualisierung|version)|nach dem (?:letzten )?update|avant,? (?:c'était|ça|il|elle)|depuis (?:la|cette) (?:dernière )?(?:mise à jour|version)|après (?:la|cette) (?:dernière )?mise à jour|antes (?:era|iba|funcionaba|tardaba|abría)|desde (?:la|esta) (?:última )?(?:actualización|versión)|tras la (?:última )?actualización|antes (?:era|ia|funcionava|abria)|desde a (?:última )?(?:atualização|versão)|depois da (?:última )?atualização|prima (?:era|andava|funzionava)|dopo l'(?:ultimo )?aggiornamento|dall'(?:ultimo )?aggiornamento|vroeger (?:was|ging|werkte)|sinds de (?:laatste )?(?:update|versie)|na de (?:laatste )?update|geüpdatet|kiedyś (?:był\p{L}*|działał\p{L}*)|od (?:ostatniej )?aktualizacji|po (?:ostatniej )?aktualizacji|(?:efter|sedan) (?:den )?(?:senaste )?uppdateringen|förr (?:var|gick|funkade|fungerade)|brukade (?:vara|fungera|funka)`, 'アップデート後|アプデ後|更新してから|前は'),
  ],
  [
    'fault-question',
    cue(String.raw`why (?:does|doesn't|does not|is|isn't|won't|can't|do|don't|are|aren't|did|didn't|would|must|has|hasn't|on earth|the hell)|anyone else (?:with|having|getting|seeing|experiencing|notic\w+|had)|(?:is|was) (?:this|that|it) normal|how long (?:are we|do we|will|must|until)|seriously|warum|wieso|weshalb|noch jemand|jemand (?:anders|sonst)|ist das normal|ernsthaft|pourquoi|quelqu'un d'autre|c'est normal|sérieusement|por qué|alguien más|es normal|en serio|por que|porque é que|alguém mais|é normal|a sério|sério|perché|qualcun altro|è normale|sul serio|waarom|iemand anders|is dit normaal|serieus|dlaczego|czemu|ktoś jeszcze|czy to normalne|serio|varför|någon mer som|någon annan som|är det normalt`, 'なぜ|なんで|何年目|いつになったら'),
  ],
  [
    'lacks',
    cue(String.raw`lacks|lacking|(?:is|are) missing|still (?:has|have) no|still no|there's no|has no (?:way|option|support|setting)|fehlt|fehlen|es gibt kein\p{L}*|il manque|manque (?:de|d'|un|une)|il n'y a pas de|le falta|le faltan|falta|faltan|no tiene|não tem|faltam|manca|mancano|non c'è|non ha|ontbreekt|ontbreken|er is geen|brakuje|brak|nie ma|saknas|saknar|det finns ingen|det finns inget`, '足りない|がない|がなく'),
  ],
  [
    'lasted',
    cue(String.raw`still going strong|held up|holds up|survived|like new|after (?:\w+ )?(?:years|months) (?:still|of)|hält (?:seit|immer)|wie neu|nach \w+ jahren|immer noch (?:top|gut|wie)|comme neu(?:f|ve)|a survécu|tient toujours|como nuev[oa]|sobrevivió|sigue (?:funcionando|como)|como nov[oa]|sobreviveu|continua funcionando|come nuov[oa]|è sopravvissut[oa]|funziona ancora|als nieuw|heeft overleefd|werkt nog steeds|jak now[ya]|nadal działa|wciąż działa|po \p{L}+ latach|håller fortfarande|fungerar fortfarande|funkar fortfarande|som ny|efter \p{L}+ år`),
  ],
  [
    'would-again',
    cue(String.raw`would (?:buy|order|choose|pick|do) (?:it |them |this )?again|buy (?:it |them )?again|should have (?:done|bought|switched)|wish i had (?:done|bought|switched)|würde (?:ich |es )?(?:sofort |jederzeit )?wieder kaufen|hätte ich (?:mal )?früher|je (?:le |la |les )?rachèterai[st]?|j'aurais dû|volvería a comprar\w*|debí (?:haberlo|comprarlo)|compraria (?:de novo|outra vez)|devia ter|lo ricomprerei|ricomprerei|avrei dovuto|zou (?:ik|het) (?:zo )?weer kopen|had ik eerder moeten|kupił\p{L}*by\p{L}* (?:ponownie|jeszcze raz|znowu)|kupię (?:ponownie|jeszcze raz)|trzeba było (?:wcześniej|dawno)|skulle köpa (?:den |det |dem )?igen|köper (?:den |det )?igen|borde ha (?:bytt|köpt) tidigare`, 'リピート|また買'),
  ],
];

const holdsCue = (text: string, { words, japanese }: CuePattern) => words.test(text) || (japanese !== null && japanese.test(text));

/**
 * All families' phrases in one pattern: most posts hold no cue at all, and
 * one pass over them says so where eight would.
 */
const anyCue = cue(cueFamilies.map(([, pattern]) => pattern.words.source).join('|'), cueFamilies.flatMap(([, pattern]) => (pattern.japanese ? [pattern.japanese.source] : [])).join('|'));

/** The stance cues a post's lower-cased text holds, as feature names for the opinion models. */
export function stanceCues(lowerText: string): string[] {
  if (!holdsCue(lowerText, anyCue)) return [];
  const found = cueFamilies.flatMap(([name, pattern]) => (holdsCue(lowerText, pattern) ? [name] : []));
  // "Würde ich wieder kaufen", "would buy it again": a purchase made again is no fault come back.
  return found.includes('would-again') ? found.filter((name) => name !== 'again') : found;
}

/**
 * A question asking whether the fault is the writer's alone or shared ("Is
 * it just me or did the plant ID get worse?", "Anyone else getting this?",
 * "¿Soy yo o cambió la fórmula?", "Alguém mais com o app apagando…?", "Bin
 * ich der Einzige…", "C'est moi ou…", "Ligt het aan mij…", "Czy tylko u
 * mnie…", "Är det bara jag…", "私だけ？"): nobody asks others to confirm
 * what pleases them. Of the 11 such posts of the training corpora, the tune
 * posts and the development sets, 10 are labelled negative.
 */
const sharedFaultQuestion = cue(
  String.raw`is it just me|is it only me|am i the only one|(?:has |is )?anyone else (?:having|getting|seeing|experiencing|notic\w+|had|with)|soy yo o|soy (?:el|la) únic[oa]|le pasa a alguien más|alguien más (?:con|tiene|le pasa)|bin ich (?:der|die) einzige|liegt es an mir|geht es noch jemandem so|c'est moi ou|suis-je (?:le|la) seul|je suis (?:le|la) seul|(?:sou )?só eu ou|sou eu ou|alguém mais (?:com|tem|teve|está)|sono (?:io|l'unico|l'unica)|capita solo a me|ben ik de enige|ligt het aan mij|czy tylko (?:ja|mi|u mnie|mnie)|är det bara jag|någon mer som (?:har|får)`,
  '(?:私|自分|僕|俺)だけ[？?]',
);

/** The post asks whether its fault is shared (`sharedFaultQuestion`); `lowerText` is lower-cased. */
export const asksWhetherShared = (lowerText: string) => holdsCue(lowerText, sharedFaultQuestion);
