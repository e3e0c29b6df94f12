import type { Platform } from '../vocabulary/normalized-post.ts';
import type { Intent } from '../vocabulary/classification-values.ts';
import { relevanceLine } from '../vocabulary/relevance.ts';
import type { ClassificationInput, ClassificationOutcome, Classifier } from './classifier-types.ts';
import type { Classification } from './classification.ts';
import { contentWordsAmong, wordsOf } from './content-words.ts';
import { automationSignals, statusTemplate } from './automation-signals.ts';
import { createEnglishReader, type EnglishReader } from './english-reader.ts';
import { feedbackAdjustment } from './feedback-model.ts';
import { asksToMend, comparesWithAnotherName, comparisonWinner, detectIntents, saysComparison } from './intents.ts';
import { detectLanguage, loadLanguageDetector } from './language.ts';
import { type RelevanceReading, scoreRelevance } from './relevance-scorer.ts';
import { buildSenseProfile, type SenseProfile } from './sense-profile.ts';
import { closesOnVerdict, trackedMove } from './leaving-posts.ts';
import { reportsBug, reportsRatherThanOpines } from './reporting-posts.ts';
import { concedesFault, concedesPraise, machineMadeSentiment, readSentiment } from './sentiment.ts';
import { featureRows, type SentimentEvidence } from './sentiment-features.ts';
import { asksWhetherShared } from './stance-cues.ts';
import { type LoadedOpinionModels, loadOpinionModels, readOpinionsOfRows } from './opinion-models.ts';
import { loadWordVectors, type WordVectors } from './word-vectors.ts';

/** What reads a post: the language tables, the English model and the word vectors. */
export interface PostReaders {
  languageDetector: Awaited<ReturnType<typeof loadLanguageDetector>>;
  english: EnglishReader;
  vectors: WordVectors;
}

export interface BuiltInModels extends PostReaders {
  opinions: LoadedOpinionModels;
}

let readers: Promise<PostReaders> | undefined;
let models: Promise<BuiltInModels> | undefined;

/**
 * One turn of the event loop. Each load step holds the loop for a few hundred
 * milliseconds; in a process that also serves requests, they are answered
 * between the steps rather than after all of them (two seconds in one piece
 * put requests in flight past their deadline).
 */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Loads the language tables, the English model and the word vectors once per process (about a second), a step a turn. */
export function loadPostReaders(): Promise<PostReaders> {
  readers ??= (async () => {
    const languageDetector = await loadLanguageDetector();
    await nextTurn();
    const english = createEnglishReader();
    await nextTurn();
    return { languageDetector, english, vectors: loadWordVectors() };
  })();
  return readers;
}

/** The readers and the trained sentiment and intent models, once per process. */
export function loadBuiltInModels(): Promise<BuiltInModels> {
  models ??= loadPostReaders().then(async (loaded) => {
    await nextTurn();
    return { ...loaded, opinions: loadOpinionModels() };
  });
  return models;
}

/** The note: the score, then the strongest readings on the side the score fell. */
function noteFor(reading: RelevanceReading): string {
  const relevant = reading.relevance >= relevanceLine;
  const reasons = [...reading.evidence]
    .filter((item) => (relevant ? item.weight > 0 : item.weight < 0))
    .sort((a, b) => Math.abs(b.weight) - Math.abs(a.weight))
    .slice(0, 3)
    .map((item) => item.reason);
  const verdict = relevant ? 'relevant' : 'not relevant';
  return reasons.length === 0
    ? `Relevance ${reading.relevance} (${verdict}): nothing in the post says which sense of the term it uses.`
    : `Relevance ${reading.relevance} (${verdict}): ${reasons.join('; ')}.`;
}

/**
 * What a post says of its author's attitude and wants: the lexicon reading,
 * the intents the rules find (none for a machine-made post: a feed or a bot
 * wants nothing) and the evidence the opinion models read. The classifier
 * and the models' training read posts through this one function.
 */
export function readOpinion(
  loaded: PostReaders,
  post: { text: string; platform: Platform },
  reading: { language: string | null; ignoredWords: ReadonlySet<string>; productsNamed: number; automated: boolean },
): { intents: Intent[]; evidence: SentimentEvidence } {
  const opinion = readSentiment(post.text, reading.language, reading.ignoredWords);
  const intents = reading.automated ? [] : detectIntents({ text: post.text, platform: post.platform, opinion, productsNamed: reading.productsNamed });
  return {
    intents,
    evidence: {
      text: post.text,
      language: reading.language,
      reading: opinion,
      intents,
      reporting: reportsRatherThanOpines(post),
      ignoredWords: reading.ignoredWords,
    },
  };
}

/** A post as the classifier reads it, before any verdict on its sentiment. */
export function readPost(loaded: PostReaders, input: ClassificationInput, profile: SenseProfile) {
  const { post } = input;
  const words = wordsOf(post.text);
  const language = detectLanguage(loaded.languageDetector, post.text, words);
  const learned = input.learned ? feedbackAdjustment(input.learned, contentWordsAmong(words)) : null;
  const relevance = scoreRelevance(profile, post, words, loaded.english, language, learned, input.keyword.kind);
  const { automated, signals } = automationSignals(post);
  const { intents, evidence } = readOpinion(loaded, post, { language, ignoredWords: profile.termWords, productsNamed: relevance.productsNamed, automated });
  return { language, relevance, automated, statusPost: signals.includes(statusTemplate), intents, evidence };
}

/**
 * Classifies one post; the same input always gives the same classification.
 * A machine-made post has no intents and is neutral, but for a status
 * page's report of a fault, read by its product words (a release note's
 * "fixes a crash" tells of a fault gone); a person's post goes to the
 * trained sentiment and intent models.
 */
export function classifyPost(loaded: BuiltInModels, input: ClassificationInput, profile: SenseProfile): Classification {
  const { language, relevance, automated, statusPost, intents, evidence } = readPost(loaded, input, profile);
  const relevant = relevance.relevance >= relevanceLine;
  const move = relevant ? trackedMove(input.post.text, profile.termPattern) : null;
  const winner = relevant && move === null ? comparisonWinner(input.post.text, profile.termPattern, language, loaded.english.isEnglishWord) : null;
  const lost = winner === 'other';
  const opinion = automated
    ? { sentiment: machineMadeSentiment(evidence.reading, statusPost), intents: [] }
    : readOpinionsOfRows(loaded.opinions, featureRows(evidence, loaded.opinions.vocabulary), intents, {
        relevant,
        ironic: evidence.reading.ironic || evidence.reading.exclaimsAtBody,
        concedesPraise: concedesPraise(evidence.reading),
        concedesFault: concedesFault(evidence.reading),
        productsNamed: relevance.productsNamed,
        understatesPraise: evidence.reading.understatesPraise,
        curtPraiseAfterBlame: evidence.reading.curtPraiseAfterBlame,
        praisesAsAfterthought: evidence.reading.praisesAsAfterthought,
        saysComparison: move !== null || lost || saysComparison(input.post.text) || comparesWithAnotherName(input.post.text, profile.termPattern),
        reportsBug: reportsBug(input.post.text),
        asksToMend: asksToMend(input.post.text),
        asksWhetherShared: asksWhetherShared(input.post.text.toLowerCase()),
        leavesTracked: move === 'leaves',
        joinsTracked: move === 'joins',
        losesComparison: lost,
        winsComparison: winner === 'tracked',
        closesOnVerdict: closesOnVerdict(input.post.text),
      });
  return {
    relevance: relevance.relevance,
    sentiment: opinion.sentiment,
    intents: opinion.intents,
    automated,
    language,
    note: noteFor(relevance),
  };
}

const profileCacheSize = 1_000;

/**
 * The default classifier: offline, deterministic, no network. Sense profiles
 * are built once per keyword version and kept for later batches.
 */
export function createBuiltInClassifier(): Classifier {
  const profiles = new Map<string, SenseProfile>();
  const profileFor = (loaded: BuiltInModels, input: ClassificationInput) => {
    const key = JSON.stringify([input.keyword.id, input.keyword.term, input.keyword.kind, input.keyword.context, input.keyword.groupDescription, input.company]);
    let profile = profiles.get(key);
    if (!profile) {
      profile = buildSenseProfile(input.keyword, input.company, loaded);
      if (profiles.size >= profileCacheSize) profiles.delete(profiles.keys().next().value as string);
      profiles.set(key, profile);
    }
    return profile;
  };
  return {
    name: 'built-in',
    async prepare() {
      await loadBuiltInModels();
    },
    async classifyBatch(inputs: ClassificationInput[]): Promise<ClassificationOutcome[]> {
      const loaded = await loadBuiltInModels();
      return inputs.map((input): ClassificationOutcome => {
        try {
          return { mentionId: input.mentionId, ok: true, classification: classifyPost(loaded, input, profileFor(loaded, input)) };
        } catch (error) {
          // Only a bug gets here; retrying the same input would fail the same way.
          return { mentionId: input.mentionId, ok: false, error: error instanceof Error ? error.message : String(error), retryable: false };
        }
      });
    },
  };
}
