import { contentWordsOf, foldWord, wordsOf } from './content-words.ts';
import type { EnglishReader } from './english-reader.ts';
import type { FeedbackAdjustment } from './feedback-model.ts';
import { glossedWords } from './word-glossary.ts';
import { hostOf, type SenseProfile } from './sense-profile.ts';
import { unicodeWords } from './unicode-word-boundaries.ts';
import type { KeywordKind } from '../vocabulary/keyword-kinds.ts';
import { type Platform, reviewPlatforms } from '../vocabulary/normalized-post.ts';
import { companyForm, glossOf, namedThingBefore, nameOfferedFor, nameUseAt, ownedOrSubject, quotedAsTitle, usedBefore } from './name-use.ts';

export interface RelevancePost {
  text: string;
  links: string[];
  platform?: Platform;
}

export interface RelevanceEvidence {
  /** Log-odds that the post is about the meant sense. */
  weight: number;
  /** Short phrase for the note ("context words wiki, workspace"). */
  reason: string;
}

export interface RelevanceReading {
  relevance: number;
  evidence: RelevanceEvidence[];
  /** Distinct products named: the term (for brand and competitor keywords), the company, competitors. */
  productsNamed: number;
}

/**
 * Words that show a name is used for a product or a company, whatever the
 * product: people write about its price, plan, membership, trial, app,
 * support, releases and users, the model they ordered, had delivered or
 * reviewed and the shop it came from, in any language, and of software,
 * whatever it does, about installing, configuring, extending, syncing and
 * exporting it and its crashes and bugs. They weigh least of all readings and never decide alone.
 */
const productVocabulary = new Set(
  contentWordsOf(`app apps pricing price plan plans tier subscription support account accounts user users customer customers
  team teams feature features update updates version release released api sdk integration integrations dashboard login
  signup workspace template templates tool tools platform service startup founder company launch docs documentation
  migrate migrated migration switch switched alternative alternatives selfhosted enterprise beta onboarding
  install installed installing installation uninstalled config configure configured configuring configuration settings setup
  plugin plugins extension extensions addon addons shortcut shortcuts keybinding keybindings crash crashed crashes crashing
  bug bugs download downloaded sync synced syncing export exported import imported workflow workflows sideload
  preis prix precio preço prezzo prijs
  buy bought purchase purchased warranty refund refunded returned shipping recall recalled discontinued lineup
  gekauft kaufen garantie kundenservice abo acheté acheter achat remboursement abonnement compré comprar garantía
  suscripción reembolso comprei garantia assinatura comprato comprare garanzia abbonamento rimborso gekocht kopen
  klantenservice 購入 保証 返品
  premium membership memberships paywall firmware subscribers subscribed subscribe unsubscribe renew renewal renewed trial
  review reviews order ordered webshop checkout delivered model models
  mitgliedschaft abonniert bestellt bestellung modell commandé commande boutique modèle pedido tienda modelo encomenda loja
  ordinato negozio modello besteld bestelling winkel`),
);

/**
 * What each reading is worth, in log-odds. An ambiguous term (a common word
 * such as "rust" or "notion") starts below the line and must earn its sense
 * from the post's words; so does, a little less, a name that general text
 * mostly uses for something else ("Kafka" the writer, "Apollo" the space
 * programme), whose posts about that other thing share none of the sense's
 * words. A distinctive name starts above the line and loses it to words of
 * another sense or a neighbouring name. Capitals never add sense on their
 * own: the planet and the singer are capitalised too, so "written as a
 * name" only cancels part of the common-word doubt. The weights of the
 * meaning were fitted on the tune posts with each keyword's own category
 * vocabularies removed (see `npm run eval`).
 */
const weights = {
  ambiguousTerm: -1.0,
  nameOfOtherThing: -0.6,
  nameInOtherLanguage: 0,
  distinctiveTerm: 0.6,
  distinctiveTermOtherSensesRuledOut: 0,
  termMissing: -1.2,
  writtenAsName: 0.3,
  /**
   * A common word the user writes as a name, capitalised wherever the post
   * has it and nowhere in lower case, where the context rules other senses
   * out: at a sentence's start too, where the capital alone says nothing,
   * the word's own lower case is missing from the post.
   */
  capitalisedThroughout: 0.2,
  /**
   * The name of a thing owned or used, an owner ("Halide's histogram") or a
   * sentence's bare subject, for a term that is also an everyday word.
   */
  ownedOrSubject: 0.5,
  writtenAsCommonWord: -1.0,
  /**
   * Beside that, the lower-case word after an article or a determiner, or
   * before "of" ("in a good headspace", "the notion that…", "a ring of"):
   * English uses a common noun so and a product's name seldom; in the tune
   * and development posts in English such a post is relevant 2 times in 99.
   */
  commonNounForm: -0.5,
  writtenAsAcronym: -0.8,
  partOfOtherName: -1.2,
  /**
   * A capitalised word right after the term that the profile does not know:
   * as often the product's own line or model, named in English words
   * ("Fender Mustang", "Ring Wired", "Crocs Echo"), as another name the term
   * opens ("Apollo Hospitals", "Castro Theatre"), so it weighs less than a
   * name before the term or a title.
   */
  otherNameAfter: -0.8,
  versionNumber: 0.8,
  /** A gloss after the name whose words do not lean toward the sense (`glossOf`): the writer said it is something else. */
  glossedAsOtherThing: -1.0,
  /** Every occurrence in quotation marks: a work's title or the word itself (`quotedAsTitle`). */
  quotedAsTitle: -1.0,
  productTier: 0.5,
  /** A model's own name and number right after the term: people name the models of what they buy so. */
  modelNumber: 0.5,
  listedBesideName: 0.5,
  senseWordNear: 1.0,
  senseWordFar: 0.5,
  senseCap: 2.6,
  relatedWordNear: 0.5,
  relatedWordFar: 0.35,
  relatedCap: 1.4,
  offSenseWordNear: -1.6,
  offSenseWordFar: -0.9,
  offSenseCap: -3.5,
  productNamed: 1.2,
  ruledOutNameNamed: -2.0,
  /** A kind of namesake the context rules out right beside the name ("Hotel Vivaldi", "Nook Café"): a ruled-out name. */
  namesakeKindBeside: -2.0,
  senseDomain: 2.0,
  otherDomain: -1.5,
  handleOrHashtag: 0.5,
  productWord: 0.3,
  productWordCap: 0.9,
  /**
   * Where nothing names the sense, the user has said only that the term is
   * a brand's or a competitor's name: a post using it as a name is about it
   * unless another sense shows, and one using it as the everyday word is not.
   */
  usedAsName: 0.9,
  capitalisedAsName: 0.6,
  usedAsWord: -1.0,
  /** A review on a review platform's page of the brand, where nothing names the sense. */
  reviewOfBrand: 1.5,
  /** Per unit of the post's summed word leanings (`SenseMeaning.read`), each word's leaning a cosine difference of at most 0.3. */
  meaningLeaning: 1.5,
  meaningCap: 2.5,
} as const;

/** Words this close to the term (either side) read as describing it. */
const nearWindow = 6;
const sentenceOpener = /[.!?:;|。！？–—"'“«「『(¿¡-]$/u;
/** Nothing but spaces before, or a full stop, a question or an exclamation mark: what ends a full sentence, not a colon's or a quote's opening. */
const fullSentenceEnd = /(?:^|[.!?])$/u;

/**
 * The text before a word ends a sentence or opens a quote: the word begins
 * the text, or follows a stop, colon, dash, quote, bracket or line break and
 * any spaces after it (`ends`: only what ends a full sentence, with
 * `fullSentenceEnd`). Read from the end, not by a pattern run over
 * everything before the word.
 */
function opensSentence(before: string, ends = sentenceOpener): boolean {
  if (before === '') return true;
  const trimmed = before.trimEnd();
  return ends.test(trimmed) || before.slice(trimmed.length).includes('\n');
}

/** A capitalised word or two after the term, then a number: a product and its model ("Osprey Talon 22", "Nook GlowLight 4"). */
const modelAfterName = /^[ \t]+\p{Lu}[\p{L}\p{N}]*(?:[ \t]+\p{Lu}[\p{L}\p{N}]*)?[ \t]+(\d+)/u;
/**
 * "of" and a capitalised word right after the term, in English: the term
 * opens the name of a work or an institution ("The Ancestry of Fear", "Ring
 * of Fire", "Bank of America"), where a product's own name is followed by
 * its line or model, not by "of".
 */
const titleOfAfter = /^[ \t]+of[ \t]+(?:the[ \t]+)?\p{Lu}/u;
/** A year, which dates a thing ("Grand Marquis 1998") where a model's number names it. */
const year = /^(?:19|20)\d\d$/u;

/**
 * A tier or edition of a product right after its name, alone or after a
 * model's capitalised word or two ("Drops Premium", "Castro Plus", "Ring
 * Battery Pro", "WHOOP One"): people name the plans and editions of what
 * they buy so, whatever it is.
 */
const tierAfterName = /^(?:'s|’s)?(?:[ \t]+\p{Lu}[\p{L}\p{N}]*){0,2}[ \t]+(?:Pro|Plus|Premium|Max|Mini|Ultra|Lite|One|Go|Air|Free|Classic|Zero|Unlimited|Edition|Essentials|Prime|Gold|Basic|Standard|Deluxe|Studio|Elite|Sport|Original|XL|SE)(?![\p{L}\p{N}])/u;

/**
 * A word of plain Latin letters that is no English word and that general
 * text never uses (not in the vector table: "Packout", "Vintera",
 * "Lymonade"): a name coined for a product's model, written right after
 * its maker's name. Surnames, places and words of other languages are in
 * the table ("Hitchcock", "Valley", "Nebula"); a possessive before it
 * ("Castro's Taqueria") makes it a business of a person's name, and is read
 * as before.
 */
function coinedName(profile: SenseProfile, reader: EnglishReader, word: string): boolean {
  return /^[A-Za-z]+$/u.test(word) && !reader.isEnglishWord(word) && !profile.meaning.knows(word.toLowerCase());
}

/** A possessive before a name: "my", "our", "mein", "mon", "mi", "meu", "mio", "mijn", "mój"… */
const possessive = /^(?:my|our|your|his|her|their|mein\p{L}*|unser\p{L}*|dein\p{L}*|mon|ma|mes|notre|nos|ton|ta|mi|mis|nuestr\p{L}*|meu|minha|meus|minhas|nosso|nossa|mio|mia|miei|mie|nostr\p{L}*|mijn|onze|mój|moja|moje|mojego|nasz\p{L}*)$/iu;

/**
 * A title or a kinship word before a name makes it a person's ("Dr. Weber",
 * "Grandpa Alfred", "Coach Weber", "Herr Weber", "Onkel Alfred"), in the
 * languages the classifier reads; written with a capital, as titles before
 * a name are.
 */
const personTitleBefore = /(?<![\p{L}\p{N}])(?:Dr|Mr|Mrs|Ms|Mx|Prof|Professor|Coach|Uncle|Aunt|Auntie|Grandpa|Grandma|Granny|Sir|Dame|President|Senator|Congressman|Congresswoman|Governor|Mayor|Judge|Detective|Sergeant|DJ|Herr|Frau|Onkel|Tante|Opa|Oma|Monsieur|Madame|Mme|Oncle|Tonton|Papi|Mamie|Señor|Señora|Sr|Sra|Doña|Tío|Tía|Senhor|Senhora|Tio|Tia|Signor|Signora|Zio|Zia|Nonno|Nonna|Meneer|Mevrouw|Oom|Wujek|Ciocia)\.?[ \t]+$/u;

/**
 * An article, a preposition joined with one ("im", "zum") or an inflected
 * adjective ("saure", "ablaufender") right before a word: German writes its
 * nouns so, and capitalises them all, so there a capitalised English word is
 * used as a German noun ("der Monarch", "im Headspace", "einen „Sprite“"),
 * not named as a product ("Sway ist toll", "auf Mercury umgestiegen"). A
 * possessive ("meine", "unsere") is read as owning the name, as before.
 */
const germanNounBefore = /(?<![\p{L}\p{N}])(?:[Dd](?:er|ie|as|en|em|es)|[Ee]in(?:e|en|em|er|es)?|[Ii]m|[Aa]m|[Vv]om|[Zz]um|[Bb]eim|(\p{Ll}{3,}(?:e|er|es)))[ \t]+[„"“]?$/u;

function writtenAsGermanNoun(before: string): boolean {
  const found = germanNounBefore.exec(before);
  return found !== null && !(found[1] && possessive.test(found[1]));
}

/** Characters read back from a word to find the word before it: far more than any word. */
const lookBehindChars = 80;
const wordBeforeSpaces = /(\p{L}[\p{L}\p{N}'’]*)[ \t]+$/u;

/** The word right before spaces at the end of `before`, and where it starts. */
function previousWord(before: string): { word: string; index: number } | null {
  let offset = Math.max(0, before.length - lookBehindChars);
  const tail = before.slice(offset);
  let found = wordBeforeSpaces.exec(tail);
  // A word or spaces that reach back to the cut may begin further back: read it all.
  if (offset > 0 && (found ? found.index === 0 : /^[ \t]+$/u.test(tail))) {
    offset = 0;
    found = wordBeforeSpaces.exec(before);
  }
  return found ? { word: found[1], index: found.index + offset } : null;
}

/**
 * A possessive right before a name, or before one lower-case word before it,
 * an adjective or the thing's kind ("my Nook", "my new Fender", "mon vieux
 * Nook", "il mio gruppo SRAM"): the writer owns the thing named.
 */
function ownedAfter(before: string, previous: { word: string; index: number } | null): boolean {
  if (previous === null) return false;
  if (possessive.test(previous.word)) return true;
  if (!/^\p{Ll}/u.test(previous.word)) return false;
  const beforeAdjective = previousWord(before.slice(0, previous.index));
  return beforeAdjective !== null && possessive.test(beforeAdjective.word);
}

/**
 * "new" or "latest" right before the name, after an article or a
 * determiner ("the new Crocs Echo", "el nuevo Osprey Talon", "die neue
 * Ring Cam"): what is new is a release, and the capitalised word after the
 * name is its line, not another name the term opens.
 */
const releasedBefore = /(?<![\p{L}\p{N}])(?:the|a|this|that|el|la|le|der|die|das|den|il|o|de|het)[ \t]+(?:new|latest|nuev[oa]|nouvel(?:le)?|nouveau|neue[nrms]?|nov[oa]|nuov[oa]|nieuwe)[ \t]+$/iu;

interface Occurrence {
  index: number;
  text: string;
}

const capitalised = (occurrence: Occurrence) => occurrence.text.charAt(0) !== occurrence.text.charAt(0).toLowerCase();

/**
 * The term's occurrences in running text. Occurrences inside an address, a
 * handle, a hashtag or an identifier (`apple/swift`, `#notion`,
 * `rust-analyzer`, `swift-6.0-RELEASE`) follow their own spelling rules and
 * say nothing about how the author writes the name.
 */
function proseOccurrences(profile: SenseProfile, text: string): { all: Occurrence[]; prose: Occurrence[] } {
  profile.termPattern.lastIndex = 0;
  const all = [...text.matchAll(profile.termPattern)].map((match) => ({ index: match.index ?? 0, text: match[0] }));
  const prose = all.filter(({ index, text: found }) => {
    const before = text.charAt(index - 1);
    const after = text.slice(index + found.length, index + found.length + 2);
    if (/[#@/._\\-]/u.test(before)) return false;
    return !/^(?:[/_\\]|-[\p{L}\p{N}]|\.[\p{L}\p{N}])/u.test(after);
  });
  return { all, prose };
}

/** A post in a language the classifier knows to be other than English. */
function inOtherLanguage(language: string | null): boolean {
  return language !== null && language !== 'en';
}

/** An occurrence joined by a hyphen to a word after it ("Osprey-webshop", "GIMP-ie"). */
function joinedByHyphen(text: string, occurrence: Occurrence): boolean {
  return /^-\p{L}/u.test(text.slice(occurrence.index + occurrence.text.length, occurrence.index + occurrence.text.length + 2));
}

function listWords(words: string[], limit = 3) {
  return words.slice(0, limit).join(', ');
}

function isKnownName(profile: SenseProfile, word: string) {
  const lower = word.toLowerCase();
  return profile.productNameWords.has(lower) || profile.senseWords.has(foldWord(lower)) || profile.relatedWords.has(foldWord(lower));
}

/**
 * How the term is written where it occurs. For a common-word term the user
 * wrote as a name, "Notion" mid-sentence reads as a name and "notion" as the
 * common word; "SWIFT" in ordinary text is an acronym. For any term, a
 * capitalised word next to it that the profile does not know makes it part
 * of another name ("Usain Bolt", "Taylor Swift", "Apollo Hospitals").
 */
function writingEvidence(
  profile: SenseProfile,
  text: string,
  found: { all: Occurrence[]; prose: Occurrence[] },
  reader: EnglishReader,
  language: string | null,
  /** The post's use of the term is read by `unstatedSenseEvidence`, which weighs lower case against the words around it. */
  useReadElsewhere: boolean,
  /** A capitalised common word in a post in another language is a name there already (`nameInOtherLanguage`). */
  nameInOtherLanguage: boolean,
): RelevanceEvidence[] {
  const occurrences = found.prose;
  const evidence: RelevanceEvidence[] = [];
  let asName = 0;
  let asWord = 0;
  let asAcronym = 0;
  let otherName = false;
  let otherNameAfter = false;
  let productLine = false;
  let modelLine = false;
  // Asked of few posts (an all-capital occurrence, a capitalised next word): counted only then.
  let capitals: boolean | undefined;
  const mostlyCapitals = () => {
    if (capitals === undefined) {
      const letters = text.replace(/[^\p{L}]/gu, '');
      capitals = letters.length > 0 && letters.replace(/[^\p{Lu}]/gu, '').length / letters.length > 0.5;
    }
    return capitals;
  };
  for (const occurrence of occurrences.slice(0, 3)) {
    const before = text.slice(0, occurrence.index);
    const atSentenceStart = opensSentence(before);
    const first = occurrence.text.charAt(0);
    // An English sentence opened in lower case ("hinge really said…", "ring just told me…") is the writer's habit of
    // never capitalising: a writer who capitalised would have written the word and the name alike there, so the case
    // says nothing. Only a post's or a full sentence's start: lower case is the rule after a colon, a quote or a bracket.
    if (first === first.toLowerCase() && first !== first.toUpperCase()) {
      if (!(language === 'en' && opensSentence(before, fullSentenceEnd))) asWord++;
    } else if (occurrence.text.length > 2 && occurrence.text === occurrence.text.toUpperCase() && !mostlyCapitals()) {
      // Where the user writes the name in capitals ("YETI coolers"), capitals are the name's spelling, not an acronym.
      if (profile.namedInCapitals) asName++;
      else asAcronym++;
    }
    // German capitalises every noun: there a capital says nothing of a name.
    else if (!atSentenceStart && language !== 'de') asName++;

    const previous = previousWord(before);
    if (personTitleBefore.test(before.slice(-16))) otherName = true;
    else if (previous && /^\p{Lu}\p{Ll}/u.test(previous.word) && !isKnownName(profile, previous.word)) {
      // At the start of an English sentence every word is capitalised; only
      // one that is no English word ("Usain", "Freddie") is a name there.
      const previousAtStart = opensSentence(before.slice(0, previous.index));
      if (!previousAtStart || (language === 'en' && !reader.isEnglishWord(previous.word))) otherName = true;
    }
    // A name followed by a number is a product's model ("Bebop 2", "Fox 5"),
    // and German capitalises its nouns ("Milwaukee Akkuschrauber"): neither is
    // another name, but an English word there is ("Bugaboo Spire im August").
    // Nor is a name a writer owns ("my Nook GlowLight", "mein Osprey Stratos")
    // or uses ("Installed the Ring Wired", "bought the Yeti Hopper"): what
    // follows it is the model of the thing owned; nor one a model's coined
    // name follows ("Milwaukee Packout").
    const after = text.slice(occurrence.index + occurrence.text.length);
    const next = /^(?:'s)?[ \t]+(\p{Lu}[\p{L}\p{N}]*)/u.exec(after);
    const tier = tierAfterName.test(after);
    if (tier) productLine = true;
    const model = modelAfterName.exec(after);
    if (model && !year.test(model[1])) modelLine = true;
    // Where nothing names the sense, a company's legal form after the name ("Acme Corp") is the brand's own.
    if (
      next && /\p{Ll}/u.test(next[1]) && !mostlyCapitals() && !isKnownName(profile, next[1]) && !model && !tier
      && (language !== 'de' || reader.isEnglishWord(next[1])) && !ownedAfter(before, previous) && !usedBefore(before.slice(-60)) && !releasedBefore.test(before.slice(-24))
      && !(/^[ \t]/u.test(after) && coinedName(profile, reader, next[1]))
      && !(profile.senseUnstated && companyForm.test(next[1]))
    ) otherNameAfter = true;
    else if (language === 'en' && titleOfAfter.test(after)) otherNameAfter = true;
  }
  if (profile.commonPhrase && asWord > 0 && asName === 0 && asAcronym === 0) {
    evidence.push({ weight: weights.writtenAsCommonWord, reason: `"${profile.term.toLowerCase()}" written as a common phrase` });
  }
  // A name the user writes with a capital that is no English word ("Futura", "Planta") may still be a word of another
  // language: written in lower case in a post in another language ("la futura ley", "uma planta nova"), it is that word.
  const wordOfPostLanguage = !profile.commonWord && !profile.commonPhrase && profile.writtenAsName && inOtherLanguage(language);
  if (wordOfPostLanguage && asWord > 0 && asName === 0 && asAcronym === 0) {
    evidence.push({ weight: weights.writtenAsCommonWord, reason: `"${profile.term.toLowerCase()}" written as a word of the post's language` });
  }
  // So in English, where the context names the other things the word means ("not crocodiles, which Australians also
  // call crocs", "not the merlin falcon"): written only in lower case, as a common noun is ("the crocs at the park",
  // "a merlin was hunting"), it is that word, unless the words around it use it as a name ("mullvad app").
  const wordRuledOut = !profile.commonWord && !profile.commonPhrase && profile.writtenAsName && profile.otherSensesRuledOut && language === 'en';
  if (
    wordRuledOut && asWord > 0 && asName === 0 && asAcronym === 0
    && occurrences.slice(0, 3).every((occurrence) => nameUseAt(text, occurrence.index, occurrence.text, false) !== 'name')
  ) {
    evidence.push({ weight: weights.writtenAsCommonWord, reason: `"${profile.term.toLowerCase()}" written as the word the context rules out` });
  }
  if (profile.commonWord && profile.writtenAsName) {
    if (asAcronym > 0 && asAcronym >= asName + asWord) {
      evidence.push({ weight: weights.writtenAsAcronym, reason: `"${profile.term.toUpperCase()}" written as an acronym` });
    } else if (asWord > 0 && asWord >= asName) {
      if (!useReadElsewhere) evidence.push({ weight: weights.writtenAsCommonWord, reason: `"${profile.term.toLowerCase()}" written as a common word` });
      if (!useReadElsewhere && occurrences.slice(0, 3).some((occurrence) => nameUseAt(text, occurrence.index, occurrence.text, false) === 'word')) {
        evidence.push({ weight: weights.commonNounForm, reason: `"${profile.term.toLowerCase()}" after an article or before "of", as a common noun` });
      }
    } else if (asName > 0) {
      evidence.push({ weight: weights.writtenAsName, reason: `"${profile.term}" written as a name` });
    }
    // A capital the other name explains ("Taylor Swift") says nothing of this one. Nor does one where the context
    // names no sense it rules out: there another product of the same name is as likely (a bank's "Mercury" beside
    // the insurer's and the outboard's), where a context listing the senses it excludes has named those a capital
    // could stand for.
    if (!useReadElsewhere && !nameInOtherLanguage && !otherName && !otherNameAfter && profile.otherSensesRuledOut && occurrences.some(capitalised) && found.all.every(capitalised)) {
      evidence.push({ weight: weights.capitalisedThroughout, reason: `"${profile.term}" capitalised wherever it occurs` });
    }
  }
  if (productLine) evidence.push({ weight: weights.productTier, reason: `"${profile.term}" named with a product's tier or edition` });
  else if (modelLine) evidence.push({ weight: weights.modelNumber, reason: `"${profile.term}" named with a model's name and number` });
  if (otherName) evidence.push({ weight: weights.partOfOtherName, reason: `"${profile.term}" is part of another name` });
  else if (otherNameAfter) evidence.push({ weight: weights.otherNameAfter, reason: `"${profile.term}" is part of another name` });
  const namesKind = (word: string) => namesKindOfSense(profile, word, language);
  if (occurrences.length > 0 && occurrences.slice(0, 3).every((occurrence) => quotedAsTitle(text, occurrence.index, occurrence.text, namesKind))) {
    evidence.push({ weight: weights.quotedAsTitle, reason: `"${profile.term}" in quotation marks, as a title or the word` });
  }
  // "Rust 1.80", "Swift 5.10": a dotted version right after the name is software.
  if (occurrences.some((occurrence) => /^[ \t]+v?\d+\.\d+/u.test(text.slice(occurrence.index + occurrence.text.length)))) {
    evidence.push({ weight: weights.versionNumber, reason: 'followed by a version number' });
  }
  return evidence;
}

/**
 * What kind of thing a product is, as the glossary reads the word in each
 * language ("appli", "App", "aplicativo" → app; "Werkzeug", "outil",
 * "herramienta" → tool).
 */
const productKinds = new Set(['app', 'software', 'tool', 'plugin', 'service', 'device', 'product', 'brand', 'website']);

/**
 * A word, lower case, in the post's language, that names the kind of thing
 * the sense is: a kind of product, or a word of the description, read
 * through the glossary and, in another language, by its stem.
 */
function namesKindOfSense(profile: SenseProfile, word: string, language: string | null): boolean {
  const english = glossedWords([word], language, profile.termWords)[0];
  if (productKinds.has(english) || profile.senseWords.has(foldWord(english))) return true;
  return inOtherLanguage(language) && profile.senseCognates.cognateOf(word) !== null;
}

/**
 * For a term that is also an everyday word: the name of a thing owned, an
 * owner or a sentence's bare subject (`ownedOrSubject`), as English writes a
 * name and not the word.
 */
function formEvidence(profile: SenseProfile, text: string, occurrences: Occurrence[], language: string | null): RelevanceEvidence[] {
  const evidence: RelevanceEvidence[] = [];
  const nameUse = (occurrence: Occurrence) => {
    const before = text.slice(0, occurrence.index);
    // As in `writingEvidence`: an English sentence opened in lower case is the writer's habit, not the word.
    const at = { sentenceStart: opensSentence(before), caseSaysNothing: language === 'en' && opensSentence(before, fullSentenceEnd), otherLanguage: inOtherLanguage(language) };
    return ownedOrSubject(text, occurrence.index, occurrence.text, at, profile.commonWord);
  };
  if (occurrences.slice(0, 3).some(nameUse)) {
    evidence.push({ weight: weights.ownedOrSubject, reason: `"${profile.term}" owned, used, an owner or a sentence's subject, as a name` });
  }
  return evidence;
}

/** Most words capitalised: a title, where a capital says nothing of a name. */
function titleCased(text: string): boolean {
  const words = text.match(/\p{L}{3,}/gu) ?? [];
  return words.length >= 3 && words.filter((word) => /^\p{Lu}/u.test(word)).length / words.length > 0.6;
}

/**
 * Where nothing names the sense of a brand's or competitor's name that is
 * also an everyday word, how the post uses it (`nameUseAt`): as a name, as
 * the word, or, said only by a review platform, of the brand's page.
 */
function unstatedSenseEvidence(profile: SenseProfile, post: RelevancePost, occurrences: Occurrence[], language: string | null): RelevanceEvidence[] {
  const evidence: RelevanceEvidence[] = [];
  // Asked only of a capital mid-sentence: counted then.
  let title: boolean | undefined;
  let asName = 0;
  let capitalised = 0;
  let asWord = 0;
  for (const occurrence of occurrences.slice(0, 3)) {
    const first = occurrence.text.charAt(0);
    const capitalisedMidSentence = language !== 'de' && first !== first.toLowerCase() && !opensSentence(post.text.slice(0, occurrence.index))
      && !(title ??= titleCased(post.text));
    const use = nameUseAt(post.text, occurrence.index, occurrence.text, capitalisedMidSentence);
    // Lower case where the user wrote a capital is the word, unless the words around it use it as a name ("pebble is a solid app").
    const lowerCaseOfName = profile.writtenAsName && first !== first.toUpperCase();
    if (use === 'name') asName++;
    else if (use === 'capitalised') capitalised++;
    else if (use === 'word' || lowerCaseOfName) asWord++;
  }
  if (asWord > 0 && asWord >= asName + capitalised) evidence.push({ weight: weights.usedAsWord, reason: `"${profile.term.toLowerCase()}" used as the everyday word` });
  else if (asName > 0) evidence.push({ weight: weights.usedAsName, reason: `"${profile.term}" used as a name, and nothing names another sense` });
  else if (capitalised > 0) evidence.push({ weight: weights.capitalisedAsName, reason: `"${profile.term}" capitalised as a name, and nothing names another sense` });
  if (post.platform && (reviewPlatforms as readonly string[]).includes(post.platform)) {
    evidence.push({ weight: weights.reviewOfBrand, reason: `a review on ${post.platform}` });
  }
  return evidence;
}

/** A list or a choice joining two names: "X vs Y", "X or Y", "X, Y and Z", "X czy Y", "X ou Y". */
const joinedNameAfter = /^(?:'s|’s)?[ \t]*(?:,|[ \t](?:vs\.?|versus|or|and|oder|und|ou|czy))[ \t]+(\p{Lu}[\p{L}\p{N}]+)/u;
const joinedNameBefore = /(\p{Lu}[\p{L}\p{N}]+)(?:'s|’s)?[ \t]*(?:,|[ \t](?:vs\.?|versus|or|and|oder|und|ou|czy))[ \t]+$/u;
/**
 * The name a writer moved from, right before the term moved to, after a verb
 * of switching a few words back ("porting our service from Go to Rust",
 * "Passé de Shimano à SRAM"): the two are peers. The verb keeps routes out
 * ("flew from Chicago to Milwaukee").
 */
const movedFromBefore = /(?<=(?<![\p{L}\p{N}])(?:switch\p{L}*|mov\p{L}*|migrat\p{L}*|port\p{L}*|went|chang\p{L}*|upgrad\p{L}*|pass[ée]\p{L}*|pas[ée]|cambi\p{L}*|mud\p{L}*|troqu\p{L}*|umgestiegen|gewechselt|overgestapt|przeszed\p{L}*)(?:[ \t]+[^ \t]+){0,4}?[ \t]+(?:from|von|van|de|da|z)[ \t]+)(\p{Lu}[\p{L}\p{N}+#]+)[ \t]+(?:to|zu|auf|naar|op|à|a|para|na)[ \t]+$/iu;

/**
 * The term listed or weighed beside another name ("Parrot vs Skydio",
 * "Harvest, Xero and Asana", "Vivaldi czy Floorp", "Hinge or Bumble"), or
 * moved to from one (`movedFromBefore`): people list products beside the
 * products they compete with, and leave one for another. A
 * capitalised English word is a name there too, but not in a title, where
 * every word is capitalised ("Salt And Pepper").
 */
function peerNameEvidence(profile: SenseProfile, text: string, occurrences: Occurrence[], reader: EnglishReader): RelevanceEvidence[] {
  for (const occurrence of occurrences.slice(0, 3)) {
    const after = joinedNameAfter.exec(text.slice(occurrence.index + occurrence.text.length, occurrence.index + occurrence.text.length + 40));
    const start = Math.max(0, occurrence.index - 40);
    const joined = joinedNameBefore.exec(text.slice(start, occurrence.index));
    // The verb of switching may stand a few words before the name moved from: read further back for it.
    const movedStart = Math.max(0, occurrence.index - 90);
    const moved = joined ? null : movedFromBefore.exec(text.slice(movedStart, occurrence.index));
    const nameBefore = joined ? { name: joined[1], at: start + joined.index } : moved ? { name: moved[1], at: movedStart + moved.index } : null;
    // A capital that opens a sentence ("Génial, Alfred…") is no name.
    const before = nameBefore && !opensSentence(text.slice(0, nameBefore.at)) ? nameBefore.name : undefined;
    for (const name of [after?.[1], before]) {
      if (name && /\p{L}.*\p{L}/u.test(name) && (!reader.isEnglishWord(name) || !titleCased(text)) && !profile.termWords.has(name.toLowerCase())) {
        return [{ weight: weights.listedBesideName, reason: `"${profile.term}" listed beside ${name}` }];
      }
    }
  }
  return [];
}

type WordKind = 'sense' | 'offSense' | 'related' | 'product' | 'none';

/** Which of the profile's vocabularies a folded word belongs to, the first that has it. */
function wordKind(profile: SenseProfile, word: string): WordKind {
  if (profile.termWords.has(word) || word.length < 2) return 'none';
  if (profile.senseWords.has(word)) return 'sense';
  if (profile.offSenseWords.has(word)) return 'offSense';
  if (profile.relatedWords.has(word)) return 'related';
  return productVocabulary.has(word) ? 'product' : 'none';
}

/**
 * Word kinds remembered per profile: posts repeat their words, and a kind
 * costs up to three word-family searches. Dropped with the profile.
 */
const rememberedKinds = new WeakMap<SenseProfile, Map<string, WordKind>>();
const maxRememberedKinds = 20_000;

function wordKindsOf(profile: SenseProfile): Map<string, WordKind> {
  let kinds = rememberedKinds.get(profile);
  if (!kinds) {
    kinds = new Map();
    rememberedKinds.set(profile, kinds);
  }
  return kinds;
}

/**
 * An amount of money ("$28", "350 Euro", "1 200 €"): people price products
 * and services, in any language, far more than the other senses of a name.
 */
const priceAmount = unicodeWords(/[$€£¥]\s?\d|\d\s?(?:€|£|¥|円|(?:euros?|dollars?|usd|eur|reais|pounds)\b)/iu);

/** Where the term's words (`termSequence`) begin in a post's folded words. */
function termIndexesIn(words: readonly string[], termSequence: readonly string[]): number[] {
  const termIndexes: number[] = [];
  for (let index = 0; index < words.length; index++) {
    let offset = 0;
    while (offset < termSequence.length && words[index + offset] === termSequence[offset]) offset++;
    if (offset === termSequence.length) termIndexes.push(index);
  }
  return termIndexes;
}

function nearTerm(index: number, termIndexes: readonly number[], termLength: number): boolean {
  for (const termIndex of termIndexes) if (index >= termIndex - nearWindow && index <= termIndex + termLength - 1 + nearWindow) return true;
  return false;
}

/**
 * A word of a post in another language that none of the profile's
 * vocabularies holds, read by its stem against the description's words
 * (`CognateIndex`): "amplificador" is a word of an amplifier maker's sense,
 * "nébuleuse" of the nebula a context rules out.
 */
function cognateKind(profile: SenseProfile, word: string): WordKind {
  if (profile.termWords.has(word)) return 'none';
  if (profile.senseCognates.cognateOf(word) !== null) return 'sense';
  return profile.offSenseCognates.cognateOf(word) !== null ? 'offSense' : 'none';
}

const katakanaRun = /^[\p{Script=Katakana}ー]+$/u;

/**
 * Whether the text writes a lower-case word with a capital somewhere, as a
 * name ("switched from Opera"), not only as the word ("Vivaldi's opera").
 */
function writtenCapitalised(text: string, word: string): boolean {
  const lower = text.toLowerCase();
  for (let at = lower.indexOf(word); at >= 0; at = lower.indexOf(word, at + 1)) {
    const first = text.charAt(at);
    if (first !== first.toLowerCase()) return true;
  }
  return false;
}

function vocabularyEvidence(profile: SenseProfile, postWords: readonly string[], text: string, foreign: boolean): RelevanceEvidence[] {
  const evidence: RelevanceEvidence[] = [];
  const words = postWords.map(foldWord);
  const termIndexes = termIndexesIn(words, profile.termSequence);

  const found = { senseNear: new Set<string>(), senseFar: new Set<string>(), relatedNear: new Set<string>(), relatedFar: new Set<string>(), offNear: new Set<string>(), offFar: new Set<string>(), product: new Set<string>() };
  const kinds = wordKindsOf(profile);
  for (let index = 0; index < words.length; index++) {
    let word = words[index];
    let kind = kinds.get(word);
    if (kind === undefined) {
      kind = wordKind(profile, word);
      if (kinds.size >= maxRememberedKinds) kinds.clear();
      kinds.set(word, kind);
    }
    if (kind === 'none' && foreign) kind = cognateKind(profile, word);
    // Japanese writes a loanword compound as one run of katakana that the word segmenter cuts by its parts ("ワーク|フロー").
    if (kind === 'none' && foreign && katakanaRun.test(word) && index + 1 < words.length && katakanaRun.test(words[index + 1])) {
      word = word + words[index + 1];
      kind = cognateKind(profile, word);
    }
    if (kind === 'none') continue;
    if (kind === 'sense' && profile.everydayNameWords.has(word) && !writtenCapitalised(text, word)) continue;
    const near = nearTerm(index, termIndexes, profile.termSequence.length);
    if (kind === 'sense') (near ? found.senseNear : found.senseFar).add(word);
    else if (kind === 'offSense') (near ? found.offNear : found.offFar).add(word);
    else if (kind === 'related') (near ? found.relatedNear : found.relatedFar).add(word);
    else found.product.add(word);
  }
  for (const [near, far] of [[found.senseNear, found.senseFar], [found.relatedNear, found.relatedFar], [found.offNear, found.offFar]]) {
    for (const word of near) far.delete(word);
  }

  const sense = Math.min(weights.senseCap, found.senseNear.size * weights.senseWordNear + found.senseFar.size * weights.senseWordFar);
  if (sense > 0) evidence.push({ weight: sense, reason: `context words ${listWords([...found.senseNear, ...found.senseFar])}` });
  const related = Math.min(weights.relatedCap, found.relatedNear.size * weights.relatedWordNear + found.relatedFar.size * weights.relatedWordFar);
  if (related > 0) evidence.push({ weight: related, reason: `words of the same field (${listWords([...found.relatedNear, ...found.relatedFar])})` });
  const offSense = Math.max(weights.offSenseCap, found.offNear.size * weights.offSenseWordNear + found.offFar.size * weights.offSenseWordFar);
  if (offSense < 0) evidence.push({ weight: offSense, reason: `words of an excluded sense (${listWords([...found.offNear, ...found.offFar])})` });
  if (priceAmount.test(text)) found.product.add('a price');
  const product = Math.min(weights.productWordCap, found.product.size * weights.productWord);
  if (product > 0) evidence.push({ weight: product, reason: `product talk (${listWords([...found.product])})` });
  return evidence;
}

/**
 * Words of product talk: where a context rules out a sense in such words
 * ("price or sales drops", "the pay-TV channel"), the vectors would lean
 * every post pricing or paying for the product toward that sense.
 */
const isProductWord = (word: string) => productVocabulary.has(foldWord(word));

/**
 * How near the post's words lie to the sense, against the term's other
 * meanings, in word-vector space. Product talk leans toward the sense or
 * not at all (`isProductWord`).
 */
function meaningEvidence(profile: SenseProfile, words: readonly string[]): RelevanceEvidence[] {
  const reading = profile.meaning.read(words, profile.termWords, isProductWord);
  const weight = Math.max(-weights.meaningCap, Math.min(weights.meaningCap, weights.meaningLeaning * reading.leaning));
  if (weight > 0 && reading.toward.length > 0) return [{ weight, reason: `words near the sense (${listWords(reading.toward)})` }];
  if (weight < 0 && reading.away.length > 0) return [{ weight, reason: `words of another sense (${listWords(reading.away)})` }];
  return weight === 0 ? [] : [{ weight, reason: weight > 0 ? 'words near the sense' : 'words of another sense' }];
}

/** How far a gloss's words must lean toward the sense, summed (`SenseMeaning.read`), for the gloss to name it. */
const glossNamesSense = 0.35;

/**
 * A gloss after the name ("Tide, la néobanque britannique", "Halide (the
 * DSL)"): the writer's own word for what it is. One whose words name the
 * sense or lean toward it clearly ("Planta, the plant-care app") confirms
 * what the rest of the post says; any other names something else, however
 * near the sense's field ("Merlin, o cachorro": a dog is an animal as birds
 * are, and no bird-identifying app).
 */
function glossAsOtherThing(profile: SenseProfile, text: string, occurrences: Occurrence[], language: string | null): string | null {
  const foreign = inOtherLanguage(language);
  for (const occurrence of occurrences.slice(0, 3)) {
    // What a verb of naming says bears the name ("a poke place called X") reads as a gloss does.
    const gloss = glossOf(text, occurrence.index, occurrence.text, foreign, !profile.senseUnstated) ?? namedThingBefore(text, occurrence.index) ?? nameOfferedFor(text, occurrence.index, occurrence.text);
    if (gloss === null) continue;
    const words = glossedWords(wordsOf(gloss), language, profile.termWords);
    if (words.some((word) => profile.senseWords.has(foldWord(word)) || (foreign && profile.senseCognates.cognateOf(word) !== null))) return null;
    if (profile.meaning.read(words, profile.termWords, isProductWord).leaning >= glossNamesSense) return null;
    return gloss;
  }
  return null;
}

/** What the post's words say of the sense: the vocabularies' words and the vectors' leaning. */
function wordEvidence(profile: SenseProfile, words: readonly string[], text: string, language: string | null): RelevanceEvidence[] {
  return [...vocabularyEvidence(profile, words, text, inOtherLanguage(language)), ...meaningEvidence(profile, words)];
}

/**
 * Where a gloss names the name as something else, the writer has said what
 * the post is about: its words, the gloss's own and what it denies ("a Lua
 * library for HTTP retries, not the fitness band") among them, describe
 * that thing, so they tell against the sense ("the Rust futures crate" of a
 * typeface whose context rules out "future"), never for it ("Halide (the
 * DSL)" of a camera app, the DSL read near an app by the vectors; "Ring
 * (Schmuck) online bestellt": jewellery is ordered online too).
 */
function glossedPostWordEvidence(profile: SenseProfile, words: readonly string[], text: string, language: string | null): RelevanceEvidence[] {
  return wordEvidence(profile, words, text, language).filter((item) => item.weight < 0);
}

const domainName = /\b(?:[a-z0-9-]+\.)+[a-z]{2,}\b/gu;
const mayNameDomain = /\.[a-z]{2}/u;

function onDomain(host: string, domains: readonly string[]): boolean {
  return domains.some((domain) => host === domain || host.endsWith(`.${domain}`));
}

function nameEvidence(profile: SenseProfile, post: RelevancePost, words: readonly string[]): { evidence: RelevanceEvidence[]; productsNamed: number } {
  const evidence: RelevanceEvidence[] = [];
  const lower = post.text.toLowerCase();
  const named = profile.products.filter((product) => product.pattern.test(lower) && (!product.everydayWord || writtenCapitalised(post.text, product.name.toLowerCase())));
  if (named.length > 0) evidence.push({ weight: weights.productNamed, reason: `names ${listWords(named.map((product) => product.name))}` });

  const wordRun = profile.ruledOutNames.length > 0 ? ` ${words.join(' ')} ` : '';
  const ruledOut = profile.ruledOutNames.find((name) => wordRun.includes(` ${name} `));
  if (ruledOut) evidence.push({ weight: weights.ruledOutNameNamed, reason: `names ${ruledOut}, which the context rules out` });

  // A domain name holds a dot and two letters: text without them is not searched for one.
  const domainNames = mayNameDomain.test(lower) ? lower.match(domainName) ?? [] : [];
  const hosts = [...post.links.map(hostOf), ...domainNames].filter((host): host is string => Boolean(host));
  const termLower = profile.term.toLowerCase();
  if (hosts.some((host) => onDomain(host, profile.senseDomains))) {
    evidence.push({ weight: weights.senseDomain, reason: `links to ${profile.senseDomains[0]}` });
  } else if (hosts.some((host) => onDomain(host, profile.offSenseDomains) || (profile.senseDomains.length > 0 && host.split('.')[0] === termLower))) {
    // A host made of the term that is not one of the profile's ("bolt.new"
    // beside "bolt.eu") belongs to another product of the same name.
    evidence.push({ weight: weights.otherDomain, reason: 'another product of the same name' });
  }
  if (profile.handlePattern.test(post.text)) evidence.push({ weight: weights.handleOrHashtag, reason: `tags @ or #${termLower}` });
  return { evidence, productsNamed: named.length };
}

/**
 * A word of the kinds of namesake the context lists ("hotels, restaurants
 * and people named Vivaldi": `namesakeKinds`) written right before or after
 * the name in the post, in its language as the glossary reads it ("Hotel
 * Vivaldi", "le restaurant Nook", "Nook Café"): the post names one of them.
 * After the name, a word written in lower case is the name's own thing, not
 * part of another name ("Lantern events" of a calendar app), so only one the
 * post does not write in lower case counts there.
 */
function namesakeKindEvidence(profile: SenseProfile, postWords: readonly string[], words: readonly string[], text: string, occurrences: readonly Occurrence[]): RelevanceEvidence[] {
  if (profile.namesakeKinds.size === 0) return [];
  const folded = words.map(foldWord);
  const length = profile.termSequence.length;
  // The word as the post writes it, or as the glossary reads it: the context's own word may be the post's too
  // ("cafés … named Nook" beside "el Nook Café", where the glossary reads "café" as "coffee").
  const kindAt = (index: number): string | undefined => {
    if (index < 0 || index >= words.length) return undefined;
    const written = foldWord(postWords[index]);
    if (profile.namesakeKinds.has(written)) return written;
    return profile.namesakeKinds.has(folded[index]) ? folded[index] : undefined;
  };
  const kindAfterMayBeName = occurrences.some((occurrence) => !followedByLowerCase(text, occurrence));
  for (const index of termIndexesIn(folded, profile.termSequence)) {
    const before = kindAt(index - 1);
    const after = kindAt(index + length);
    const beside = before ?? (kindAfterMayBeName ? after : undefined);
    if (beside) return [{ weight: weights.namesakeKindBeside, reason: `"${profile.term}" names ${/^[aeiou]/u.test(beside) ? 'an' : 'a'} ${beside}, which the context rules out` }];
  }
  return [];
}

/** Whether the word after an occurrence of the term is written in lower case. */
const followedByLowerCase = (text: string, occurrence: Occurrence) => /^[ \t]+\p{Ll}/u.test(text.slice(occurrence.index + occurrence.text.length, occurrence.index + occurrence.text.length + 20));

function sigmoid(x: number) {
  return 1 / (1 + Math.exp(-x));
}

/**
 * Relevance 0 to 100 of a post to the sense of a keyword its profile
 * describes: readings in log-odds (see `weights`), summed and squashed.
 */
export function scoreRelevance(
  profile: SenseProfile,
  post: RelevancePost,
  /** The post's words (`wordsOf`). */
  postWords: readonly string[],
  reader: EnglishReader,
  language: string | null,
  learned: FeedbackAdjustment | null,
  kind: KeywordKind,
): RelevanceReading {
  const evidence: RelevanceEvidence[] = [];
  const occurrences = proseOccurrences(profile, post.text);
  // A common English word in a post of another language is a name there
  // ("Rust está ganando terreno"), unless written in lower case ("une notion")
  // or, in German, which capitalises every noun, as a noun ("im Headspace").
  // So is a capitalised name joined by a hyphen to a word of the post's language, compounded or inflected there
  // ("Fender-reparaties", "w GIMP-ie"), where English joins only identifiers so ("rust-analyzer"); not in German,
  // which capitalises the first part of every compound of nouns ("Halide-Kristalle").
  const compounded = language !== 'de' ? occurrences.all.filter((occurrence) => joinedByHyphen(post.text, occurrence)) : [];
  const nameInOtherLanguage = profile.commonWord && inOtherLanguage(language)
    && [...occurrences.prose, ...compounded].some((occurrence) => capitalised(occurrence)
      && !(language === 'de' && writtenAsGermanNoun(post.text.slice(Math.max(0, occurrence.index - 30), occurrence.index))));
  if (!profile.ambiguous && profile.otherSensesRuledOut) {
    evidence.push({ weight: weights.distinctiveTermOtherSensesRuledOut, reason: `the context rules out other senses of "${profile.term}"` });
  } else if (!profile.ambiguous) evidence.push({ weight: weights.distinctiveTerm, reason: `"${profile.term}" is a distinctive name` });
  else if (nameInOtherLanguage) evidence.push({ weight: weights.nameInOtherLanguage, reason: `"${profile.term}" is a name in a post in ${language}` });
  else if (profile.meaning.usuallyMeansOtherThing) {
    evidence.push({ weight: profile.commonWord ? weights.ambiguousTerm : weights.nameOfOtherThing, reason: `"${profile.term}" usually means something else (${listWords(profile.meaning.usualMeaning)})` });
  } else evidence.push({ weight: weights.ambiguousTerm, reason: `"${profile.term}" is also a common word` });
  if (occurrences.all.length === 0) evidence.push({ weight: weights.termMissing, reason: `"${profile.term}" is not in the text` });
  const senseUnstated = profile.senseUnstated && profile.ambiguous && kind !== 'topic';
  if (profile.ambiguous && !profile.senseUnstated) evidence.push(...formEvidence(profile, post.text, occurrences.prose, language));
  evidence.push(...writingEvidence(profile, post.text, occurrences, reader, language, senseUnstated, nameInOtherLanguage));
  if (senseUnstated) evidence.push(...unstatedSenseEvidence(profile, post, occurrences.prose, language));
  if (profile.ambiguous && !senseUnstated) evidence.push(...peerNameEvidence(profile, post.text, occurrences.prose, reader));
  const words = glossedWords(postWords, language, profile.termWords);
  const gloss = glossAsOtherThing(profile, post.text, occurrences.prose, language);
  evidence.push(...(gloss === null ? wordEvidence(profile, words, post.text, language) : glossedPostWordEvidence(profile, words, post.text, language)));
  if (gloss !== null) evidence.push({ weight: weights.glossedAsOtherThing, reason: `"${profile.term}" glossed as something else (${gloss.trim()})` });
  evidence.push(...namesakeKindEvidence(profile, postWords, words, post.text, occurrences.prose));
  const names = nameEvidence(profile, post, words);
  evidence.push(...names.evidence);
  if (learned && learned.weight !== 0) {
    const cues = learned.weight < 0 ? learned.rejectedCues : learned.acceptedCues;
    evidence.push({ weight: learned.weight, reason: `${learned.weight < 0 ? 'like rejected' : 'like accepted'} posts (${listWords(cues)})` });
  }
  const total = evidence.reduce((sum, item) => sum + item.weight, 0);
  const termCounts = kind !== 'topic' && occurrences.all.length > 0 ? 1 : 0;
  return {
    relevance: Math.round(100 * sigmoid(total)),
    evidence,
    productsNamed: names.productsNamed + termCounts,
  };
}
