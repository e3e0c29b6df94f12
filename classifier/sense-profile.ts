import type { ClassifiedKeyword, CompanyProfile } from './classifier-types.ts';
import { CognateIndex } from './cognates.ts';
import { contentWordsOf, foldWord, WordFamilySet, wordsOf } from './content-words.ts';
import { domainVocabularies } from './domain-vocabularies.ts';
import type { EnglishReader } from './english-reader.ts';
import { SenseMeaning } from './sense-meaning.ts';
import { unicodeWords } from './unicode-word-boundaries.ts';
import { stopWords } from '../vocabulary/stop-words.ts';
import type { WordVectors } from './word-vectors.ts';

/** A named product the post may mention: the company or one of its competitors. */
export interface NamedProduct {
  name: string;
  /** Finds the name in lower-cased text. */
  pattern: RegExp;
  /** The company's own product, as opposed to a competitor. */
  own: boolean;
  /** One everyday English word ("Opera", "Brave"): the product only where the post capitalises it, the word itself otherwise ("Vivaldi's opera"). */
  everydayWord: boolean;
}

/** What a keyword means, read once from its context, its group and the company profile. */
export interface SenseProfile {
  term: string;
  /** Finds the term as a whole word or phrase, any case. */
  termPattern: RegExp;
  /** Words of the term, as written and folded, kept out of every other word list. */
  termWords: ReadonlySet<string>;
  /** The term's folded words in order, to find it in a post's word list. */
  termSequence: string[];
  /**
   * A single word that is a common English word ("rust", "notion", "bolt")
   * or that general text mostly uses for something else than the sense
   * ("Kafka", "Apollo"): its sense must be earned.
   */
  ambiguous: boolean;
  /**
   * The context or guidelines rule other senses of the term out ("not the
   * reptiles"): whoever tracks it knows the name is shared, however
   * distinctive it looks to the word tables.
   */
  otherSensesRuledOut: boolean;
  /**
   * Nothing names the sense: no context, group description, company profile
   * or product. The user has said only that the term is tracked.
   */
  senseUnstated: boolean;
  /** A single common English word: how it is written (a capital, lower case) tells the name from the word. */
  commonWord: boolean;
  /** The sense in word-vector space, which reads how near a post's words lie to it. */
  meaning: SenseMeaning;
  /**
   * Several common English words the user wrote as a name ("Time
   * Machine"): written in lower case in a post, they are the phrase ("a
   * time machine for the web"), as a common word in lower case is the word.
   */
  commonPhrase: boolean;
  /** The user wrote the term with a capital, as a name. */
  writtenAsName: boolean;
  /** The context or company profile writes the name in capitals ("YETI coolers", "CARROT Weather"): so do its posts. */
  namedInCapitals: boolean;
  /** Folded words that describe the meant sense. */
  senseWords: WordFamilySet;
  /** The product categories the sense words fall into (see domain-vocabularies.ts). */
  categories: string[];
  /** Words of those categories. */
  relatedWords: WordFamilySet;
  /** Folded words of senses the context or guidelines rule out ("not corrosion"). */
  offSenseWords: WordFamilySet;
  /** The sense words and the ruled-out words, for words of other languages that share their stems ("guitarra", "nébuleuse"). */
  senseCognates: CognateIndex;
  offSenseCognates: CognateIndex;
  /**
   * Other things of the same name the context rules out, as the term and
   * the word written beside it ("parrot os", "blue yeti", "jeep compass"),
   * lower case: a post naming one is about that thing.
   */
  ruledOutNames: string[];
  /**
   * What the context says other things bearing the name are ("events and
   * venues named Fantastical", "shops and gyms named Helix"), folded: kinds
   * of namesake, not senses, so they rule a post out only where one stands
   * right beside the name ("Nook Café"), never a post about events or shops.
   */
  namesakeKinds: WordFamilySet;
  products: NamedProduct[];
  /** Lower-case words of the products' names ("silicon", "valley", "bank"). */
  productNameWords: ReadonlySet<string>;
  /**
   * Words of the sense only as a product's name that is one everyday English
   * word ("opera" of a browser's competitor Opera): a word of the sense only
   * where the post capitalises it.
   */
  everydayNameWords: ReadonlySet<string>;
  /** `@term` or `#term`, spaces removed. */
  handlePattern: RegExp;
  /** Hosts that belong to the meant sense (the website, domains in the context). */
  senseDomains: string[];
  /** Hosts the context or guidelines rule out ("not Apollo.io"). */
  offSenseDomains: string[];
}

function escapeForPattern(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A whole-word pattern; spaces in a phrase also match hyphens and runs of
 * space. Only letters of alphabetic scripts bound a word: in "Notionで" the
 * Japanese particle follows the name without a space. `anyCase` patterns
 * read text as written; the others are lower case, for lower-cased text
 * (case-insensitive Unicode matching is several times slower).
 */
export function wholeWordPattern(phrase: string, anyCase: boolean): RegExp {
  const body = phrase.trim().split(/\s+/).map(escapeForPattern).join('[\\s-]+');
  const letter = '[\\p{Script=Latin}\\p{Script=Greek}\\p{Script=Cyrillic}\\p{N}]';
  return anyCase ? new RegExp(`(?<!${letter})${body}(?!${letter})`, 'giu') : new RegExp(`(?<!${letter})${body.toLowerCase()}(?!${letter})`, 'u');
}

const domainPattern = /\b(?:[a-z0-9-]+\.)+(?:com|io|so|app|dev|eu|ai|co|net|org|new|sh|xyz|cloud|tech)\b/giu;

export function hostOf(address: string): string | null {
  try {
    return new URL(/^[a-z]+:\/\//iu.test(address) ? address : `https://${address}`).hostname.toLowerCase().replace(/^www\./u, '');
  } catch {
    return null;
  }
}

/**
 * The sense of a brand's or competitor's name when the user describes
 * none: words of any product or company, against which the term's own
 * vector ("harbour, bay" for "harbor") stands for its everyday meaning, so
 * "boats" and "sunset" lean a post away from the brand and "registry" and
 * "pricing" toward it.
 */
const anyProductOrCompany = 'app software service product company platform customers pricing subscription startup brand website';

/**
 * Clauses that rule senses out start at a negative marker ("Not corrosion",
 * "Not relevant: …", "exclude …", "ignore …") and run to the end of their
 * sentence; everything else describes the meant sense.
 */
const offSenseMarker = unicodeWords(/\b(?:not|no|never|exclude|excluding|ignore|ignoring|unrelated|irrelevant|except|nothing about|other than)\b/iu);

/**
 * Where a description's sentences end: after a stop and a space, but not
 * after an initial ("H. G. Wells's novel") or a common abbreviation ("e.g.",
 * "Inc."), which would cut a clause that rules senses out in two and leave
 * its tail ("…Wells's novel and its films, Hot Tub Time Machine…") read as
 * the sense.
 */
const sentenceBreak = /(?<=[.;!?])(?<!(?:^|[\s(])\p{Lu}\.)(?<!\b(?:e\.g|i\.e|vs|Inc|Ltd|Co|Corp|Dr|Mr|Mrs|Ms|St|Jr|Sr)\.)\s+|\n+/u;

/**
 * Words naming a kind of thing or a use of language rather than a sense:
 * "other products named Kayak", "the Fellow meeting-notes app", "the
 * adjective audible", "the word planta". Ruled out, they would rule out every post
 * about a product or a word; the rest of the clause says which.
 */
const kindWords = new Set(contentWordsOf('app apps product products brand brands company companies business businesses project projects thing things use uses word words meaning meanings adjective verb noun'));

/**
 * Verbs a description uses to say who makes or sells the product ("the foam
 * clogs made by Crocs Inc.", "Quickstep Labs makes Quickstep", "YETI sells
 * coolers"): what follows them names the sense, they themselves no field,
 * and as context words they lifted any post saying someone "made" or
 * "makes" something. Not the verbs of a field's own work ("design",
 * "build", "develop", "create"), which name a typeface's or a tool's sense.
 * The vectors keep them (taken out there too, the holdout of rounds 1 and 2
 * gained and dev everyday lost a post).
 */
const makerVerbs = new Set(contentWordsOf('make makes made making sell sells sold offer offers provide provides produce produces produced'));

function splitBySense(description: string): { sense: string; offSense: string } {
  let sense = '';
  let offSense = '';
  for (const sentence of description.split(sentenceBreak)) {
    const marker = offSenseMarker.exec(sentence);
    if (!marker) {
      sense += ` ${sentence}`;
      continue;
    }
    const before = sentence.slice(0, marker.index);
    const after = sentence.slice(marker.index + marker[0].length);
    // "Relevant: feature flag tools. Not relevant: …" — a label before the
    // marker belongs to the marker's clause, not to the sense.
    sense += /^\s*(?:relevant)?\s*:?\s*$/iu.test(before) ? '' : ` ${before}`;
    offSense += ` ${after.replace(/^\s*relevant\s*:?/iu, '')}`;
  }
  return { sense, offSense };
}

/** Words and commas of a clause, in order: a hyphenated word or any other mark is one token. */
const clauseToken = /[\p{L}\p{N}'’-]+|[^\s\p{L}\p{N}]/gu;
const listJoiners = new Set([',', 'and', 'or', 'other']);

/**
 * The kinds of namesake a clause that rules senses out lists right before
 * a verb of naming and the term ("or hotels, restaurants and people named
 * Vivaldi", "other products, places or teams named Osprey", "songs called
 * Bugaboo"): the list read back from the verb while it holds plain lower-case
 * words, commas, "and", "or" and "other", up to ", or", which opens the
 * clause's item.
 */
function namesakeKindsIn(offSense: string, term: string): string[] {
  const kinds: string[] = [];
  const tokens = [...offSense.matchAll(clauseToken)].map((match) => match[0]);
  const termFirst = wordsOf(term)[0];
  tokens.forEach((token, index) => {
    if (!/^(?:named|called)$/iu.test(token) || tokens[index + 1]?.toLowerCase() !== termFirst) return;
    for (let back = index - 1; back >= 0; back--) {
      const word = tokens[back];
      if (word === 'or' && tokens[back - 1] === ',') break;
      if (listJoiners.has(word)) continue;
      if (!/^\p{Ll}+$/u.test(word) || stopWords.has(word)) break;
      kinds.push(...contentWordsOf(word));
    }
  });
  return kinds;
}

/**
 * The categories whose vocabulary shares two words or more with a profile's
 * sense words: one shared word ("app", "team") is too weak a sign of the
 * category.
 */
function categoriesOf(senseWords: ReadonlySet<string>, vocabularies: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  return [...vocabularies].flatMap(([name, vocabulary]) => {
    let shared = 0;
    for (const word of senseWords) if (vocabulary.has(word)) shared++;
    return shared >= 2 ? [name] : [];
  });
}

/**
 * The term with a name's word written right beside it in `text`, with
 * nothing but a space between ("Not Parrot OS", "Blue Yeti microphones",
 * "MongoDB Compass"), lower case, where the pair is not also in `sense`.
 * A name's word is capitalised and no function word ("Not", "The"), or
 * an acronym ("OS").
 */
function namesBeside(term: string, text: string, sense: string): string[] {
  if (wordsOf(term).length !== 1) return [];
  const lowerTerm = term.toLowerCase();
  const tokens = [...text.matchAll(/[\p{L}\p{N}]+/gu)].map((match) => ({ word: match[0], start: match.index ?? 0 }));
  const adjacent = (left: number) => /^[ \t]+$/u.test(text.slice(tokens[left].start + tokens[left].word.length, tokens[left + 1].start));
  const isNamePart = (word: string) => /^\p{Lu}/u.test(word) && (!stopWords.has(word.toLowerCase()) || /^\p{Lu}{2,}$/u.test(word));
  const senseRun = ` ${wordsOf(sense).join(' ')} `;
  const names = new Set<string>();
  tokens.forEach(({ word }, index) => {
    if (word.toLowerCase() !== lowerTerm) return;
    const before = tokens[index - 1];
    const after = tokens[index + 1];
    if (before && adjacent(index - 1) && isNamePart(before.word)) names.add(`${before.word} ${word}`.toLowerCase());
    if (after && adjacent(index) && isNamePart(after.word)) names.add(`${word} ${after.word}`.toLowerCase());
  });
  return [...names].filter((name) => !senseRun.includes(` ${name} `));
}

/**
 * The profile of a keyword's sense. `vocabularies` are the category
 * vocabularies it may borrow from: all of them in use; `npm run eval` also
 * passes fewer, to measure a keyword whose category has none.
 */
export function buildSenseProfile(
  keyword: ClassifiedKeyword,
  company: CompanyProfile | null,
  readers: { english: EnglishReader; vectors: WordVectors },
  vocabularies: ReadonlyMap<string, ReadonlySet<string>> = domainVocabularies,
): SenseProfile {
  const term = keyword.term.trim();
  const termWords = new Set(wordsOf(term).flatMap((word) => [word, foldWord(word)]));
  const descriptions = [keyword.context, keyword.groupDescription, company?.description, company?.guidelines].filter(
    (text): text is string => Boolean(text),
  );

  const senseWords = new Set<string>();
  const offSenseWords = new Set<string>();
  const senseText: string[] = [];
  const offSenseText: string[] = [];
  const senseDomains = new Set<string>();
  const offSenseDomains = new Set<string>();
  const websiteHost = company?.website ? hostOf(company.website) : null;
  if (websiteHost) senseDomains.add(websiteHost);
  for (const description of descriptions) {
    const { sense, offSense } = splitBySense(description);
    for (const domain of sense.match(domainPattern) ?? []) senseDomains.add(domain.toLowerCase());
    for (const domain of offSense.match(domainPattern) ?? []) offSenseDomains.add(domain.toLowerCase());
    senseText.push(sense.replace(domainPattern, ' '));
    offSenseText.push(offSense.replace(domainPattern, ' '));
    for (const word of contentWordsOf(senseText.at(-1)!)) senseWords.add(word);
    for (const word of contentWordsOf(offSenseText.at(-1)!)) offSenseWords.add(word);
  }
  // A word on both sides ("app" in "the docs app" and "not the Reddit app")
  // says nothing about which sense a post is in.
  for (const word of [...offSenseWords]) {
    if (senseWords.has(word)) {
      senseWords.delete(word);
      offSenseWords.delete(word);
    }
  }
  for (const word of makerVerbs) senseWords.delete(word);
  for (const word of termWords) {
    senseWords.delete(word);
    offSenseWords.delete(word);
  }
  for (const word of kindWords) offSenseWords.delete(word);
  const namesakeKinds = new Set(offSenseText.flatMap((text) => namesakeKindsIn(text, term)).filter((word) => !kindWords.has(word) && !senseWords.has(word)));
  for (const word of namesakeKinds) offSenseWords.delete(word);

  const products: NamedProduct[] = [];
  const named = new Set<string>([term.toLowerCase()]);
  const addProduct = (name: string | null | undefined, own: boolean) => {
    const trimmed = name?.trim();
    if (!trimmed || named.has(trimmed.toLowerCase())) return;
    named.add(trimmed.toLowerCase());
    const everydayWord = wordsOf(trimmed).length === 1 && readers.english.isEnglishWord(trimmed);
    products.push({ name: trimmed, pattern: wholeWordPattern(trimmed, false), own, everydayWord });
  };
  addProduct(company?.name, true);
  for (const competitor of company?.competitors ?? []) addProduct(competitor, false);
  const everydayNameWords = new Set<string>();
  for (const product of products) {
    for (const word of contentWordsOf(product.name)) {
      if (termWords.has(word) || senseWords.has(word)) continue;
      senseWords.add(word);
      if (product.everydayWord) everydayNameWords.add(word);
    }
  }

  const categories = categoriesOf(senseWords, vocabularies);
  const relatedWords = new Set<string>();
  for (const name of categories) for (const word of vocabularies.get(name)!) relatedWords.add(word);
  for (const word of [...senseWords, ...offSenseWords, ...termWords]) relatedWords.delete(word);

  const single = wordsOf(term).length === 1;
  const commonWord = single && readers.english.isEnglishWord(term);
  const senseUnstated = descriptions.length === 0 && products.length === 0 && senseDomains.size === 0;
  // Where nothing names a brand's or competitor's sense, a product or company is all it is known to be.
  const nameOfProduct = senseUnstated && keyword.kind !== 'topic';
  // Names of products stay out of the meaning: their vectors are those of other things ("Ramp", "Uber").
  const meaning = new SenseMeaning(readers.vectors, {
    termWords: new Set(wordsOf(term)),
    term: single ? term.toLowerCase() : null,
    senseWords: nameOfProduct ? wordsOf(anyProductOrCompany) : wordsOf(senseText.join(' ')),
    offSenseWords: wordsOf(offSenseText.join(' ')).filter((word) => !kindWords.has(foldWord(word))),
  });
  const ruledOutNames = namesBeside(term, offSenseText.join(' '), senseText.join(' '));
  const termHandle = escapeForPattern(term.toLowerCase().replace(/\s+/gu, ''));
  return {
    term,
    termPattern: wholeWordPattern(term, true),
    termSequence: wordsOf(term).map(foldWord),
    termWords,
    // A name read against any product's words is not thereby another thing's: only a description can say that.
    ambiguous: commonWord || (single && !nameOfProduct && meaning.usuallyMeansOtherThing),
    otherSensesRuledOut: offSenseWords.size > 0,
    senseUnstated,
    commonWord,
    meaning,
    commonPhrase: !single && /^\p{Lu}/u.test(term) && wordsOf(term).every((word) => readers.english.isEnglishWord(word)),
    writtenAsName: /^\p{Lu}/u.test(term),
    namedInCapitals: term.length > 2 && new RegExp(`(?<![\\p{L}\\p{N}])${escapeForPattern(term.toUpperCase())}(?![\\p{L}\\p{N}])`, 'u').test([...descriptions, company?.name ?? ''].join(' ')),
    senseWords: new WordFamilySet(senseWords),
    categories,
    relatedWords: new WordFamilySet(relatedWords),
    offSenseWords: new WordFamilySet(offSenseWords),
    senseCognates: new CognateIndex(senseWords),
    offSenseCognates: new CognateIndex(offSenseWords),
    ruledOutNames,
    namesakeKinds: new WordFamilySet(namesakeKinds),
    products,
    productNameWords: new Set(products.flatMap((product) => product.name.toLowerCase().split(/\s+/u))),
    everydayNameWords,
    handlePattern: new RegExp(`[@#]${termHandle}(?![\\p{L}\\p{N}])`, 'iu'),
    senseDomains: [...senseDomains],
    offSenseDomains: [...offSenseDomains],
  };
}
