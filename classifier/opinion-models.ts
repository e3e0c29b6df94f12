import { readFileSync } from 'node:fs';
import type { Intent, Sentiment } from '../vocabulary/classification-values.ts';
import { orderedIntents } from './classification.ts';
import type { LogisticModel } from './logistic-regression.ts';
import type { FeatureRows, FeatureVocabulary, PostRows, SentimentFeatures } from './sentiment-features.ts';

/** The committed models: `npm run train:classifier` writes them from the training posts. */
export const opinionModelsPath = new URL('./opinion-models.json', import.meta.url);

/**
 * Intents the classifier learns from labelled posts; `question` stays a rule
 * (a question mark or a question's opening says it, in any language).
 */
export const learnedIntents = ['buy_intent', 'complaint', 'praise', 'comparison'] as const satisfies readonly Intent[];
export type LearnedIntent = (typeof learnedIntents)[number];

/** One model for the sentiment, one yes/no model per learned intent. */
export interface OpinionModels {
  sentiment: LogisticModel;
  intents: Record<LearnedIntent, LogisticModel>;
  /**
   * The sentiment of a post of a field the models never saw
   * (`unfamiliarWordShare`): trained on every post and, beside it, a copy
   * with its words and word pairs taken out, so that it weighs what carries
   * over fields (the lexicons' reading, stance cues, irony, the form of the
   * post, the rules' verdicts) as if the words said nothing, as they do in
   * such a post.
   */
  unfamiliarSentiment: LogisticModel;
  /** How they were trained, so a reader of the JSON knows what it is. */
  training: { sentimentPosts: number; intentPosts: number; epochs: number; l2: number; minCount: number };
}

/**
 * The models as the classifier uses them, folded into one table: per
 * feature the three sentiment weights, then one log-odds weight per learned
 * intent (its "yes" weight less its "no" weight, which is all a two-class
 * model needs), then the three weights of the sentiment of unfamiliar
 * posts, so a post's features are looked up once for all six models.
 */
export interface LoadedOpinionModels {
  sentimentClasses: Sentiment[];
  bias: Float64Array;
  weights: Float64Array;
  /**
   * Where each feature's row starts in `weights` (rows lie side by side, for
   * fewer cache misses), by name and by the words and pairs themselves.
   */
  vocabulary: FeatureVocabulary;
  /** The rows of the stance cues of a fault told (`faultToldAllowances`) → how much lower a complaint is found. */
  faultToldRows: ReadonlyMap<number, number>;
  /** The rows of the stance cues of a fault (`faultCues`). */
  faultCueRows: ReadonlySet<number>;
}

const unfamiliarColumn = 3 + learnedIntents.length;
const width = unfamiliarColumn + 3;

/**
 * A post more than this share of whose distinct words (negation-marked)
 * the models never learned is of a field they never saw, and takes its
 * sentiment from `unfamiliarSentiment`: on fields it never saw, the word
 * model reads the few words it knows and leans to neutral. Chosen on the
 * development sets (shares of 0.1 to 0.4 tried; technical categories 76.1%
 * → 79.0%, unseen categories 83.0% → 83.3%) with the holdout of rounds 1
 * and 2 not lower (83.0% either way); cross-validation, whose folds share
 * their fields, moved within a refit's noise (PERFORMANCE.md).
 */
const unfamiliarWordShare = 0.2;

/**
 * The log-odds above which a learned intent is found, per intent. Models
 * trained where the intent is the rarer answer lean to "no", and
 * cross-validation (`cross-validate-opinion-models.ts`, cuts from -1.5 to
 * 0.5) finds every intent's F1 higher below zero. Only the complaint's cut
 * moved: its cross-validated F1 rose (0.577 → 0.596 over all folds' posts,
 * 0.689 on tune posts of unseen keywords either way) with the holdout of
 * rounds 1 and 2 not lower; lower cuts for praise, buy intent and
 * comparisons cost that holdout two to four points of their F1.
 */
export const intentCuts: Record<LearnedIntent, number> = { buy_intent: 0, complaint: -0.5, praise: 0, comparison: 0 };

/**
 * A complaint is the negative stance said of something: where the sentiment
 * model reads the post as negative, a complaint is found from log-odds this
 * much lower. The complaint model, trained where complaints are the rarer
 * answer, leans to "no" most on posts of fields it never saw ("Dinero
 * tirado", "Premium price, dollar-store lid"); the post's whole stance is
 * the evidence it lacks. Chosen on the development set of unseen categories
 * (complaint F1 0.55 → 0.64) with the holdout of rounds 1 and 2 not lower
 * (0.655 → 0.667); the same for praise read as positive cost that holdout
 * praise precision (0.79 → 0.72 at an allowance of 0.5). Raised from 1.5
 * in issue 19's pass 26, once a complaint in a positive post took a margin
 * (`positiveStanceComplaintMargin`): the labelling rules of rounds 8 to 10
 * give a complaint to 386 of the development sets' 391 negative posts;
 * everyday categories' intents 0.790 → 0.792, apps 0.746 → 0.752, the
 * others unchanged, the holdout of rounds 1 and 2 too (0.798); from 2.5 on,
 * apps 0.754 and that holdout 0.797.
 */
const negativeStanceComplaintAllowance = 2;

/**
 * Praise is the positive stance said of something: where the sentiment
 * model reads the post as negative, praise is found only from log-odds this
 * much higher. Praise in a post whose whole stance is negative is rare (15 of
 * the 174 negative tune posts, 12 of them conceded before a turn, see
 * `concededPraiseAllowance`; 1 of 318 in the intent corpus), and a praise
 * model that fires there has mostly read the sarcasm's words ("great",
 * "love") or a complaint's polite ones.
 */
const negativeStancePraiseMargin = 1;

/**
 * The mirror of `negativeStancePraiseMargin`: where the post's stance is
 * positive, a complaint is found only from log-odds this much higher. A
 * complaint model that fires there has mostly read the faults of what the
 * writer left or compared ("Fantasticalに変えてからGoogleカレンダーを開かなくなった",
 * "Whites were grey by week three" of the store brand) or a fault put
 * right. Chosen on the development sets with the margin of praise (margins
 * 0.5 to 2 read alike: intents 0.848 → 0.849 on unseen categories, 0.829 →
 * 0.833 on technical ones, everyday and apps within 0.001; complaint
 * precision up on all four) and the holdout of rounds 1 and 2 not lower
 * (0.795 → 0.798; 0.800 to 0.805 at 1.5 to 3).
 */
const positiveStanceComplaintMargin = 1;

/**
 * Praise is found from log-odds this much lower where a post that marks no
 * irony concedes it before a turn that brings none (`concedesPraise`: "Sway
 * is stable, sure, but…", "Helix tiene un montón de buenas ideas, pero…"):
 * the labelling rules of rounds 8 to 10 call such a concession praise (13
 * of 15 development posts), as the tune posts do since issue 19's
 * twenty-first pass (`training/README.md`), but the praise model, which
 * learned it from a few dozen posts, reads the turn's fault and leans to
 * "no". Chosen on the development sets (0.5 to 3 tried; praise F1 0.785 →
 * 0.811 on unseen categories, 0.714 → 0.737 on technical ones, the other
 * two not lower); the holdout of rounds 1 and 2, labelled before the rule,
 * loses a post of praise precision (0.656 → 0.641).
 */
const concededPraiseAllowance = 1.5;

/**
 * Praise is the positive stance said of something, so where the sentiment
 * model reads the post as positive, praise is found from log-odds this much
 * lower: by far for a post about the tracked sense, where a positive post
 * praises the thing tracked in every labelled set (67 of 73 such posts of
 * the holdout of rounds 1 and 2, all 50 of the development set), and a
 * little for a post about another sense, where the sets part ways (the
 * holdout of rounds 1 and 2 calls 5 of 31 such posts praise, the
 * development set 33 of 40, as the labelling rules of eval/README.md ask).
 * The praise model learns from tune posts that keep praise for the tracked
 * product, and on fields it never saw it leans to "no" ("Je recommande",
 * "Promossa", "Chapeau"); the whole stance is the evidence it lacks.
 * Chosen on the development set (praise F1 0.61 → 0.77, intents 0.771 →
 * 0.805) with the holdout of rounds 1 and 2 not lower (0.778 either way).
 * The tracked sense's raised from 2 to 2.5 in issue 19's pass 26, with the
 * complaint's allowances beside it: intents 0.849 → 0.851, 0.833 → 0.836,
 * 0.792 either way and 0.752 → 0.756 on the four development sets, that
 * holdout 0.798 either way (3 read as 2.5).
 */
const positiveStancePraiseAllowance = { trackedSense: 2.5, otherSense: 0.75 };

/**
 * The mirror of the allowances above: a post the sentiment model leaves
 * neutral, whose complaint model is sure of a complaint (log-odds above
 * this) and whose praise model finds none, is negative. On fields it never
 * saw the sentiment model leans to neutral where the words of a fault are
 * plain but not opinion words ("hasn't synced my queue in three days",
 * "se queda en Renderizando al 99 %"); the complaint model, trained on the
 * forms of problems, reads them. A calm bug report, labelled neutral with
 * a complaint, mostly stays under the margin. Chosen on the development
 * sets (technical categories 70.6% → 71.9%, unseen categories 82.4% →
 * 82.7%; margins 0 to 1.5 tried) with the holdout of rounds 1 and 2 not
 * lower (83.0% either way).
 */
const neutralComplaintLogOdds = 1;

/**
 * Buy intent the rules of `intents.ts` also find (a want told in the first
 * person, a search for alternatives, a question of price or of which to
 * pick) is found from log-odds this much lower. The buy-intent model,
 * trained where buying is the rarest answer, leans to "no" on fields it
 * never saw, where the rule's word is all the evidence a short post gives
 * ("Ready to order this week", "Quiero comprarla"). Chosen on the
 * development sets (buy intent F1 0.69 → 0.73 on unseen categories, 0.77 →
 * 0.81 on technical ones) with the holdout of rounds 1 and 2 higher (0.71
 * → 0.75); allowances of 0.5 to 1.5 all helped every set. The same for
 * comparisons and praise cost that holdout a point or two of their F1,
 * and for complaints moved nothing.
 */
const ruleFoundBuyingAllowance = 1;

/**
 * A question that weighs two options ("Monarch or YNAB? I care more about
 * net worth", "Osprey Talon 22 or Deuter Speed Lite 21 for day hikes?")
 * asks which to adopt, which the labelling rules of eval/README.md call
 * buy intent: 45 of the 62 such posts of the three development sets are.
 * The tune posts, on which the model learned, label fewer so (31 of 56),
 * and the rules leave it to the model (weighing two names as buying found
 * as many wrong as right, issue 19's twelfth pass); the allowance of buying
 * the rules find lets the form count without deciding alone. Chosen on the
 * development sets (buy intent F1 0.74 → 0.80, 0.81 → 0.85, 0.63 → 0.68)
 * with the holdout of rounds 1 and 2 not lower (0.750 → 0.765); at 1.5 or
 * 2 round 1 lost a post.
 */
const asksToChoose = (ruleIntents: readonly Intent[]) => ruleIntents.includes('question') && ruleIntents.includes('comparison');

/**
 * A complaint is found from log-odds this much lower in a post that
 * concedes praise before a turn that brings none (`concedesPraise`): the
 * turn's clause tells the fault ("…but next to Hyprland it feels like
 * 2012", "…aber der Verbrauch in der Stadt ist brutal") in words the
 * complaint model, on a field it never saw, does not know, while the
 * conceded praise pulls it toward "no". Chosen on the development sets
 * (allowances of 0.5 to 3 tried; intents 0.825 → 0.829 on unseen
 * categories, 0.780 → 0.783 on technical ones) with the holdout of rounds 1
 * and 2 not lower (0.788 → 0.791).
 */
const concededPraiseComplaintAllowance = 2;

/**
 * A post naming two products (the keyword's, the company's or a
 * competitor's) weighs them, whichever wins: the comparison the rules
 * already find there is found from log-odds this much lower, where the
 * model, reading which side the post takes, leans to "no" ("…je reste sur mon
 * Persil", "unlike the Kindle"). Chosen on the development sets
 * (allowances of 0.5 to 3 tried) with the holdout of rounds 1 and 2 not
 * lower; a lower cut for every comparison the rules find, two products
 * named or not, cost that holdout's comparisons (issue 19's twelfth pass).
 */
const twoProductsComparisonAllowance = 1.5;

/**
 * A comparison said in words the rules leave out (`saysComparison` in
 * `intents.ts`: one product beats another, two tried side by side, one
 * replaced by the other, a comparative a few words before its "than") is
 * found from log-odds this much lower. The comparison model, which never
 * learned these forms, reads such a post by which side it takes and leans
 * to "no" ("Did a blind test with the kids: 7UP beat Sprite four votes to
 * one"). Chosen on the three development sets (1 to 6 tried; 3 lifted the
 * everyday categories' intents 0.716 → 0.739, lowered none, and from 4 the
 * holdout of rounds 1 and 2 fell); the same forms as a rule the models read
 * lowered the sentiment of all three development sets. So is a comparative
 * word in a post naming something besides the tracked term
 * (`comparesWithAnotherName`, issue 19's twenty-fifth pass: comparison F1
 * 0.708 → 0.772 on technical categories, 0.735 → 0.769 on everyday ones,
 * 0.731 → 0.765 on apps, the holdout of rounds 1 and 2 not lower).
 */
const comparisonSaidAllowance = 3;

/**
 * Sarcasm complains of what it praises in words ("Made the whole deck in it
 * and it won't export to PowerPoint. Brilliant.", "Love wireless shifting."):
 * a post that marks irony, or closes by exclaiming praise at a body that
 * praises nothing, has its complaint found from log-odds this much lower,
 * beyond the negative stance's allowance. The complaint model reads the
 * praise words and leans to "no". Chosen on the development sets (1 to 3
 * tried; 2 and 3 alike: intents 0.843 → 0.845 on unseen categories, 0.809 →
 * 0.810 on technical ones, 0.717 → 0.721 on apps, everyday and the tune
 * posts unchanged).
 */
const ironicComplaintAllowance = 2;

/**
 * A complaint is found from log-odds this much lower where the post holds
 * a stance cue (`stance-cues.ts`) of a fault told as what happened, in any
 * of nine languages: something worse than it was ("antes era instantâneo",
 * "seit dem Update", "dopo l'aggiornamento"), something lacking ("manca la
 * versione web", "falta muito"), and, by less, a question that complains
 * ("Alguém mais com…?", "why does…"), which calm bug reports ask too. The
 * complaint model weighs these cues beside words it never learned on a new
 * field, and where the post's stance is left neutral no allowance helps.
 * Chosen on the development sets (technical categories 0.785 → 0.795,
 * unseen categories unchanged; 1.5 to 3 read alike for the first two, 1
 * for the question cost the holdout) with the holdout of rounds 1 and 2 not
 * lower (0.793 either way).
 */
/**
 * A complaint is found from log-odds this much lower in a bug report
 * (`reportsBug` in `reporting-posts.ts`: its template, or what it attaches,
 * "Minimal repro attached", "Logs attached", "same behaviour"). The
 * labelling rules call a calm bug report a complaint, and every labelled
 * set does, the tune posts too; on a field it never saw the complaint model
 * reads the report's plain words ("segfaults when scheduling…", "DNS
 * queries time out until I toggle…") just under its cut. Chosen on the
 * development sets (1 to 3 tried; at 2 the everyday and app categories'
 * complaint F1 0.697 → 0.703 and 0.626 → 0.632, nothing else moved) with
 * the holdout of rounds 1 and 2 unchanged.
 */
const bugReportComplaintAllowance = 2;

/**
 * A complaint is found from log-odds this much lower in a question asking
 * how to mend a fault (`asksToMend` in `intents.ts`: "Any cheap fixes?",
 * "Is there a way to fix this with size-adjust?", "What am I missing?",
 * "Qualcuno sa come togliere il limite?"). The labelling rules call such a
 * help question a complaint; the complaint model reads its calm, technical
 * words ("raises AttributeError", "flickers when the camera moves") on a
 * field it never saw just under its cut. Chosen on the development sets
 * (issue 19's pass 27, 1 to 3 tried; at 2 intents 0.849 → 0.852 on unseen
 * categories, 0.836 → 0.842 on technical ones, 0.807 → 0.810 on everyday
 * ones, apps unchanged) with the holdout of rounds 1 and 2 unchanged
 * (0.798); the tune posts' training scores fall (0.942 → 0.940: they call
 * fewer help questions complaints).
 */
const mendAskedComplaintAllowance = 2;

const faultToldAllowances: Readonly<Record<string, number>> = { 'worse-since': 2, lacks: 2, 'fault-question': 0.5 };
/**
 * Stance cues (`stance-cues.ts`) that tell of a fault: something came back,
 * broke, was sent back, cost more, kept the writer waiting, gave less than
 * expected, was too much, got worse or lacks something. A question that
 * complains is not among them: calm bug reports ask it too.
 */
const faultCues = ['again', 'broke', 'sent-back', 'price-rise', 'kept-waiting', 'expected-more', 'too-much', 'worse-since', 'lacks'];
const complaintColumn = learnedIntents.indexOf('complaint');
const praiseColumn = learnedIntents.indexOf('praise');

export function loadOpinionModels(): LoadedOpinionModels {
  return foldOpinionModels(JSON.parse(readFileSync(opinionModelsPath, 'utf8')) as OpinionModels);
}

export function foldOpinionModels(models: OpinionModels): LoadedOpinionModels {
  if (models.unfamiliarSentiment.classes.join() !== models.sentiment.classes.join()) throw new Error('the two sentiment models order their classes otherwise');
  const rows = new Map<string, number>();
  for (const model of [models.sentiment, ...Object.values(models.intents), models.unfamiliarSentiment]) {
    for (const name of Object.keys(model.weights)) if (!rows.has(name)) rows.set(name, rows.size * width);
  }
  const weights = new Float64Array(rows.size * width);
  for (const [name, values] of Object.entries(models.sentiment.weights)) weights.set(values, rows.get(name)!);
  for (const [name, values] of Object.entries(models.unfamiliarSentiment.weights)) weights.set(values, rows.get(name)! + unfamiliarColumn);
  const bias = new Float64Array(width);
  bias.set(models.sentiment.bias);
  bias.set(models.unfamiliarSentiment.bias, unfamiliarColumn);
  learnedIntents.forEach((intent, i) => {
    const model = models.intents[intent];
    const [no, yes] = [model.classes.indexOf('no'), model.classes.indexOf('yes')];
    bias[3 + i] = model.bias[yes] - model.bias[no];
    for (const [name, values] of Object.entries(model.weights)) weights[rows.get(name)! + 3 + i] = values[yes] - values[no];
  });
  const faultToldRows = new Map<number, number>();
  for (const [cue, allowance] of Object.entries(faultToldAllowances)) {
    const row = rows.get(`cue:${cue}`);
    if (row !== undefined) faultToldRows.set(row, allowance);
  }
  const faultCueRows = new Set(faultCues.flatMap((cue) => rows.get(`cue:${cue}`) ?? []));
  return { sentimentClasses: models.sentiment.classes as Sentiment[], bias, weights, vocabulary: vocabularyOf(rows), faultToldRows, faultCueRows };
}

function vocabularyOf(rows: ReadonlyMap<string, number>): FeatureVocabulary {
  const words = new Map<string, { row: number | undefined; pairs: Map<string, number> | undefined }>();
  const entryOf = (word: string) => {
    let entry = words.get(word);
    if (!entry) {
      entry = { row: undefined, pairs: undefined };
      words.set(word, entry);
    }
    return entry;
  };
  for (const [name, row] of rows) {
    if (name.startsWith('w:')) entryOf(name.slice(2)).row = row;
    if (!name.startsWith('b:')) continue;
    const space = name.indexOf(' ');
    const entry = entryOf(name.slice(2, space));
    entry.pairs ??= new Map();
    entry.pairs.set(name.slice(space + 1), row);
  }
  return { rows, words };
}

/** What the classifier knows of a post besides its features: whether it is about the tracked sense, and whether it marks irony. */
export interface PostReading {
  relevant: boolean;
  /** A sentence marks irony (`SentimentReading.ironic`). */
  ironic: boolean;
  /** Praise conceded before a turn that brings none (`concedesPraise`). */
  concedesPraise: boolean;
  /** Distinct products the post names (`IntentEvidence.productsNamed`). */
  productsNamed: number;
  /** Praise said as the want of a fault (`SentimentReading.understatesPraise`). */
  understatesPraise: boolean;
  /** A curt closing sentence of praise after a body that blames and praises nothing (`SentimentReading.curtPraiseAfterBlame`). */
  curtPraiseAfterBlame: boolean;
  /** A closing sentence of praise said as an afterthought after a body that praises nothing (`SentimentReading.praisesAsAfterthought`); unless told, none is. */
  praisesAsAfterthought?: boolean;
  /**
   * One product set beside another in words the comparison rules leave out (`saysComparison`), by a comparative beside
   * another name (`comparesWithAnotherName`), or by the writer moving between the tracked product and another
   * (`trackedMove`: 21 of the 22 such posts of the development sets that name the other are comparisons, the last a blog title).
   */
  saysComparison: boolean;
  /** A bug report (`reportsBug`). */
  reportsBug: boolean;
  /** A fault conceded before a turn that brings praise ("Pricey, but my back is grateful", `concedesFault`); unless told, none is. */
  concedesFault?: boolean;
  /** A question asking how to mend a fault (`asksToMend`); unless told, none is asked. */
  asksToMend?: boolean;
  /** A question asking whether the fault is shared (`asksWhetherShared`); unless told, none is asked. */
  asksWhetherShared?: boolean;
  /** The post, about the tracked sense, leaves the tracked product for another (`trackedMove`); unless told, it does not. */
  leavesTracked?: boolean;
  /** The post, about the tracked sense, has the writer move to the tracked product from another (`trackedMove`); unless told, it does not. */
  joinsTracked?: boolean;
  /** The post, about the tracked sense, has another product win a comparison with it (`comparisonWinner`); unless told, it does not. */
  losesComparison?: boolean;
  /** The post, about the tracked sense, has the tracked product win a comparison (`comparisonWinner`); unless told, it does not. */
  winsComparison?: boolean;
  /** The post closes on a sentence that only says the writer left or is disappointed (`closesOnVerdict`); unless told, it does not. */
  closesOnVerdict?: boolean;
}

/**
 * The post's sentiment (the most probable class, or negative where the post
 * marks irony or is a plain complaint read as neutral) and intents: `question` from the rules, each learned intent
 * where its model finds it more likely than not (log-odds above its cut in
 * `intentCuts`), shifted by the post's stance and whether it is about the
 * tracked sense, and for buy intent by whether the rules find it too.
 */
export function readOpinionsOf(
  models: LoadedOpinionModels,
  features: SentimentFeatures,
  ruleIntents: readonly Intent[],
  relevant: boolean,
  // Features hold neither the turn of a sentence, nor the names of products, nor praise said as the want of a fault, nor
  // the comparisons the rules leave out, nor where a curt word of praise closes: unless told, a post concedes nothing,
  // names none, understates nothing, weighs nothing and closes on no curt praise.
  form: Omit<PostReading, 'relevant' | 'ironic'> = { concedesPraise: false, productsNamed: 0, understatesPraise: false, saysComparison: false, reportsBug: false, curtPraiseAfterBlame: false },
): { sentiment: Sentiment; intents: Intent[] } {
  const rows: FeatureRows = new Map();
  let words = 0;
  let knownWords = 0;
  for (const [name, value] of features) {
    const row = models.vocabulary.rows.get(name);
    if (name.startsWith('w:')) {
      words++;
      if (row !== undefined) knownWords++;
    }
    if (row !== undefined) rows.set(row, value);
  }
  return readOpinionsOfRows(models, { rows, words, knownWords }, ruleIntents, { relevant, ironic: features.has('irony'), ...form });
}

/** How much the post's stance moves an intent's cut: complaints come easier in a negative post and harder in a positive one, praise harder in a negative post and easier in a positive one. */
function stanceShift(intent: LearnedIntent, sentiment: Sentiment, relevant: boolean): number {
  if (sentiment === 'negative') return intent === 'complaint' ? -negativeStanceComplaintAllowance : intent === 'praise' ? negativeStancePraiseMargin : 0;
  if (sentiment === 'positive' && intent === 'praise') return -(relevant ? positiveStancePraiseAllowance.trackedSense : positiveStancePraiseAllowance.otherSense);
  if (sentiment === 'positive' && intent === 'complaint') return positiveStanceComplaintMargin;
  return 0;
}

/**
 * How much the form of a post lowers an intent's cut: buy intent the rules
 * find too, conceded praise, a complaint after it, where a fault is told or
 * in sarcasm, a comparison of two named products or said in words the rules
 * leave out.
 */
function formAllowance(intent: LearnedIntent, ruleIntents: readonly Intent[], form: Omit<PostReading, 'relevant' | 'understatesPraise' | 'curtPraiseAfterBlame' | 'praisesAsAfterthought'>, faultTold: number): number {
  if (intent === 'buy_intent') return ruleIntents.includes(intent) || asksToChoose(ruleIntents) ? ruleFoundBuyingAllowance : 0;
  if (intent === 'praise') return form.concedesPraise && !form.ironic ? concededPraiseAllowance : 0;
  if (intent === 'complaint') return (form.concedesPraise ? concededPraiseComplaintAllowance : 0) + faultTold + (form.reportsBug ? bugReportComplaintAllowance : 0) + (form.ironic ? ironicComplaintAllowance : 0) + (form.asksToMend ? mendAskedComplaintAllowance : 0);
  if (intent === 'comparison') {
    return (form.productsNamed >= 2 && ruleIntents.includes(intent) ? twoProductsComparisonAllowance : 0) + (form.saysComparison ? comparisonSaidAllowance : 0);
  }
  return 0;
}

/**
 * The stance the sentiment columns from `column` on read (see `readOpinionsOfRows`), made negative where the post says
 * so (`saidNegative`), or where they read neutral and `negativeIfNeutral`. A function of its own, not a closure: tsx
 * names every closure as it is made, and this one was made for every post.
 */
function stanceIn(models: LoadedOpinionModels, scores: Float64Array, column: number, saidNegative: boolean, negativeIfNeutral: boolean): Sentiment {
  let best = 0;
  for (let c = 1; c < 3; c++) if (scores[column + c] > scores[column + best]) best = c;
  const read = models.sentimentClasses[best];
  const plainComplaint = read === 'neutral' && scores[3 + complaintColumn] > neutralComplaintLogOdds && scores[3 + praiseColumn] < intentCuts.praise;
  return saidNegative || plainComplaint || (negativeIfNeutral && read === 'neutral') ? 'negative' : read;
}

function hasFaultCue(models: LoadedOpinionModels, rows: FeatureRows): boolean {
  for (const row of models.faultCueRows) if (rows.has(row)) return true;
  return false;
}

/** `readOpinionsOf` for features already read as rows of the weight table (`featureRows`). */
export function readOpinionsOfRows(
  models: LoadedOpinionModels,
  { rows, words, knownWords }: PostRows,
  ruleIntents: readonly Intent[],
  { relevant, ironic, concedesPraise, productsNamed, understatesPraise, saysComparison, reportsBug, curtPraiseAfterBlame, praisesAsAfterthought = false, concedesFault = false, asksToMend = false, asksWhetherShared = false, leavesTracked = false, joinsTracked = false, losesComparison = false, winsComparison = false, closesOnVerdict = false }: PostReading,
): { sentiment: Sentiment; intents: Intent[] } {
  const scores = new Float64Array(models.bias);
  const weights = models.weights;
  for (const [row, value] of rows) {
    for (let c = 0; c < width; c++) scores[c] += weights[row + c] * value;
  }
  // Irony a post marks ("/s", "thanks for nothing", "Great, another…", "…Touching.") is said against what it names: of 51
  // such posts in the training posts, the tune posts and the development set, 50 are labelled negative. The model, where
  // the marked sentence holds no praise word to turn, often leaves them neutral. So it does a question asking whether a
  // fault is shared ("¿Soy yo o Halide tarda cuatro segundos…?"), whose words the models read as a calm question's:
  // taken as negative where read neutral, it also finds the complaint from the negative stance's lower cut. Chosen on the
  // development sets (sentiment up a post each on technical, everyday and app categories, none lower).
  // A post closing on a sentence that only says the writer left ("…Een gratis herinneringsapp doet hetzelfde.
  // Opgezegd.", "…Returning them.", `closesOnVerdict`) is negative whatever its body weighed: technical categories'
  // sentiment 79.4% → 80.0%, apps' 75.8% → 76.1%, the others unchanged. So is one closing on a word of disappointment
  // ("…Jammer.", "…Disappointing.", issue 19's pass 26): everyday categories' 83.5% → 84.2%, the others unchanged.
  const saidNegative = ironic || closesOnVerdict;
  const stance = stanceIn(models, scores, 0, saidNegative, asksWhetherShared);
  // A post with no word at all (emoji, a link) is no more of an unseen field than of a known one. The complaint's
  // allowance for the stance was chosen on the word model's reading, and keeps it; praise, the positive stance said of
  // something, takes the stance from the model the sentiment comes from, which on a field the word model never saw
  // reads it better (praise recall on the development sets of unseen categories 0.70 → 0.74, of apps 0.52 → 0.56).
  // Both keep the stance as read where praise conceded before a
  // turn, beside a stance cue of a fault ("Bel écran, bonnes couleurs, mais il s'éteint… Retour au magasin",
  // "bellissima, ma … manca la versione web"), makes the post negative: the fault is the writer's point, whatever the
  // praise weighs, but the praise is still said (the labelling rules call the positive half of a mixed post praise).
  const concededFault = concedesPraise && hasFaultCue(models, rows);
  const read = words > 0 && words - knownWords > unfamiliarWordShare * words ? stanceIn(models, scores, unfamiliarColumn, saidNegative, asksWhetherShared) : stance;
  // Praise said as the want of a fault ("Ten years, maybe two outages. Can't complain.", "Rien à redire.") is the post's
  // verdict, whatever its words weighed, unless the post marks irony. The intents keep the stance as read here too.
  // A curt closing word of praise after a body that blames, praises nothing and tells a fault by a stance cue ("The
  // igniter died after 14 months and they want $60 for the part. Nice.") is sarcasm: of the 13 such posts of the
  // training corpora, the tune posts and the development sets, 10 are negative. Without the fault cue the sets part ways
  // (23 negative, 13 positive: a fault put right, "…card replaced next day. Honestly impressed."), and dev unseen lost three.
  // A closer of praise said as an afterthought ("Returned the Fellow Opus. Grind was uneven below 10… Nice looking box,
  // though.") leaves the body as the verdict: apps' sentiment 77.4% → 78.1%, the other sets, the tune posts and the
  // holdout of rounds 1 and 2 unchanged (a body that also blames, as `curtPraiseAfterBlame` asks, moved nothing: "$7 for
  // a lemonade that was 80% ice…" blames in no lexicon word).
  // Its mirror, a fault conceded before a turn that brings praise ("Hate to admit it, but Premiere's text-based editing cut
  // my podcast edit time in half", `concedesFault`), read negative, is positive: the praise is the writer's point. The
  // three such posts of the development sets are positive (pass 27: technical categories' sentiment 82.6% → 82.9%, the
  // rest and the holdout of rounds 1 and 2 unchanged); made positive where read neutral too, two tune posts went wrong.
  const verdict = understatesPraise && !ironic ? 'positive' : read === 'positive' && (concededFault || praisesAsAfterthought || (curtPraiseAfterBlame && hasFaultCue(models, rows))) ? 'negative' : concedesFault && !ironic && read === 'negative' ? 'positive' : read;
  // A post leaving the tracked product for another ("Switched from Monarch to Tallyroot… Tallyroot just gets it right")
  // reads as praise, of the other one; its stance toward the product tracked is the leaving, and its intents are read
  // from that stance too: the leaving is the complaint, and the praise of the other is no praise of the product tracked
  // (all six such posts of the development sets are complaints, five without praise). Chosen on the development sets:
  // everyday categories' intents 0.760 → 0.767 (complaint F1 0.722 → 0.740), the others and the tune posts unchanged.
  // Its mirror, a post moving to the tracked product ("Tried the store brand for a month, went back to Tide. Whites were
  // grey by week three."), tells the faults of the product left: read negative, it is positive. A move is the stance
  // said whole, so the leaving is always the complaint and the coming the praise: all 12 posts of the development sets
  // leaving the tracked product (`trackedMove`) are complaints, 10 of the 11 moving to it praise (the last a blog
  // title, neutral). Leaving made negative where read neutral too cost the holdout of rounds 1 and 2 a post.
  // A comparison the tracked product loses ("The Shimano brakes are quieter and the hoods fit my hands better", "Neovim
  // with nvim-dap is miles ahead", `comparisonWinner`) is negative, a complaint and a comparison, however it praises the
  // winner: the labelling rules of rounds 9 and 10 say so, and 7 of the 8 such posts of the development sets that ask
  // nothing are (the eighth praises the tracked brand's own model by its name, "Aiden"). A question read neutral
  // ("Thunderbird or eM Client? We'd pay for eM Client if it's clearly better") weighs the two before choosing: 3 of 3
  // are neutral. Technical categories' sentiment 81.0% → 81.3%, everyday 82.3% → 83.5%, apps 76.8% → 76.5%; the holdout
  // of rounds 1 and 2 and the tune posts unchanged. The mirror, one the tracked product wins ("Kayak's hacker fares
  // still beat Google Flights for me"), makes a post read neutral that asks nothing positive: apps 77.1% → 77.4%, a
  // tune post lost ("…Apollo was far easier to teach", labelled neutral), that holdout unchanged. Read negative, such
  // a post mostly tells the faults it came through, and stays.
  const lostComparison = losesComparison && !(verdict === 'neutral' && ruleIntents.includes('question'));
  const wonComparison = winsComparison && verdict === 'neutral' && !ruleIntents.includes('question');
  const sentiment = (leavesTracked && verdict === 'positive') || lostComparison ? 'negative' : (joinsTracked && verdict === 'negative') || wonComparison ? 'positive' : verdict;
  let faultTold = 0;
  for (const [row, allowance] of models.faultToldRows) if (rows.has(row)) faultTold = Math.max(faultTold, allowance);
  const found: Intent[] = ruleIntents.includes('question') ? ['question'] : [];
  const moveStance = leavesTracked || lostComparison ? 'negative' : joinsTracked || wonComparison ? 'positive' : undefined;
  // Praise conceded before a turn is said, whatever the comparison after the turn decides ("Sway is stable, sure, but
  // next to Hyprland…"; the labelling rules call it praise): it keeps the stance as read (pass 27: technical categories'
  // intents 0.843 → 0.845, the rest unchanged).
  const praiseStance = concedesPraise ? read : moveStance ?? read;
  learnedIntents.forEach((intent, i) => {
    const allowance = formAllowance(intent, ruleIntents, { ironic, concedesPraise, productsNamed, saysComparison, reportsBug, asksToMend }, faultTold);
    // The praise of a post leaving the tracked product is the other's, however sure the praise model is: 1 of the 13
    // leaving posts of the development sets is labelled praise, where 6 were found (issue 19's pass 27: everyday
    // categories' intents 0.802 → 0.807, apps 0.758 → 0.760, unseen 0.851 → 0.849, rounds 1 and 2 unchanged).
    if (leavesTracked && intent === 'praise') return;
    // So is the praise of a post read as irony ("…Génial.", "…Heerlijk.", "Love wireless shifting.") or whose praise is
    // an afterthought to a body that praises nothing ("…Nice view though."): its words of praise are thrown at what the
    // body told, or leave it standing (pass 27: everyday categories' intents 0.810 → 0.811, apps 0.763 → 0.766, the
    // holdout of rounds 1 and 2 0.798 → 0.799, technical categories 0.842 → 0.840, "…binnen tien minuten alles
    // werkend. Heerlijk.", sincere).
    if ((ironic || praisesAsAfterthought) && intent === 'praise') return;
    if (((leavesTracked || lostComparison) && intent === 'complaint') || (lostComparison && intent === 'comparison') || (joinsTracked && intent === 'praise')) found.push(intent);
    else if (scores[3 + i] > intentCuts[intent] + stanceShift(intent, intent === 'praise' ? praiseStance : moveStance ?? stance, relevant) - allowance) found.push(intent);
  });
  return { sentiment, intents: orderedIntents(found) };
}
