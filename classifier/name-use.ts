import { unicodeWords } from './unicode-word-boundaries.ts';

/**
 * How a post uses a term that is also an everyday word, read from the words
 * right around it: as the name of something people use, buy and compare
 * ("just tried Acme", "Acme support", "Acme vs Globex", "Acme Corp", "Acme is
 * great"), or as
 * the word itself ("out of earshot", "the acme of", "a paper lantern").
 * Where the user said nothing of the sense, this is the only evidence there
 * is; the cues are of how English writes any name of a product or company,
 * so they list no product. A capital alone (`capitalised`) says less than
 * the words around the name: places and events are capitalised too.
 */
export type NameUse = 'name' | 'capitalised' | 'word' | null;

/** Verbs of using, choosing, paying for (or donating to) and leaving a product, right before its name ("switched to", "paying for", "donated to"), and a launch's heading ("Show HN:", "Introducing"). */
const useBefore = unicodeWords(
  /\b(?:use[ds]?|using|set(?:s|ting)? up|configur(?:e|es|ed|ing)|tr(?:y|ied|ies|ying)(?: out)?|test(?:s|ed|ing)?|install(?:s|ed|ing)?|uninstall(?:ed)?|download(?:ed)?|buy(?:ing)?|bought|recommend(?:s|ed)?|(?:switch(?:ed|ing)?|mov(?:e|ed|ing)|migrat(?:e|ed|ing)|upgrad(?:e|ed|ing)) (?:to|from)|(?:subscrib(?:e|ed|ing)|sign(?:ed)? up) (?:to|for|with)|(?:pay(?:ing)?|paid) for|donat(?:e|es|ed|ing) to|cancel(?:l?ed|l?ing)?|ditch(?:ed)?|dump(?:ed|ing)?|chose|choose|picked|evaluat(?:e|ed|ing)|vs\.?|versus|than|over|love[ds]?|hate[ds]?|(?:show|launch) hn:|introducing|announcing)[ \t]+(?:the[ \t]+)?$/iu,
);

/** A verb of using, choosing or paying for a product right before its name (`useBefore`): "Installed the Ring", "switched to Hinge". */
export const usedBefore = (before: string) => useBefore.test(before) || useBeforeElsewhere.test(before);

/**
 * The same in the other languages the classifier reads, and the experience
 * had with a product ("umgestiegen auf", "passé à", "cambié a", "Erfahrung
 * mit", "ervaring met", "korzystam z"), an article allowed between.
 */
const useBeforeElsewhere = unicodeWords(
  /\b(?:benutze|nutze|verwende|(?:umgestiegen|gewechselt|umsteigen|wechseln)[ \t]+(?:auf|zu)|Erfahrung(?:en)?[ \t]+mit|(?:ausprobiert|getestet|gekauft|installiert)|j['’]utilise|utilise|utiliser|(?:pass[ée]|passer|migr[ée])[ \t]+(?:à|sur|vers)|essay[ée]|test[ée]|achet[ée]|install[ée]|exp[ée]rience[ \t]+avec|uso|usar|usando|utilizo|(?:cambi[ée]|pas[ée]|migr[ée])[ \t]+a|prob[ée]|compr[ée]|instal[ée]|experiencia[ \t]+con|(?:mudei|migrei|troquei|passei)[ \t]+(?:para|pro)|testei|comprei|instalei|experi[êe]ncia[ \t]+com|usare|(?:passat[oa]|migrat[oa])[ \t]+a|provato|comprato|installato|esperienza[ \t]+con|gebruik|gebruiken|(?:overgestapt|overstappen)[ \t]+(?:naar|op)|geprobeerd|gekocht|ge[ïi]nstalleerd|ervaring[ \t]+met|używam|korzystam[ \t]+z|przeszed[łl]em[ \t]+na|kupi[łl]em|zainstalowa[łl]em)[ \t]+(?:(?:der|die|das|den|dem|le|la|l['’]|el|o|a|il|lo|het|de)[ \t]+)?$/iu,
);

/**
 * What follows a product's or a company's name: its parts and the people
 * around it ("Acme support", "Acme's pricing"), a legal form ("Acme Corp"),
 * another product it is weighed against ("Acme vs Globex").
 */
const productPartAfter = unicodeWords(
  /^(?:'s|’s)?[ \t]+(?:app|apps|tool|software|service|platform|product|products|account|accounts|login|pricing|price|prices|plan|plans|subscription|support|team|customer|customers|users|release|update|updates|version|api|sdk|dashboard|integration|integrations|extension|plugin|feature|features|docs|inc|corp|corporation|ltd|llc|gmbh|labs|technologies|hq|vs\.?|versus)\b/iu,
);

/** "Acme is a great tool", "earshot was the best app": the name said to be a product. */
const saidToBeProduct = unicodeWords(
  /^[ \t]+(?:is|was|has been|seems|looks)[ \t]+(?:a|an|the|my|our)[ \t]+(?:[\p{L}-]+[ \t]+){0,3}(?:app|tool|software|service|platform|product|company|startup|brand|alternative)\b/iu,
);

/** "Canvas is down again", "Orbit keeps crashing": an outage or a fault, which befalls a service or an app. */
const failingAfter = unicodeWords(
  /^[ \t]+(?:(?:is|was|has been|seems|went|goes|keeps)[ \t]+(?:down|offline|broken|crashing|glitching|lagging|freezing|logging me out)|(?:is|was)[ \t]+not[ \t]+(?:working|loading|syncing)|(?:down|crashed|crashes|won['’]t[ \t]+(?:load|open|sync)|not[ \t]+(?:working|loading|syncing))\b)/iu,
);

/**
 * "Acme is great", "Pebble was so buggy", "Quill is worth it": a verdict on
 * the name itself, as people give products. Read after the determiner test,
 * so "the sage is great" stays the word.
 */
const judgedAfter = unicodeWords(
  /^[ \t]+(?:is|was|has been|seems|looks|feels)[ \t]+(?:(?:so|really|absolutely|totally|pretty|just|honestly|still)[ \t]+)?(?:great|amazing|awesome|excellent|fantastic|brilliant|incredible|terrible|awful|horrible|useless|garbage|trash|buggy|slow|overpriced|worth it|the best|the worst)\b/iu,
);

/** "Acme raises $10M", "Acme launched v2", "Acme rocks": what a company or a product does, said right after its name. */
const companyActsAfter = unicodeWords(
  /^[ \t]+(?:raise[sd]|launch(?:es|ed)|announce[sd]|release[sd]|ship(?:s|ped)|acquire[sd]|rocks|sucks)\b/iu,
);

/** Legal forms of a company: the name beside them is the company's, not part of another name. */
export const companyForm = /^(?:Inc|Corp|Corporation|Ltd|LLC|GmbH|Labs|Technologies|HQ)\.?$/u;

/**
 * A word that makes the everyday word a common noun or an idiom right
 * before it ("out of earshot", "within earshot", "the acme", "a lantern",
 * "this notion"), or "of" right after it ("the acme of").
 */
const determinerBefore = unicodeWords(
  /\b(?:[Oo]f|[Ww]ithin|[Aa]n?|[Tt]he|[Tt]his|[Tt]hat|[Tt]hese|[Tt]hose|[Ee]very|[Ee]ach|[Ss]ome|[Aa]ny|[Nn]o|[Hh]is|[Hh]er|[Ii]ts|[Tt]heir|[Ss]uch)[ \t]+(?:[\p{Ll}-]+[ \t]+)?$/u,
);
const ofAfter = /^[ \t]+of\b/u;

/** "my Osprey Atmos", "our old Nook": a possessive, and an adjective or none, right before the name. */
const ownedBefore = unicodeWords(/\b(?:[Mm]y|[Oo]ur|[Yy]our)[ \t]+(?:\p{Ll}+[ \t]+)?$/u);

/**
 * What follows a bare subject: an auxiliary, a modal, an adverb, a verb in
 * the past ("Sway has been…", "Tide shrank…" is read by the auxiliary
 * alone), or one of the commonest verbs in the present or an irregular past
 * that is rarely a plural noun ("Whoop caught that…", "Merlin identifies…",
 * "Lemonade reports Q3…"); those that are often one are left out ("Ring
 * lights", "Harvest tracks", "Compass points": wink's tagger, tried, reads
 * them no better, and costs 75 µs a sentence), unless an object follows,
 * which a plural noun takes no more than the name does ("but Alfred shows
 * no results", "Osprey updates the Aether").
 */
const verbAfterSubject = unicodeWords(
  /^[ \t]+(?:(?:just|still|now|finally|really|actually|also|never|always)\b|(?:is|was|has|had|have|keeps|kept|can|can['’]t|cannot|won['’]t|doesn['’]t|didn['’]t|does|did|will|would|should|could|isn['’]t|wasn['’]t|hasn['’]t|seems|feels|looks|gets|got|makes|made|lets|told|said|says|tells|sends|asks|gives|takes|uses|supports|offers|charges|wants|refuses|knows|thinks|reminds|detects|recogni[sz]es|identifies|suggests|notifies|syncs|unveils|introduces|hires|expands|sues|narrows|reports|caught|gave|took|sent|knew|thought|went|came|wrote|broke|brought|sold|forgot|showed)\b|\p{Ll}+ed\b|\p{Ll}+[^s\P{Ll}]s[ \t]+(?:the|my|your|our|his|her|their|its|no|me|us|you|him|them|it)\b)/u,
);

/**
 * A preposition of what one works on, with or through, right before a
 * capitalised English word with no article ("Andy's voice on Headspace",
 * "typing it into Fantastical", "booked via Kayak", "invoicing with
 * Harvest"): the word is used as the name of a service or a tool ("in" and
 * "from" are as often a place's).
 */
const throughBefore = /(?<![\p{L}\p{N}])(?:on|with|into|via|through)[ \t]+$/u;

/** "Sway's answer", "Halide’s histogram": a possessive right after the name, then a word of what it owns. */
const possessiveAfter = /^['’]s[ \t]+\p{L}/u;
/** A capitalised word right before the name: the possessive is then that name's ("Taylor Swift's"). */
const capitalisedWordBefore = /\p{Lu}[\p{L}\p{N}]*[ \t]+$/u;

/**
 * The name of a thing owned ("my Whoop strap", "our Linear workspace"), used
 * or chosen (`usedBefore`: "Installed the Ring", "switched to Hinge"), the
 * bare subject of a sentence ("Sway has been my daily driver", "Notion
 * went down", "Whoop caught that I was getting sick", or before what a
 * company does, `companyActsAfter`: "Fender announces…") or an owner itself,
 * capitalised with no article ("Sway's answer to every feature request",
 * "Halide's histogram"): where a common word opens a sentence with no
 * article and a verb follows, or takes a possessive bare, it is a name (or
 * a mass noun, which the post's other words then tell apart; English says
 * "the helix's pitch" of the word). Read for any term that is also an
 * everyday word; a capital at a sentence's start says nothing by itself.
 * The possessive only of an English word (`englishWord`): a person's name
 * takes it too ("Vivaldi's opera"); so too a preposition of the service or
 * tool one works on or through (`throughBefore`: "on Headspace", "with
 * Castro" is as often a person). Written in lower case, the term is read
 * only where the case says nothing (`caseSaysNothing`: an English sentence
 * opened in lower case, "ring just told me…", by a writer who capitalises
 * no sentence, so would not the name either). A clause a conjunction opens
 * reads as a sentence does ("…, but Sway has been…"). In a post in
 * another language (`otherLanguage`) an English word is also a bare subject
 * before that language's auxiliaries or an object pronoun ("Headspace hat
 * mir…", "Drops me ayuda…"); a person's or a place's name is as often one
 * there ("Weber ha segnato", "Milwaukee hat mich überrascht").
 */
export function ownedOrSubject(
  text: string,
  index: number,
  found: string,
  at: { sentenceStart: boolean; caseSaysNothing: boolean; otherLanguage: boolean },
  englishWord: boolean,
): boolean {
  if (found.charAt(0) === found.charAt(0).toLowerCase() && !at.caseSaysNothing) return false;
  const before = text.slice(Math.max(0, index - 30), index);
  if (ownedBefore.test(before) || usedBefore(before)) return true;
  const after = text.slice(index + found.length, index + found.length + 30);
  if (englishWord && throughBefore.test(before)) return true;
  if (englishWord && possessiveAfter.test(after) && !determinerBefore.test(before) && (at.sentenceStart || !capitalisedWordBefore.test(before))) return true;
  // A conjunction opens a clause as a full stop does a sentence: "…, but Sway has been", "maar Alfred is sneller".
  const clauseStart = at.sentenceStart || conjunctionBefore.test(before);
  if (!clauseStart) return false;
  if (verbAfterSubject.test(after) || companyActsAfter.test(after)) return true;
  return at.otherLanguage && englishWord && (verbAfterSubjectElsewhere.test(after) || pronounAfterSubject.test(after));
}

/** A conjunction right before a word ("but", "that", "maar", "que"), in the languages the classifier reads: what follows opens a clause. */
const conjunctionBefore = /(?<![\p{L}\p{N}])(?:but|and|so|that|dass|que|che|dat|że|att|maar|aber|und|mais|et|pero|y|ma|e|mas|ale|men|och)[ \t]+$/iu;

/**
 * An auxiliary or a common verb right after a bare subject in the other
 * languages the classifier reads ("Headspace hat mir…", "Sway est…", "Drops
 * tem…", "Ancestry heeft…").
 */
const verbAfterSubjectElsewhere = unicodeWords(
  /^[ \t]+(?:ist|war|sind|hat|hatte|wird|kann|heeft|had|kan|wordt|werkt|est|était|a|fait|es|está|era|fue|ha|tiene|é|foi|tem|è|jest|ma|był)\b/u,
);
/** An object pronoun right after a bare subject, before its verb ("Merlin me marca…", "Sway m'a sauvé", "Drops mi ha…"). */
const pronounAfterSubject = /^[ \t]+(?:me|te|se|nos|mi|ti|ci|si|m['’]|t['’]|s['’]|n['’]|ne)(?![\p{L}])/u;

/** An opening quotation mark not joined to a word, then up to three capitalised words of a title ("« The Time Machine »"), or an ampersand or a plus joining two. */
const quoteOpensBefore = /(?:[«“„『「‘]|(?<![\p{L}\p{N}])["'])[ \t]*(?:(?:[\p{Lu}\p{N}][\p{L}\p{N}]*|[&+])[ \t]+){0,3}$/u;
/** Up to three capitalised words, or an ampersand or a plus, then a closing quotation mark not joined to a word ("Fantastical Creatures"", "Harvest & Wine"; German closes „…“ with “). */
const quoteClosesAfter = /^(?:[ \t]+(?:[\p{Lu}\p{N}][\p{L}\p{N}]*|[&+])){0,3}[ \t]*(?:[»”“』」]|["'’](?![\p{L}\p{N}]))/u;

/**
 * The term inside quotation marks, alone or within a title of a few
 * capitalised words: quotation marks set off the title of a work (a book,
 * a film, a series, a board game, a show) or the word itself as a word
 * ("« Ancestry »", "Brettspiel "Time Machine"", "『The Time Machine』",
 * ""mullvad" means mole"), in every language that writes them, and people
 * do not quote the name of a product they use unless a product's part
 * follows the quote ("the "Merlin" app") or a word right before or after
 * it names its kind (`namesKind`, read in the post's language: "l'appli
 * « Merlin »", "o aplicativo "Cura"").
 */
export function quotedAsTitle(text: string, index: number, found: string, namesKind: (word: string) => boolean): boolean {
  const before = text.slice(Math.max(0, index - 60), index);
  const opening = quoteOpensBefore.exec(before);
  if (!opening) return false;
  const after = text.slice(index + found.length, index + found.length + 80);
  const closing = quoteClosesAfter.exec(after);
  if (closing === null || productPartAfter.test(after.slice(closing[0].length))) return false;
  // A kind noun right before the quote or right after it ("l'appli « Merlin »", "la herramienta "Cura"", "« Merlin » appli").
  const kindBefore = wordRightBefore.exec(before.slice(0, opening.index))?.[1];
  const kindAfter = wordRightAfter.exec(after.slice(closing[0].length))?.[1];
  return !(kindBefore && namesKind(kindBefore.toLowerCase())) && !(kindAfter && namesKind(kindAfter.toLowerCase()));
}

const wordRightBefore = /(\p{L}+)[ \t]*$/u;
const wordRightAfter = /^[ \t]*(\p{L}+)/u;

/** An article in the languages the classifier reads, opening a gloss. */
const glossArticle = String.raw`(?:the|an?|la|le|les|l'|el|los|las|il|lo|gli|una?|uno|der|die|das|den|ein|eine|einen|o|os|um|uma|de|het|een)`;
/**
 * A gloss right after the name: an appositive after a comma or a dash, or a
 * bracket, opened by an article ("Tide, la néobanque britannique, …",
 * "Halide (the DSL)", "die Futura, das Ausflugsschiff", "Merlin, o cachorro
 * aqui de casa", "Show HN: Fender – a small backpressure layer for…"); after
 * a dash, where nothing else follows a name so, the gloss runs on to the
 * end of its clause or its first 80 characters.
 */
const glossAfterName = new RegExp(
  String.raw`^(?:[ \t]*[(（][ \t]*(${glossArticle}[ \t]+[^)）]{2,80})[)）]|,[ \t]+(${glossArticle}[ \t]+[^,.;:!?()（）]{2,80})(?:[,.;:!?(（]|$)|[ \t]+[–—-][ \t]+(${glossArticle}[ \t]+[^,.;:!?()（）]{2,80}))`,
  'iu',
);
/**
 * English also glosses a name with no comma, "the" and a noun phrase right
 * after it, where the name opens the post or a sentence ("Osprey the HOA
 * landscaping company "trimmed" our hedges", as a context says "Kayak the
 * travel search site"); a verb there takes its object so ("Ring the bell"),
 * and a verb is no product's name either. The gloss runs to the first
 * punctuation or quotation mark.
 */
const bareAppositiveAfter = /^[ \t]+(the[ \t]+[^,.;:!?()（）"“”«»]{2,80})/u;
/** The post's or a full sentence's start right before the name. */
const opensPostOrSentence = (text: string, index: number) => index === 0 || /[.!?][ \t]+$/u.test(text.slice(Math.max(0, index - 4), index));
/** What a gloss denies after "not" names what the name is not ("a Lua library, not the fitness band"). */
const glossNegation = /[ \t,;]+(?:not|nicht|kein\p{L}*|pas|non|no|niet|nie|não)[ \t]+/iu;

/**
 * A finite verb of being or having in a gloss's languages: "the sync is
 * broken" after a comma is a clause of its own, not a gloss, which names
 * what the name is and says nothing of it.
 */
const clauseVerb = unicodeWords(
  /\b(?:is|was|are|were|has|have|had|does|did|will|would|can|could|ist|war|sind|waren|hat|hatte|haben|wird|est|était|sont|ont|es|está|están|son|era|fue|ha|han|é|foi|são|tem|estava|è|sono|hanno|zijn|heeft|hebben|wordt|werd|jest|był|była|są|ma)\b/iu,
);

/**
 * A writer glosses a name with what it is, in an appositive or a bracket
 * after it, where readers would otherwise take it for something else: the
 * gloss's words say what the name stands for in this post (what it is said
 * not to be left out). Null where nothing glosses the name.
 */
export function glossOf(text: string, index: number, found: string, otherLanguage: boolean, senseStated: boolean): string | null {
  const after = text.slice(index + found.length, index + found.length + 100);
  const gloss = glossAfterName.exec(after) ?? (opensPostOrSentence(text, index) ? bareAppositiveAfter.exec(after) : null);
  // A dash after a launch's name says what kind of product it is ("Show HN: Acme – a faster way to ship"): where no
  // sense is stated (`senseStated`), any product is the sense, and a kind of product is no other thing.
  if (!gloss || (gloss[3] !== undefined && !senseStated)) return otherLanguage ? bareBracketGloss(after) : null;
  const named = (gloss[1] ?? gloss[2] ?? gloss[3]).split(glossNegation)[0];
  return clauseVerb.test(named) ? null : named;
}

/** A bracket right after the name holding a few words and nothing else: no number, version, address or tag. */
const bareBracketAfterName = /^[ \t]*[(（]([^)）\d.:/@#]{2,60})[)）]/u;
/** Words that open an aside rather than a gloss ("(and what I miss)", "(et encore)", "(ja, wirklich)"). */
const asideOpener = /^[ \t]*(?:and|or|but|so|also|still|again|und|oder|aber|auch|noch|ja|et|ou|mais|encore|y|o|pero|también|e|mas|também|ma|anche|ancora|en|of|maar|ook|nog|i|lub|ale|też)(?![\p{L}\p{N}])/iu;

/**
 * In a post in another language, a bracket right after the name with no
 * article is the writer's own word for what the name is ("Ring (Schmuck)",
 * "Thunderbird（米空軍のアクロバット飛行隊）", "mullvad (Maulwurf auf
 * Schwedisch)"): a foreign name is glossed so in the reader's language,
 * and Japanese writes no article. English asides in brackets ("(beta)",
 * "(lol)") are too many to read so.
 */
function bareBracketGloss(after: string): string | null {
  const bracket = bareBracketAfterName.exec(after);
  if (!bracket || asideOpener.test(bracket[1]) || clauseVerb.test(bracket[1])) return null;
  return bracket[1];
}

/**
 * A verb of naming right before the name, and an opening quote or none
 * ("a poke place called", "pup heet", "nommée "", "si chiama"), after the
 * words of what bears the name (group 1), within its sentence.
 */
const namedBy = unicodeWords(
  /([^.!?;:\n]{0,60}?)[ \t]+(?:is[ \t]+|was[ \t]+|literally[ \t]+)*(?:called|named|dubbed|heet|hie(?:ss|ß)|hei(?:ss|ß)t|genannt|s['’]appelle|appel[ée]e?s?|nomm[ée]e?s?|se[ \t]+llama|llamad[oa]s?|se[ \t]+chama|chamad[oa]s?|si[ \t]+chiama|chiamat[oaie]|genoemd|nazywa[ \t]+się|nazwan[ya])[ \t]+[«"“„'`‘]?$/iu,
);

/** The stems of those verbs: most text before a name holds none, and is not scanned back by the pattern. */
const namingStem = /call|nam|dubb|heet|hei|hie|genannt|appel|nomm|llam|cham|chiam|genoemd|nazw/iu;

/**
 * What a writer says bears the name, where a verb of naming introduces it
 * ("our Python package is called `kayak`", "Onze pup heet Yeti", "a new
 * poke place called SupaBase"): one introduces by name what readers would
 * not know by it, and the words before the verb say what it is. Null
 * where no verb of naming comes right before the name.
 */
export function namedThingBefore(text: string, index: number): string | null {
  const before = text.slice(Math.max(0, index - 90), index);
  if (!namingStem.test(before.slice(-30))) return null;
  return namedBy.exec(before)?.[1] ?? null;
}

/**
 * The term offered as a name for something, and that thing's phrase (group
 * 1): "Merlin a good name for a black lab puppy", "Yeti comme nom pour un
 * chien", "Nook als Name für unser Café".
 */
const nameForAfter = unicodeWords(
  /^[ \t'"’”»]*(?:(?:is|was|would[ \t]+be|as|als|comme|como|come)[ \t]+)?(?:(?:a|an|the|ein|einen|un|une|uno|una|um|uma|een)[ \t]+)?(?:\p{L}+[ \t]+){0,2}?(?:name|nom|nombre|nome|Name|naam|imię)[ \t]+(?:for|pour|para|per|für|voor|dla)[ \t]+([^.!?;:,\n]{2,60})/u,
);
/** Words that end the phrase of the thing named ("a lab puppy or too obvious"). */
const phraseEnd = unicodeWords(/[ \t]+(?:or|and|oder|und|ou|et|o|y|e|of|en|lub|i)[ \t].*$/iu);

/**
 * What the term is offered as the name of, where the post asks or says
 * whether it makes a good name for something ("Is Merlin a good name for a
 * black lab puppy?"): the phrase's last word, its head ("puppy"), since the
 * words before it only describe it ("lab"). Null where the term is not so
 * offered.
 */
export function nameOfferedFor(text: string, index: number, found: string): string | null {
  const phrase = nameForAfter.exec(text.slice(index + found.length, index + found.length + 120))?.[1];
  if (!phrase) return null;
  return phrase.replace(phraseEnd, '').trim().split(/[ \t]+/u).at(-1) ?? null;
}

/**
 * How one occurrence of the term is used. `capitalisedMidSentence`: the
 * occurrence is written with a capital where a sentence does not open,
 * in a language that capitalises only names.
 */
export function nameUseAt(text: string, index: number, found: string, capitalisedMidSentence: boolean): NameUse {
  const before = text.slice(Math.max(0, index - 60), index);
  const after = text.slice(index + found.length, index + found.length + 80);
  if (usedBefore(before) || productPartAfter.test(after) || saidToBeProduct.test(after)) return 'name';
  const lowerCase = found.charAt(0) !== found.charAt(0).toUpperCase();
  if (lowerCase && (determinerBefore.test(before) || ofAfter.test(after))) return 'word';
  // Weaker than a determiner: "the anchor went down with the ship".
  if (failingAfter.test(after) || judgedAfter.test(after) || companyActsAfter.test(after)) return 'name';
  return capitalisedMidSentence ? 'capitalised' : null;
}
