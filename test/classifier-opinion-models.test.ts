import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { loadPostReaders, readOpinion } from '../classifier/built-in-classifier.ts';
import { detectLanguage } from '../classifier/language.ts';
import { asksToMend, comparesWithAnotherName, comparisonWinner, saysComparison } from '../classifier/intents.ts';
import { type LogisticModel, trainLogisticModel } from '../classifier/logistic-regression.ts';
import { foldOpinionModels, loadOpinionModels, type OpinionModels, opinionModelsPath, readOpinionsOf } from '../classifier/opinion-models.ts';
import { featureRows, sentimentFeatures } from '../classifier/sentiment-features.ts';
import { concedesFault, concedesPraise, readSentiment } from '../classifier/sentiment.ts';
import { trainCommittedOpinionModels } from '../classifier/train-opinion-models.ts';
import { readEvalSet } from '../classifier/classifier-eval-set.ts';
import { reportsBug } from '../classifier/reporting-posts.ts';
import { asksWhetherShared } from '../classifier/stance-cues.ts';
import { closesOnVerdict, trackedMove } from '../classifier/leaving-posts.ts';
import { wholeWordPattern } from '../classifier/sense-profile.ts';

const noWords: ReadonlySet<string> = new Set();

async function featuresOf(text: string, ignoredWords: ReadonlySet<string> = noWords) {
  const loaded = await loadPostReaders();
  const language = detectLanguage(loaded.languageDetector, text);
  const { evidence } = readOpinion(loaded, { text, platform: 'x' }, { language, ignoredWords, productsNamed: 0, automated: false });
  return sentimentFeatures(evidence);
}

describe('sentiment features', () => {
  it('marks the words a negation governs, up to the end of the clause', async () => {
    const features = await featuresOf("It isn't fast or stable, but the docs are good.");
    expect(features.has('w:¬fast')).toBe(true);
    expect(features.has('w:¬stable')).toBe(true);
    expect(features.has('w:fast')).toBe(false);
    expect(features.has('w:good')).toBe(true);
    expect(features.has('w:¬good')).toBe(false);
  });

  it('leaves out the keyword’s own words and code identifiers', async () => {
    const features = await featuresOf('Bolt returned BAD_USER_INPUT and `kill_switch` again', new Set(['bolt']));
    const words = [...features.keys()].filter((name) => name.startsWith('w:'));
    expect(words).not.toContain('w:bolt');
    expect(words).not.toContain('w:bad');
    expect(words).not.toContain('w:kill');
    expect(words).toContain('w:returned');
  });

  it('carries the lexicon’s reading and the kind of post', async () => {
    const features = await featuresOf('We are hiring! Absolutely love this team.');
    expect(features.get('lex:praise')).toBeGreaterThan(0);
    expect(features.get('kind:reporting')).toBe(1);
    expect(features.get('kind:exclamation')).toBe(1);
  });

  it('carries where a post comes down: its last sentence, and the clause after its last contrast word', async () => {
    const turned = await featuresOf('Way too expensive for a cooler, but it is brilliant.');
    expect(turned.get('lex:blame')).toBeGreaterThan(0);
    expect(turned.get('lex:turn-praise')).toBeGreaterThan(0);
    expect(turned.has('lex:turn-blame')).toBe(false);
    const closed = await featuresOf('The hotel was lovely. The flight home was awful.');
    expect(closed.get('lex:closing-blame')).toBeGreaterThan(0);
    expect(closed.has('lex:closing-praise')).toBe(false);
    expect(closed.has('lex:turn-praise') || closed.has('lex:turn-blame')).toBe(false);
  });

  it('names the form of a post weighing two options or telling its own problem, in any field', async () => {
    const forms = async (text: string) => [...(await featuresOf(text)).keys()].filter((name) => name.startsWith('form:')).sort();
    expect(await forms('Moved the whole studio from Bernina to Janome last spring.')).toEqual(['form:moved-from-to']);
    expect(await forms('The Flexispot is steadier than the Uplift at full height.')).toEqual(['form:than']);
    expect(await forms('Babbel vs Duolingo for Spanish verbs')).toEqual(['form:versus']);
    expect(await forms('We picked Tally over Typeform for the club forms.')).toEqual(['form:preferred-over']);
    expect(await forms('Der neue Tarif ist im Vergleich zum alten teuer.')).toEqual(['form:compared']);
    expect(await forms('Great chair. We were charged twice for it and support never answered.')).toEqual(['form:first-person-problem']);
    expect(await forms('Great chair. It was charged twice, says the shop.')).toEqual([]);
  });

  it('read as the models’ weight-table rows are the named features with a row, in the same order and with the same values', async () => {
    const loaded = await loadPostReaders();
    const { vocabulary } = loadOpinionModels();
    const ignoredWords = new Set(['notion']);
    for (const post of (await readEvalSet()).slice(0, 400)) {
      const language = detectLanguage(loaded.languageDetector, post.text);
      const { evidence } = readOpinion(loaded, { text: post.text, platform: post.platform }, { language, ignoredWords, productsNamed: 0, automated: false });
      const named = [...sentimentFeatures(evidence)].flatMap(([name, value]) => {
        const row = vocabulary.rows.get(name);
        return row === undefined ? [] : [[row, value]];
      });
      const read = featureRows(evidence, vocabulary);
      expect([...read.rows], post.text).toEqual(named);
      // Both readings count the same distinct words, and the same known ones, for the sentiment of unfamiliar posts.
      const words = [...sentimentFeatures(evidence).keys()].filter((name) => name.startsWith('w:'));
      expect([read.words, read.knownWords], post.text).toEqual([words.length, words.filter((name) => vocabulary.rows.has(name)).length]);
    }
  });
});

/** Models whose sentiment of unfamiliar posts is their word model's. */
function withOneSentimentModel(models: Omit<OpinionModels, 'unfamiliarSentiment'>): OpinionModels {
  return { ...models, unfamiliarSentiment: models.sentiment };
}

/**
 * Folded models whose sentiment reads the given weights and that find praise
 * at log-odds 1 and no other learned intent, for the turns of a positive
 * post's sentiment.
 */
function praisingModels(sentimentWeights: Record<string, number[]>) {
  const yesNo = (bias: number): LogisticModel => ({ classes: ['no', 'yes'], bias: [0, bias], weights: {} });
  return foldOpinionModels(withOneSentimentModel({
    sentiment: { classes: ['positive', 'negative', 'neutral'], bias: [0, 0, 0], weights: sentimentWeights },
    intents: { buy_intent: yesNo(-5), complaint: yesNo(-5), praise: yesNo(1), comparison: yesNo(-5) },
    training: { sentimentPosts: 0, intentPosts: 0, epochs: 0, l2: 0, minCount: 0 },
  }));
}

/** The most probable class of a bag of words: argmax of bias plus the words' weights. */
function predictClass(model: LogisticModel, text: string): string {
  const scores = [...model.bias];
  for (const word of text.split(' ')) model.weights[`w:${word}`]?.forEach((weight, c) => (scores[c] += weight));
  return model.classes[scores.indexOf(Math.max(...scores))];
}

describe('opinion models', () => {
  const toy = (text: string, label: string) => ({ features: new Map(text.split(' ').map((word) => [`w:${word}`, 1] as const)), label });
  const classes = ['negative', 'neutral', 'positive'];
  const examples = [
    toy('love it so much', 'positive'),
    toy('love the new editor', 'positive'),
    toy('great support love it', 'positive'),
    toy('hate the new pricing', 'negative'),
    toy('hate it so much', 'negative'),
    toy('awful support hate it', 'negative'),
    toy('how do i export', 'neutral'),
    toy('how do i invite people', 'neutral'),
    toy('new release today', 'neutral'),
  ];

  it('learn from labelled posts and read unseen ones by their words', () => {
    const model = trainLogisticModel(examples, classes, { l2: 0.001, epochs: 300, learningRate: 1, minCount: 2 });
    const read = (text: string) => predictClass(model, text);
    expect(read('i love it')).toBe('positive');
    expect(read('i hate it')).toBe('negative');
    expect(read('how do i')).toBe('neutral');
    // Seen in one post only, below minCount: no weight, so no opinion.
    expect(model.weights['w:awful']).toBeUndefined();
  });

  it('give the same model for the same posts, and refuse a label outside their classes', () => {
    const options = { l2: 0.001, epochs: 50, learningRate: 1, minCount: 1 };
    expect(JSON.stringify(trainLogisticModel(examples, classes, options))).toBe(JSON.stringify(trainLogisticModel(examples, classes, options)));
    expect(() => trainLogisticModel([toy('meh', 'mixed')], classes, options)).toThrow(/mixed/);
  });

  it('read sentiment and intents of posts written for this test, outside their training data', async () => {
    const models = loadOpinionModels();
    const read = async (text: string) => readOpinionsOf(models, await featuresOf(text), text.endsWith('?') ? ['question'] : [], true);
    expect(await read('Their support ghosted me for three weeks and then closed the ticket without a word.')).toMatchObject({
      sentiment: 'negative',
      intents: expect.arrayContaining(['complaint']),
    });
    expect(await read('Set it up in five minutes and it has worked flawlessly ever since. Thank you!')).toMatchObject({
      sentiment: 'positive',
      intents: ['praise'],
    });
    expect(await read('We are outgrowing Airtable. Is Baserow or NocoDB the better pick for a team of 30?')).toMatchObject({
      sentiment: 'neutral',
      intents: expect.arrayContaining(['buy_intent', 'question', 'comparison']),
    });
    expect(await read('How do I export my workspace to CSV?')).toEqual({ sentiment: 'neutral', intents: ['question'] });
  });

  it('read a positive post about the tracked sense as praise where the praise model alone would not', async () => {
    const models = loadOpinionModels();
    // Praise in plain words the praise model scores below its cut (log-odds about -1.4 and -1.3): the positive stance says it.
    for (const text of ['The lantern lasted the whole camping week on one charge. Solid.', 'Two years on, the hiking boots still keep my feet dry. Glad I bought them.']) {
      const features = await featuresOf(text);
      expect(readOpinionsOf(models, features, [], true), text).toEqual({ sentiment: 'positive', intents: ['praise'] });
      expect(readOpinionsOf(models, features, [], false), text).toEqual({ sentiment: 'positive', intents: [] });
    }
    // A neutral or negative post gets no praise from the allowance.
    expect(readOpinionsOf(models, await featuresOf('The lantern ships with a USB-C cable and a carabiner.'), [], true).intents).toEqual([]);
  });

  it('read sarcasm by the stance of the whole post: praise words thrown at a problem count against', async () => {
    const reading = (text: string) => readSentiment(text, 'en', noWords);
    const sarcastic = reading('Great, another outage on a Monday morning.');
    expect(sarcastic.ironic).toBe(true);
    expect(sarcastic.cues.map((cue) => [cue.cue, cue.score])).toEqual([['outage', -2], ['great', -3]]);
    expect(reading('Great release, the new editor is fast.')).toMatchObject({ ironic: false, cues: [{ cue: 'fast', score: 1 }, { cue: 'great', score: 3 }] });
    const models = loadOpinionModels();
    // Praise for what nobody enjoys is the same sarcasm; praise for how a thing works is praise.
    expect(reading('Love waiting 10 minutes for a build.').ironic).toBe(true);
    expect(reading("J'adore attendre quarante minutes au téléphone.").ironic).toBe(true);
    expect(reading('Nothing says quality like a handle that snaps in week two.').ironic).toBe(true);
    expect(reading('I love how fast it syncs.').ironic).toBe(false);
    for (const text of ['Great, another outage on a Monday morning.', 'Oh great, the sync ate my notes again 🙃', 'Thanks for nothing: the update wiped my settings.', 'Love waiting 10 minutes for a build.']) {
      expect(readOpinionsOf(models, await featuresOf(text), [], true).sentiment, text).toBe('negative');
    }
  });

  it('count a few words of praise in scare quotes against, and read a longer quotation as it is', () => {
    const scored = (text: string, language: string) => readSentiment(text, language, noWords).cues.map((cue) => [cue.cue, cue.score]);
    expect(scored('The listing said "lovely garden view". It is a car park.', 'en')).toEqual([['lovely', -3]]);
    expect(scored('Le vendeur parlait d’une « superbe affaire ». Trois pannes en un mois.', 'fr')).toContainEqual(['super', -3]);
    expect(scored('The listing said the flat has a lovely garden view.', 'en')).toEqual([['lovely', 3]]);
    expect(scored('The reviewer wrote "the flat has a lovely garden view and friendly neighbours" and she was right.', 'en')).toContainEqual(['lovely', 3]);
  });

  it('read a post the sentiment model leaves neutral as negative where the complaint model is sure of a complaint and finds no praise', () => {
    // Two words: "stalled" leans neutral for the sentiment model and is a sure complaint; "manual" is neither.
    const yesNo = (stalled: number, manual: number): LogisticModel => ({ classes: ['no', 'yes'], bias: [0, -1], weights: { 'w:stalled': [0, stalled], 'w:manual': [0, manual] } });
    const models = foldOpinionModels(withOneSentimentModel({
      sentiment: { classes: ['positive', 'negative', 'neutral'], bias: [0, 0, 0.5], weights: { 'w:stalled': [0, 0.2, 0], 'w:manual': [0, 0, 0] } },
      intents: { buy_intent: yesNo(0, 0), complaint: yesNo(3, 0), praise: yesNo(0, 0), comparison: yesNo(0, 0) },
      training: { sentimentPosts: 0, intentPosts: 0, epochs: 0, l2: 0, minCount: 0 },
    }));
    expect(readOpinionsOf(models, new Map([['w:stalled', 1]]), [], true)).toEqual({ sentiment: 'negative', intents: ['complaint'] });
    expect(readOpinionsOf(models, new Map([['w:manual', 1]]), [], true)).toEqual({ sentiment: 'neutral', intents: [] });
  });

  it('read the sentiment of a post most of whose words the models never learned with the model trained without words, and its intents as before', () => {
    // The word model reads "known" as neutral and the lexicon's blame faintly; the unfamiliar posts' model weighs the blame.
    const yesNo = (bias: number): LogisticModel => ({ classes: ['no', 'yes'], bias: [0, bias], weights: {} });
    const models = foldOpinionModels({
      sentiment: {
        classes: ['positive', 'negative', 'neutral'],
        bias: [0, 0, 1],
        weights: { 'w:known': [0, 0, 0.5], 'w:also': [0, 0, 0], 'w:seen': [0, 0, 0], 'w:before': [0, 0, 0], 'lex:blame': [0, 0.5, 0] },
      },
      unfamiliarSentiment: { classes: ['positive', 'negative', 'neutral'], bias: [0, 0, 1], weights: { 'lex:blame': [0, 3, 0] } },
      // A complaint at log-odds -1: found in a post read negative (cut -0.5 - 1.5), not in a neutral one (cut -0.5).
      intents: { buy_intent: yesNo(-5), complaint: yesNo(-1), praise: yesNo(-5), comparison: yesNo(-5) },
      training: { sentimentPosts: 0, intentPosts: 0, epochs: 0, l2: 0, minCount: 0 },
    });
    const familiar = new Map([['w:known', 1], ['lex:blame', 1]]);
    expect(readOpinionsOf(models, familiar, [], true)).toEqual({ sentiment: 'neutral', intents: [] });
    const unfamiliar = new Map([['w:known', 1], ['w:zorbing', 1], ['w:flumpy', 1], ['lex:blame', 1]]);
    expect(readOpinionsOf(models, unfamiliar, [], true)).toEqual({ sentiment: 'negative', intents: [] });
    // One unknown word of five is no unfamiliar field.
    const mostlyKnown = new Map([['w:known', 1], ['w:also', 1], ['w:seen', 1], ['w:before', 1], ['w:zorbing', 1], ['lex:blame', 1]]);
    expect(readOpinionsOf(models, mostlyKnown, [], true).sentiment).toBe('neutral');
  });

  it('read the praise of a post most of whose words the models never learned by the stance of the model its sentiment comes from, and its complaints by the word model', () => {
    // The word model reads the post as neutral, the unfamiliar posts' model as positive from the lexicon's praise.
    const yesNo = (bias: number): LogisticModel => ({ classes: ['no', 'yes'], bias: [0, bias], weights: {} });
    const models = foldOpinionModels({
      sentiment: { classes: ['positive', 'negative', 'neutral'], bias: [0, 0, 1], weights: { 'w:known': [0, 0, 0.5], 'lex:praise': [0.5, 0, 0] } },
      unfamiliarSentiment: { classes: ['positive', 'negative', 'neutral'], bias: [0, 0, 1], weights: { 'lex:praise': [3, 0, 0] } },
      // Praise at log-odds -1: found in a positive post about the tracked sense (cut 0 - 2), not in a neutral one (cut 0).
      intents: { buy_intent: yesNo(-5), complaint: yesNo(-5), praise: yesNo(-1), comparison: yesNo(-5) },
      training: { sentimentPosts: 0, intentPosts: 0, epochs: 0, l2: 0, minCount: 0 },
    });
    expect(readOpinionsOf(models, new Map([['w:known', 1], ['lex:praise', 1]]), [], true)).toEqual({ sentiment: 'neutral', intents: [] });
    expect(readOpinionsOf(models, new Map([['w:known', 1], ['w:zorbing', 1], ['w:flumpy', 1], ['lex:praise', 1]]), [], true)).toEqual({ sentiment: 'positive', intents: ['praise'] });
  });

  it('read buy intent the rules also find, or a question weighing two options, from lower log-odds, and no other intent so', () => {
    // "order" leans to buying and to comparing at the same log-odds (-0.5), under the cut of 0 for both.
    const yesNo = (order: number): LogisticModel => ({ classes: ['no', 'yes'], bias: [0, -1], weights: { 'w:order': [0, order] } });
    const models = foldOpinionModels(withOneSentimentModel({
      sentiment: { classes: ['positive', 'negative', 'neutral'], bias: [0, 0, 1], weights: { 'w:order': [0, 0, 0] } },
      intents: { buy_intent: yesNo(0.5), complaint: yesNo(-5), praise: yesNo(0), comparison: yesNo(0.5) },
      training: { sentimentPosts: 0, intentPosts: 0, epochs: 0, l2: 0, minCount: 0 },
    }));
    const order = new Map([['w:order', 1]]);
    expect(readOpinionsOf(models, order, [], true).intents).toEqual([]);
    expect(readOpinionsOf(models, order, ['buy_intent', 'comparison'], true).intents).toEqual(['buy_intent']);
    // A question weighing two options asks which to adopt: buying from the same lower log-odds, the rules' buying or not.
    expect(readOpinionsOf(models, order, ['question', 'comparison'], true).intents).toEqual(['buy_intent', 'question']);
    expect(readOpinionsOf(models, order, ['question'], true).intents).toEqual(['question']);
  });

  it('read a complaint from lower log-odds after praise conceded before a turn, or where a fault is told, and a comparison where two products are named or it is said in words the rules leave out', () => {
    // Each intent at log-odds -2, under its cut (-0.5 for complaints, 0 for comparisons).
    const yesNo = (bias: number): LogisticModel => ({ classes: ['no', 'yes'], bias: [0, bias], weights: { 'cue:lacks': [0, 0], 'cue:fault-question': [0, 0], 'w:plain': [0, 0] } });
    const models = foldOpinionModels(withOneSentimentModel({
      sentiment: { classes: ['positive', 'negative', 'neutral'], bias: [0, 0, 1], weights: {} },
      intents: { buy_intent: yesNo(-5), complaint: yesNo(-2), praise: yesNo(-5), comparison: yesNo(-1) },
      training: { sentimentPosts: 0, intentPosts: 0, epochs: 0, l2: 0, minCount: 0 },
    }));
    const plain = new Map([['w:plain', 1]]);
    const none = { concedesPraise: false, productsNamed: 0, understatesPraise: false, saysComparison: false, reportsBug: false, curtPraiseAfterBlame: false };
    expect(readOpinionsOf(models, plain, ['comparison'], true, none).intents).toEqual([]);
    expect(readOpinionsOf(models, plain, [], true, { ...none, concedesPraise: true }).intents).toEqual(['complaint']);
    expect(readOpinionsOf(models, new Map([['w:plain', 1], ['cue:lacks', 1]]), [], true, none).intents).toEqual(['complaint']);
    // Sarcasm ("…won't export to PowerPoint. Brilliant.") complains of what it praises: found from log-odds 3.5 lower.
    expect(readOpinionsOf(models, new Map([['w:plain', 1], ['irony', 1]]), [], true, none).intents).toEqual(['complaint']);
    // A bug report ("Minimal repro attached") tells a fault however calm its words.
    expect(readOpinionsOf(models, plain, [], true, { ...none, reportsBug: true }).intents).toEqual(['complaint']);
    // A question that complains lowers the cut by less: not enough at -2.
    expect(readOpinionsOf(models, new Map([['w:plain', 1], ['cue:fault-question', 1]]), [], true, none).intents).toEqual([]);
    // Two products named weigh them where the rules find the comparison too, and only there.
    expect(readOpinionsOf(models, plain, ['comparison'], true, { ...none, productsNamed: 2 }).intents).toEqual(['comparison']);
    expect(readOpinionsOf(models, plain, [], true, { ...none, productsNamed: 2 }).intents).toEqual([]);
    expect(readOpinionsOf(models, plain, ['comparison'], true, { ...none, productsNamed: 1 }).intents).toEqual([]);
    // A comparison said in words the rules leave out (`saysComparison`) is found from log-odds 3 lower, rules or not.
    expect(readOpinionsOf(models, plain, [], true, { ...none, saysComparison: true }).intents).toEqual(['comparison']);
  });

  it('read a question asking whether a fault is shared as negative where the models read it neutral, and find its complaint from the negative stance', () => {
    for (const text of [
      'Is it just me or did the plant ID get worse after the last update?',
      'My strap gave me a rash after three weeks. Is anyone else getting this?',
      '¿Soy yo o cambiaron la fórmula? Mi perro ya no se la come.',
      'Alguém mais com o app apagando episódios sozinho?',
      'Bin ich der Einzige, bei dem die App seit gestern abstürzt?',
      "C'est moi ou l'appli met dix secondes à s'ouvrir ?",
      'Czy tylko u mnie aplikacja nie wysyła powiadomień?',
      'アプリが開かないの、私だけ？',
    ]) expect(asksWhetherShared(text.toLowerCase()), text).toBe(true);
    // Asking others for their experience, or whether they use it, shares no fault.
    for (const text of ['Has anyone tried the new plan? Worth it?', 'Anyone else going to the meetup on Friday?', 'Alguém mais usa o app para podcasts?']) {
      expect(asksWhetherShared(text.toLowerCase()), text).toBe(false);
    }
    // A neutral reading, with the complaint at log-odds -1.5: under its cut of -0.5, over it less the negative stance's 1.5.
    const yesNo = (bias: number): LogisticModel => ({ classes: ['no', 'yes'], bias: [0, bias], weights: { 'w:plain': [0, 0] } });
    const models = foldOpinionModels(withOneSentimentModel({
      sentiment: { classes: ['positive', 'negative', 'neutral'], bias: [0, 0, 1], weights: {} },
      intents: { buy_intent: yesNo(-5), complaint: yesNo(-1.5), praise: yesNo(-5), comparison: yesNo(-5) },
      training: { sentimentPosts: 0, intentPosts: 0, epochs: 0, l2: 0, minCount: 0 },
    }));
    const plain = new Map([['w:plain', 1]]);
    const none = { concedesPraise: false, productsNamed: 0, understatesPraise: false, saysComparison: false, reportsBug: false, curtPraiseAfterBlame: false };
    expect(readOpinionsOf(models, plain, ['question'], true, none)).toEqual({ sentiment: 'neutral', intents: ['question'] });
    expect(readOpinionsOf(models, plain, ['question'], true, { ...none, asksWhetherShared: true })).toEqual({ sentiment: 'negative', intents: ['question', 'complaint'] });
  });

  it('read a post leaving the tracked product for another as negative, its complaint and praise from that stance', () => {
    // The post reads positive (praise of the other product); praise at log-odds 1, complaint at -1.5.
    const yesNo = (bias: number): LogisticModel => ({ classes: ['no', 'yes'], bias: [0, bias], weights: {} });
    const models = foldOpinionModels(withOneSentimentModel({
      sentiment: { classes: ['positive', 'negative', 'neutral'], bias: [0, 0, 0], weights: { 'w:calm': [1, 0, 0] } },
      intents: { buy_intent: yesNo(-5), complaint: yesNo(-1.5), praise: yesNo(1), comparison: yesNo(-5) },
      training: { sentimentPosts: 0, intentPosts: 0, epochs: 0, l2: 0, minCount: 0 },
    }));
    const calm = new Map([['w:calm', 1]]);
    const none = { concedesPraise: false, productsNamed: 0, understatesPraise: false, saysComparison: false, reportsBug: false, curtPraiseAfterBlame: false };
    expect(readOpinionsOf(models, calm, [], true, none)).toEqual({ sentiment: 'positive', intents: ['praise'] });
    expect(readOpinionsOf(models, calm, [], true, { ...none, leavesTracked: true })).toEqual({ sentiment: 'negative', intents: ['complaint'] });
    // However sure the praise model is, the praise of a post leaving the tracked product is the other product's.
    const sure = foldOpinionModels(withOneSentimentModel({
      sentiment: { classes: ['positive', 'negative', 'neutral'], bias: [0, 0, 0], weights: { 'w:calm': [1, 0, 0] } },
      intents: { buy_intent: yesNo(-5), complaint: yesNo(-1.5), praise: yesNo(4), comparison: yesNo(-5) },
      training: { sentimentPosts: 0, intentPosts: 0, epochs: 0, l2: 0, minCount: 0 },
    }));
    expect(readOpinionsOf(sure, calm, [], true, { ...none, leavesTracked: true })).toEqual({ sentiment: 'negative', intents: ['complaint'] });
    // Nor is praise found in a post read as irony, or whose praise is an afterthought to a body that praises nothing.
    expect(readOpinionsOf(sure, calm, [], true, none).intents).toEqual(['praise']);
    expect(readOpinionsOf(sure, new Map([['w:calm', 1], ['irony', 1]]), [], true, none).intents).toEqual(['complaint']);
    expect(readOpinionsOf(sure, calm, [], true, { ...none, praisesAsAfterthought: true })).toEqual({ sentiment: 'negative', intents: [] });
  });

  it('tells which way the writer moves between the tracked product and another, in any language', () => {
    const notion = wholeWordPattern('Notion', true);
    for (const text of [
      'Left Notion for Coda in March, the tables are just faster.',
      'Kept the calendar app, dropped Notion.',
      'Switched the whole office off Notion last spring.',
      'A year of Notion databases and the exports still break. Switched to Obsidian for the plain files.',
      'Drei Jahre Notion, jetzt bin ich zu Obsidian gewechselt.',
      'Na twee jaar Notion overgestapt naar Capacities.',
      'Notionは重すぎる。Obsidianに乗り換えた。',
    ]) expect(trackedMove(text, notion), text).toBe('leaves');
    for (const text of ['Tried Coda for a month, went back to Notion.', 'We moved the team wiki from Confluence to Notion.', 'Me cambié a Notion después de años con Evernote.', 'EvernoteからNotionに移行した。']) {
      expect(trackedMove(text, notion), text).toBe('joins');
    }
    // Imagined, done by someone else, a move between two other products, a home moved, a thing dropped on the floor: no move.
    for (const text of [
      'Going back to Evernote after Notion feels like wading through mud.',
      'After switching the workspace to dark mode, Notion finally looks right.',
      'Switched from Coda to Obsidian for my notes; Notion still runs the team wiki.',
      'We moved to Denver and my Notion setup came along.',
      'Dropped my Notion sticker in the rain, ha.',
      'Notionのメモは便利。CodaからObsidianに移行したい。',
    ]) expect(trackedMove(text, notion), text).toBe(null);
  });

  it('read a complaint in a positive post only from log-odds a margin higher, as praise in a negative one, and in a negative post from log-odds 2 lower; praise in a positive post about the tracked sense from 2.5 lower', () => {
    // Complaint at log-odds 0.2: over its cut of -0.5 in a neutral post, under it plus the margin of 1 in a positive one.
    const yesNo = (bias: number): LogisticModel => ({ classes: ['no', 'yes'], bias: [0, bias], weights: {} });
    const models = foldOpinionModels(withOneSentimentModel({
      sentiment: { classes: ['positive', 'negative', 'neutral'], bias: [0, 0, 0], weights: { 'w:calm': [1, 0, 0], 'w:plain': [0, 0, 1] } },
      intents: { buy_intent: yesNo(-5), complaint: yesNo(0.2), praise: yesNo(-5), comparison: yesNo(-5) },
      training: { sentimentPosts: 0, intentPosts: 0, epochs: 0, l2: 0, minCount: 0 },
    }));
    const none = { concedesPraise: false, productsNamed: 0, understatesPraise: false, saysComparison: false, reportsBug: false, curtPraiseAfterBlame: false };
    expect(readOpinionsOf(models, new Map([['w:plain', 1]]), [], true, none).intents).toEqual(['complaint']);
    expect(readOpinionsOf(models, new Map([['w:calm', 1]]), [], true, none)).toEqual({ sentiment: 'positive', intents: [] });
    // Complaint at log-odds -2.2: under its cut of -0.5 less 1.5, over it less 2, in a negative post.
    const negative = foldOpinionModels(withOneSentimentModel({
      sentiment: { classes: ['positive', 'negative', 'neutral'], bias: [0, 0, 0], weights: { 'w:grey': [0, 1, 0] } },
      intents: { buy_intent: yesNo(-5), complaint: yesNo(-2.2), praise: yesNo(-5), comparison: yesNo(-5) },
      training: { sentimentPosts: 0, intentPosts: 0, epochs: 0, l2: 0, minCount: 0 },
    }));
    expect(readOpinionsOf(negative, new Map([['w:grey', 1]]), [], true, none)).toEqual({ sentiment: 'negative', intents: ['complaint'] });
    // Praise at log-odds -2.3 in a positive post about the tracked sense: over its cut of 0 less 2.5.
    const positive = foldOpinionModels(withOneSentimentModel({
      sentiment: { classes: ['positive', 'negative', 'neutral'], bias: [0, 0, 0], weights: { 'w:calm': [1, 0, 0] } },
      intents: { buy_intent: yesNo(-5), complaint: yesNo(-5), praise: yesNo(-2.3), comparison: yesNo(-5) },
      training: { sentimentPosts: 0, intentPosts: 0, epochs: 0, l2: 0, minCount: 0 },
    }));
    expect(readOpinionsOf(positive, new Map([['w:calm', 1]]), [], true, none)).toEqual({ sentiment: 'positive', intents: ['praise'] });
    expect(readOpinionsOf(positive, new Map([['w:calm', 1]]), [], false, none)).toEqual({ sentiment: 'positive', intents: [] });
  });

  it('read a closer of praise said as an afterthought after a body that praises nothing as the body’s verdict', async () => {
    const reading = (text: string) => readSentiment(text, 'en', noWords);
    expect(reading('Sent the kettle back. The lid leaked after a week and the handle got hot. Nice colour, though.').praisesAsAfterthought).toBe(true);
    expect(reading('Great kettle, boils fast and the handle stays cool. Nice colour, though.').praisesAsAfterthought).toBe(false);
    expect(reading('The lid leaked after a week. The handle is fine.').praisesAsAfterthought).toBe(false);
    const models = praisingModels({ 'w:calm': [1, 0, 0] });
    const none = { concedesPraise: false, productsNamed: 0, understatesPraise: false, saysComparison: false, reportsBug: false, curtPraiseAfterBlame: false };
    expect(readOpinionsOf(models, new Map([['w:calm', 1]]), [], true, none).sentiment).toBe('positive');
    expect(readOpinionsOf(models, new Map([['w:calm', 1]]), [], true, { ...none, praisesAsAfterthought: true }).sentiment).toBe('negative');
  });

  it('tells a comparison the tracked product loses from one it wins or weighs both ways', () => {
    const notion = wholeWordPattern('Notion', true);
    const common = new Set(['honestly', 'tables', 'stock']);
    const loses = (text: string, language = 'en') => comparisonWinner(text, notion, language, (word) => common.has(word.toLowerCase())) === 'other';
    for (const text of [
      'Used Notion for two years and Coda for one. Coda is faster and its tables never break.',
      'Honestly Obsidian beats Notion on every count that matters to me.',
      'Tried Notion for the team wiki. The Coda docs load twice as fast on our old laptops.',
    ]) expect(loses(text), text).toBe(true);
    expect(loses('Notion está bien para notas. La versión de Coda le gana por mucho.', 'es')).toBe(true);
    expect(loses('Notionの検索は遅い。Codaの方が速い気がする。', 'ja')).toBe(true);
    expect(comparisonWinner('Notion is faster than Coda for my notes.', notion, 'en', (word) => common.has(word.toLowerCase()))).toBe('tracked');
    expect(comparisonWinner('Notion schlägt im Sommer jede Coda.', notion, 'de', () => false)).toBe('tracked');
    for (const text of [
      'Notion is faster than Coda for my notes.',
      'Coda is faster to open, sure, but Notion keeps everything in one place.',
      'Honestly, tables are faster in Notion.',
      'Coda is faster to open. Notion is better at everything else.',
    ]) expect(loses(text), text).toBe(false);
  });

  it('finds a complaint from lower log-odds in a question asking how to mend a fault, in any language', () => {
    for (const text of [
      'The font renders 2px taller on Windows and the buttons jump. Is there a way to fix this with size-adjust?',
      'My sprite flickers when the camera moves. What am I missing?',
      'Non mi fa allegare file oltre 25 MB. Qualcuno sa come togliere il limite?',
      'Minhas sandálias ficam com cheiro. Tem jeito de limpar?',
    ]) expect(asksToMend(text), text).toBe(true);
    // A how-to that mends nothing, or no question at all.
    for (const text of [
      'Is there a way to share a calendar with my partner?',
      'The font renders 2px taller on Windows. Is there a way to fix this with size-adjust.',
    ]) expect(asksToMend(text), text).toBe(false);
    // A complaint at log-odds -2.2 is under the cut (-0.5) unless help to mend is asked.
    const yesNo = (bias: number): LogisticModel => ({ classes: ['no', 'yes'], bias: [0, bias], weights: {} });
    const models = foldOpinionModels(withOneSentimentModel({
      sentiment: { classes: ['positive', 'negative', 'neutral'], bias: [0, 0, 0], weights: { 'w:plain': [0, 0, 1] } },
      intents: { buy_intent: yesNo(-5), complaint: yesNo(-2.2), praise: yesNo(-5), comparison: yesNo(-5) },
      training: { sentimentPosts: 0, intentPosts: 0, epochs: 0, l2: 0, minCount: 0 },
    }));
    const none = { concedesPraise: false, productsNamed: 0, understatesPraise: false, saysComparison: false, reportsBug: false, curtPraiseAfterBlame: false };
    const plain = new Map([['w:plain', 1]]);
    expect(readOpinionsOf(models, plain, ['question'], true, none)).toEqual({ sentiment: 'neutral', intents: ['question'] });
    expect(readOpinionsOf(models, plain, ['question'], true, { ...none, asksToMend: true })).toEqual({ sentiment: 'neutral', intents: ['question', 'complaint'] });
  });

  it('reads a comparison\'s verdict after the colon that names both sides, and the other side winning something back', () => {
    const notion = wholeWordPattern('Notion', true);
    const winner = (text: string, language = 'en') => comparisonWinner(text, notion, language, () => true);
    expect(winner('Notion naast Coda geprobeerd: Notion is rustiger en de tabellen zijn schoner.', 'nl')).toBe('tracked');
    expect(winner('Notion vs Coda for our wiki: Notion is cheaper and easier to teach.')).toBe('tracked');
    expect(winner('Notion vs Coda for our wiki: Notion is faster, Coda keeps the tables tidier.')).toBe(null);
    expect(winner('Notion vs Coda for our wiki: Coda is faster.')).toBe(null);
    expect(winner('Notion mit der Vorlage vom Team Wiki schlägt im Alltag jede Coda.', 'de')).toBe('tracked');
    expect(winner('Starting at 6:30 Notion is faster than anything.')).toBe('tracked');
    expect(winner('Did a blind test with the team: 2Do beat Notion four votes to one.')).toBe('other');
    expect(winner('Comparé Notion et Coda pour l\'équipe : Notion coûte 4 € de moins par mois.', 'fr')).toBe('tracked');
    expect(winner('Notion vs Coda: Notion has less clutter.')).toBe(null);
    // A comparison said after a turn, naming another product and not the tracked one: the tracked one loses.
    expect(winner('Notion is stable, sure, but next to Coda it feels like 2012.')).toBe('other');
    expect(winner('O Notion é bonito, mas comparado ao Coda consome o dobro de bateria.', 'pt')).toBe('other');
    expect(winner('Notion ist kostenlos, ja. Aber im Vergleich zu Coda fühlt sich alles langsam an.', 'de')).toBe('other');
    expect(winner('Coda is fine, but compared to Notion it feels slow.')).toBe(null);
    expect(winner('Notion is fine, but compared to last year it feels slow.')).toBe(null);
  });

  it('read a post whose tracked product loses a comparison as negative with a complaint and a comparison, one it wins as positive, unless it is a question read neutral', () => {
    const yesNo = (bias: number): LogisticModel => ({ classes: ['no', 'yes'], bias: [0, bias], weights: {} });
    const models = foldOpinionModels(withOneSentimentModel({
      sentiment: { classes: ['positive', 'negative', 'neutral'], bias: [0, 0, 0], weights: { 'w:calm': [1, 0, 0], 'w:plain': [0, 0, 1] } },
      intents: { buy_intent: yesNo(-5), complaint: yesNo(-3), praise: yesNo(-3), comparison: yesNo(-5) },
      training: { sentimentPosts: 0, intentPosts: 0, epochs: 0, l2: 0, minCount: 0 },
    }));
    const none = { concedesPraise: false, productsNamed: 0, understatesPraise: false, saysComparison: false, reportsBug: false, curtPraiseAfterBlame: false };
    const calm = new Map([['w:calm', 1]]);
    const plain = new Map([['w:plain', 1]]);
    expect(readOpinionsOf(models, calm, [], true, { ...none, losesComparison: true })).toEqual({ sentiment: 'negative', intents: ['complaint', 'comparison'] });
    expect(readOpinionsOf(models, plain, [], true, { ...none, losesComparison: true })).toEqual({ sentiment: 'negative', intents: ['complaint', 'comparison'] });
    expect(readOpinionsOf(models, plain, ['question'], true, { ...none, losesComparison: true })).toEqual({ sentiment: 'neutral', intents: ['question'] });
    // Praise conceded before the turn that makes it lose ("stable, sure, but next to Hyprland…") is still said.
    expect(readOpinionsOf(models, calm, [], true, { ...none, losesComparison: true, concedesPraise: true }).intents).toContain('praise');
    // The mirror: one the tracked product wins makes a post read neutral positive, unless it asks.
    expect(readOpinionsOf(models, plain, [], true, { ...none, winsComparison: true }).sentiment).toBe('positive');
    expect(readOpinionsOf(models, plain, ['question'], true, { ...none, winsComparison: true }).sentiment).toBe('neutral');
  });

  it('read a post moving to the tracked product as praise, positive where read negative, and one leaving it as a complaint', () => {
    // Negative words told of the product left ("whites were grey"): read negative with a complaint, and no praise.
    const yesNo = (bias: number): LogisticModel => ({ classes: ['no', 'yes'], bias: [0, bias], weights: {} });
    const models = foldOpinionModels(withOneSentimentModel({
      sentiment: { classes: ['positive', 'negative', 'neutral'], bias: [0, 0, 0], weights: { 'w:grey': [0, 1, 0], 'w:calm': [1, 0, 0] } },
      intents: { buy_intent: yesNo(-5), complaint: yesNo(-1.5), praise: yesNo(-3), comparison: yesNo(-5) },
      training: { sentimentPosts: 0, intentPosts: 0, epochs: 0, l2: 0, minCount: 0 },
    }));
    const none = { concedesPraise: false, productsNamed: 0, understatesPraise: false, saysComparison: false, reportsBug: false, curtPraiseAfterBlame: false };
    const grey = new Map([['w:grey', 1]]);
    expect(readOpinionsOf(models, grey, [], true, none)).toEqual({ sentiment: 'negative', intents: ['complaint'] });
    expect(readOpinionsOf(models, grey, [], true, { ...none, joinsTracked: true })).toEqual({ sentiment: 'positive', intents: ['praise'] });
    const calm = new Map([['w:calm', 1]]);
    expect(readOpinionsOf(models, calm, [], true, none)).toEqual({ sentiment: 'positive', intents: [] });
    expect(readOpinionsOf(models, calm, [], true, { ...none, leavesTracked: true })).toEqual({ sentiment: 'negative', intents: ['complaint'] });
  });

  it('read a post closing on a sentence that only says the writer left or is disappointed as negative, in any language', () => {
    for (const text of [
      'Peloton raised the price again and removed the classes I did. Cancelled.',
      'The insoles run half a size small. Returning them.',
      'Nur noch Werbung, alle zehn Sekunden ein Video. Gelöscht.',
      'Een gratis herinneringsapp doet hetzelfde. Opgezegd.',
      'Probeer al een uur iets te doen wat elders twee klikken is. Ik geef het op.',
      'Se me renovó sin avisar. Cancelado.',
      '値上げが続いたので。解約した。',
      'The soles came apart after one winter. Disappointing.',
      'Verkeerde maat geleverd, retour op eigen kosten. Jammer.',
      'Die Lieferung kam zwei Wochen zu spät. Echt schade.',
      '届いた箱が潰れていた。残念。',
    ]) expect(closesOnVerdict(text), text).toBe(true);
    // A lone word, a leaving told inside a longer sentence, or a closer about something else: no verdict of leaving.
    for (const text of ['Cancelled.', 'Cancelled the old plan and moved to the yearly one. Saves a lot.', 'Back from two weeks away. Returned the rental car, all fine.', 'Three years on the same boots. Not bad.']) {
      expect(closesOnVerdict(text), text).toBe(false);
    }
    const models = praisingModels({ 'w:calm': [1, 0, 0] });
    const none = { concedesPraise: false, productsNamed: 0, understatesPraise: false, saysComparison: false, reportsBug: false, curtPraiseAfterBlame: false };
    expect(readOpinionsOf(models, new Map([['w:calm', 1]]), [], true, none).sentiment).toBe('positive');
    expect(readOpinionsOf(models, new Map([['w:calm', 1]]), [], true, { ...none, closesOnVerdict: true }).sentiment).toBe('negative');
  });

  it('read praise from lower log-odds where it is conceded before a turn, unless the post marks irony', () => {
    // Praise at log-odds -1, under its cut of 0 in a neutral post; a concession lowers the cut by 1.5.
    const yesNo = (bias: number): LogisticModel => ({ classes: ['no', 'yes'], bias: [0, bias], weights: { 'w:plain': [0, 0], irony: [0, 0] } });
    const models = foldOpinionModels(withOneSentimentModel({
      sentiment: { classes: ['positive', 'negative', 'neutral'], bias: [0, 0, 1], weights: { irony: [0, 0, 0] } },
      intents: { buy_intent: yesNo(-5), complaint: yesNo(-5), praise: yesNo(-1), comparison: yesNo(-5) },
      training: { sentimentPosts: 0, intentPosts: 0, epochs: 0, l2: 0, minCount: 0 },
    }));
    const plain = new Map([['w:plain', 1]]);
    const none = { concedesPraise: false, productsNamed: 0, understatesPraise: false, saysComparison: false, reportsBug: false, curtPraiseAfterBlame: false };
    expect(readOpinionsOf(models, plain, [], true, none).intents).toEqual([]);
    expect(readOpinionsOf(models, plain, [], true, { ...none, concedesPraise: true }).intents).toEqual(['praise']);
    // Irony says the praise against what it names, and complains of it.
    expect(readOpinionsOf(models, new Map([['w:plain', 1], ['irony', 1]]), [], true, { ...none, concedesPraise: true }).intents).toEqual(['complaint']);
  });

  it('tell a comparison said in words the comparison rules leave out, whichever side wins', () => {
    for (const text of [
      'Blind test at the office: the store brand beat the big one six votes to two.',
      'Ce nouveau moulin pèse 200 g de plus que l’ancien.',
      'Passé de Garmin à Polar cet été, aucun regret.',
      'La versión vieja le gana por mucho a la nueva.',
      'Wore both watches side by side for a week.',
      'The refill got me further in two weeks than the old one did in a month.',
      'Swapped the old router for a mesh kit. Signal in every room now.',
      'Tried both meal plans at the gym café; the cheaper one is the better food.',
      'De nieuwe stofzuiger is lichter dan de oude en zuigt beter.',
      'Il nuovo aspirapolvere è più leggero del vecchio.',
    ]) expect(saysComparison(text), text).toBe(true);
    expect(saysComparison('The new lamp is brighter and the app is easy.')).toBe(false);
    expect(saysComparison('Other than the strap, it is fine.')).toBe(false);
    // Figures that went from one value to another are no products weighed.
    expect(saysComparison('Our p99 went from 480ms to 90ms after the upgrade.')).toBe(false);
  });

  it('tell a comparative word beside a name other than the tracked term, in any language', () => {
    const term = /\bpebble\b/giu;
    for (const text of [
      'Used Streaks all last year. Pebble just fits my mornings better.',
      'Mit Streaks vergesse ich mehr, Pebble erinnert mich besser.',
      'Streaksより Pebbleの方が使いやすい。',
    ]) expect(comparesWithAnotherName(text, term), text).toBe(true);
    // No comparative word, or no name but the tracked term's and a sentence's first word.
    expect(comparesWithAnotherName('Used Streaks all last year. Pebble fits my mornings.', term)).toBe(false);
    expect(comparesWithAnotherName('Mornings go better since I started with Pebble.', term)).toBe(false);
  });

  it('tell a bug report by its template or by what it attaches, and no other post', () => {
    for (const text of [
      'Bug: the export drops the last row.',
      'The renderer segfaults when tiling on the GPU backend. Minimal repro attached.',
      'After sleep the tunnel reports "connected" but DNS queries time out. Logs attached.',
      'The server drops connections after exactly 60 seconds, proxy timeout set to 300s, same behaviour.',
      'Nach dem Login wird der Token nicht gespeichert. Reproduzierbar ab Version 1.8.2.',
    ]) expect(reportsBug(text), text).toBe(true);
    expect(reportsBug('The app crashes every time I open it and support never answers.')).toBe(false);
    expect(reportsBug('Our bug reports finally show severity at the top.')).toBe(false);
  });

  it('read a positive post as negative where it concedes praise before a turn beside a stance cue of a fault, and its intents as before', () => {
    // The sentiment model reads "screen" as positive; praise is found there at log-odds 1.
    const models = praisingModels({ 'w:screen': [1, 0, 0], 'cue:sent-back': [0, 0, 0], 'cue:fault-question': [0, 0, 0] });
    const conceded = { concedesPraise: true, productsNamed: 0, understatesPraise: false, saysComparison: false, reportsBug: false, curtPraiseAfterBlame: false };
    const fault = new Map([['w:screen', 1], ['cue:sent-back', 1]]);
    expect(readOpinionsOf(models, fault, [], true, conceded)).toEqual({ sentiment: 'negative', intents: ['praise'] });
    // Neither the concession alone, nor the fault alone, nor a question that complains turns the post.
    expect(readOpinionsOf(models, new Map([['w:screen', 1]]), [], true, conceded).sentiment).toBe('positive');
    expect(readOpinionsOf(models, fault, [], true, { ...conceded, concedesPraise: false }).sentiment).toBe('positive');
    expect(readOpinionsOf(models, new Map([['w:screen', 1], ['cue:fault-question', 1]]), [], true, conceded).sentiment).toBe('positive');
  });

  it('read a curt closing word of praise after a body that blames, praises nothing and tells a fault as sarcasm', () => {
    const closesCurtly = (text: string, language: string) => readSentiment(text, language, noWords).curtPraiseAfterBlame;
    expect(closesCurtly('The blender jar cracked in week two and the refund is still pending. Brilliant.', 'en')).toBe(true);
    expect(closesCurtly('Der Akku ist nach drei Monaten kaputt, Ersatz kostet 90 €. Super.', 'de')).toBe(true);
    // Praise in the body, a closer of more than three words, or a question: not curt praise after blame.
    for (const text of [
      'Lovely shop, but the blender jar cracked in week two. Brilliant.',
      'The blender jar cracked in week two. They replaced it the next day, brilliant service.',
      'The blender jar cracked in week two. Brilliant?',
    ]) expect(closesCurtly(text, 'en'), text).toBe(false);
    const models = praisingModels({ 'w:brilliant': [1, 0, 0], 'cue:broke': [0, 0, 0], 'cue:fault-question': [0, 0, 0] });
    const curt = { concedesPraise: false, productsNamed: 0, understatesPraise: false, saysComparison: false, reportsBug: false, curtPraiseAfterBlame: true };
    expect(readOpinionsOf(models, new Map([['w:brilliant', 1], ['cue:broke', 1]]), [], true, curt).sentiment).toBe('negative');
    // Without a stance cue of a fault (a fault put right reads so too), or without the curt closer, the reading stands.
    expect(readOpinionsOf(models, new Map([['w:brilliant', 1], ['cue:fault-question', 1]]), [], true, curt).sentiment).toBe('positive');
    expect(readOpinionsOf(models, new Map([['w:brilliant', 1], ['cue:broke', 1]]), [], true, { ...curt, curtPraiseAfterBlame: false }).sentiment).toBe('positive');
  });

  it('read a closing sentence that only exclaims a word of praise, after a body that praises nothing, as thrown at the body', () => {
    const exclaims = (text: string, language: string) => readSentiment(text, language, noWords).exclaimsAtBody;
    for (const [text, language] of [
      ['The kettle lid snapped off in week two and the shop wants the receipt I never got. Brilliant.', 'en'],
      ['Le train est resté bloqué deux heures en pleine voie. Vraiment génial !', 'fr'],
      ['Der Aufzug ist seit Montag kaputt. Wunderbar.', 'de'],
      ['El paquete llegó abierto y sin la mitad. Genial.', 'es'],
      ['De bezorger liet het pakket bij de buren, die op vakantie zijn. Heerlijk hoor.', 'nl'],
    ]) expect(exclaims(text, language), text).toBe(true);
    // Thanks thrown at the body, with no more than two words beside it, is the same exclamation.
    for (const [text, language] of [
      ['The kettle lid snapped off in week two and the shop wants the receipt I never got. Thanks, Kettleco.', 'en'],
      ['Der Aufzug steht seit Montag still, der Hausmeister geht nicht ans Telefon. Danke schön.', 'de'],
      ['Il pacco è arrivato aperto e senza metà dei pezzi. Grazie davvero.', 'it'],
      ['Het pakket lag bij de buren, die op vakantie zijn. Dank je wel hoor.', 'nl'],
    ]) expect(exclaims(text, language), text).toBe(true);
    // Thanks after a body that praises, or that goes on past two words, is no such exclamation.
    for (const text of [
      'The kettle boils in a minute and the lid is lovely. Thanks, Kettleco.',
      'The kettle lid snapped off in week two. Thanks to the shop for sending a new one the next day.',
    ]) expect(exclaims(text, 'en'), text).toBe(false);
    // Praise in the body, a closer naming what it praises or saying how the writer feels, one sentence, or a question: no such exclamation.
    for (const text of [
      'Lovely staff, but the kettle lid snapped off in week two. Brilliant.',
      'The band played the whole album. Brilliant night.',
      'The kettle lid snapped off and they sent a new one the next day. Impressed.',
      'Brilliant.',
      'The kettle lid snapped off in week two. Brilliant?',
    ]) expect(exclaims(text, 'en'), text).toBe(false);
  });

  it('read praise said as the want of a fault as the post’s verdict, in any language, unless the post marks irony', () => {
    const understates = (text: string, language: string) => readSentiment(text, language, noWords).understatesPraise;
    expect(understates("Ten years with the same provider, maybe two outages. Can't complain.", 'en')).toBe(true);
    expect(understates('Vuelo puntual y tripulación amable. Nada que objetar.', 'es')).toBe(true);
    expect(understates("Niente da dire, il supporto ha risposto in un'ora.", 'it')).toBe(true);
    expect(understates('Kann mich nicht beklagen: sauber und ruhig.', 'de')).toBe(true);
    // "I can't complain" said as such: "geen klagen hier", "não posso reclamar", "je ne peux pas me plaindre".
    expect(understates('De hond eet het al jaren en is kerngezond. Geen klagen hier.', 'nl')).toBe(true);
    expect(understates('Dois anos com a mesma mochila, não posso reclamar.', 'pt')).toBe(true);
    expect(understates('Deux ans sans panne, je ne peux pas me plaindre.', 'fr')).toBe(true);
    expect(understates('I complain about the sync every week, and nothing changes.', 'en')).toBe(false);
    // A fault counted and found absent: "zero", or a negation with "a single", "ein einziger", "un seul", "ett enda".
    for (const [text, language] of [
      ['Two winters on the heat pump, zero outages.', 'en'],
      ['Moved 30 repos over the weekend and not a single crash.', 'en'],
      ['Seit März kein einziger Absturz, auch nicht im Winter.', 'de'],
      ["Trois mois d'utilisation et pas un seul bug.", 'fr'],
      ['Ett år med laddboxen och inte ett enda fel.', 'sv'],
    ]) expect(understates(text, language), text).toBe(true);
    // A fault merely negated, or a good thing counted absent, is no praise.
    for (const text of ['No refund, no reply, no crash report either.', 'Three tickets and zero helpful answers.', 'Not a single good photo from the whole trip.']) {
      expect(understates(text, 'en'), text).toBe(false);
    }
    // The sentiment model reads "outages" as negative; the intents keep that stance.
    const yesNo = (bias: number): LogisticModel => ({ classes: ['no', 'yes'], bias: [0, bias], weights: {} });
    const models = foldOpinionModels(withOneSentimentModel({
      sentiment: { classes: ['positive', 'negative', 'neutral'], bias: [0, 0, 0], weights: { 'w:outages': [0, 1, 0], irony: [0, 0, 0] } },
      // A complaint at log-odds -1.5: found in a post read negative (cut -0.5 - 1.5), as the intents read this one.
      intents: { buy_intent: yesNo(-5), complaint: yesNo(-1.5), praise: yesNo(-5), comparison: yesNo(-5) },
      training: { sentimentPosts: 0, intentPosts: 0, epochs: 0, l2: 0, minCount: 0 },
    }));
    const outages = new Map([['w:outages', 1]]);
    const understated = { concedesPraise: false, productsNamed: 0, understatesPraise: true, saysComparison: false, reportsBug: false, curtPraiseAfterBlame: false };
    expect(readOpinionsOf(models, outages, [], true, understated)).toEqual({ sentiment: 'positive', intents: ['complaint'] });
    expect(readOpinionsOf(models, outages, [], true, { ...understated, understatesPraise: false }).sentiment).toBe('negative');
    expect(readOpinionsOf(models, new Map([['w:outages', 1], ['irony', 1]]), [], true, understated).sentiment).toBe('negative');
  });

  it('tell praise conceded before a turn that brings none, or a word of regret after it, from praise the turn brings', () => {
    const concedes = (text: string, language: string) => concedesPraise(readSentiment(text, language, noWords));
    expect(concedes('Sway is stable, sure, but next to Hyprland it feels like 2012.', 'en')).toBe(true);
    expect(concedes('Der Kühlschrank ist bequem zu bedienen, aber der Verbrauch liegt bei 11 Litern.', 'de')).toBe(true);
    expect(concedes('Die App ist schön, aber der Export fehlt.', 'de')).toBe(true);
    expect(concedes('Too pricey, but it is brilliant.', 'en')).toBe(false);
    expect(concedes('Nice and quiet, and it works great.', 'en')).toBe(false);
    // A word of regret after praise within a sentence turns it ("peccato che…"); standing first, it turns nothing.
    expect(concedes('Bellissima app, peccato che si chiuda ogni volta che provo il timer.', 'it')).toBe(true);
    expect(concedes('Superbe application, dommage qu\'elle plante à chaque export.', 'fr')).toBe(true);
    expect(concedes('Great kettle, shame the lid sticks every morning.', 'en')).toBe(true);
    expect(concedes('De kleur is prachtig. Jammer.', 'nl')).toBe(false);
  });

  it('read a fault conceded before a turn that brings praise, read negative, as positive', () => {
    const conceded = (text: string, language: string) => concedesFault(readSentiment(text, language, noWords));
    expect(conceded('Pricey, but my back is grateful.', 'en')).toBe(true);
    expect(conceded('Teuer, aber jeden Euro wert.', 'de')).toBe(true);
    expect(conceded('Great screen, but the battery is awful.', 'en')).toBe(false);
    const models = foldOpinionModels(withOneSentimentModel({
      sentiment: { classes: ['positive', 'negative', 'neutral'], bias: [0, 0, 0], weights: { 'w:grey': [0, 1, 0] } },
      intents: { buy_intent: { classes: ['no', 'yes'], bias: [0, -5], weights: {} }, complaint: { classes: ['no', 'yes'], bias: [0, -5], weights: {} }, praise: { classes: ['no', 'yes'], bias: [0, -5], weights: {} }, comparison: { classes: ['no', 'yes'], bias: [0, -5], weights: {} } },
      training: { sentimentPosts: 0, intentPosts: 0, epochs: 0, l2: 0, minCount: 0 },
    }));
    const none = { concedesPraise: false, productsNamed: 0, understatesPraise: false, saysComparison: false, reportsBug: false, curtPraiseAfterBlame: false };
    const grey = new Map([['w:grey', 1]]);
    expect(readOpinionsOf(models, grey, [], true, none).sentiment).toBe('negative');
    expect(readOpinionsOf(models, grey, [], true, { ...none, concedesFault: true }).sentiment).toBe('positive');
  });

  it('tell praise conceded in a sentence of its own before one opened by the turn, in any language', () => {
    const concedes = (text: string, language: string) => concedesPraise(readSentiment(text, language, noWords));
    expect(concedes('The kettle looks great on the counter. But the lid sticks every single morning.', 'en')).toBe(true);
    expect(concedes('Der Wasserkocher ist schön und leise, keine Frage. Aber der Deckel klemmt jeden Morgen.', 'de')).toBe(true);
    expect(concedes('La bouilloire est magnifique. Mais le couvercle coince tous les matins.', 'fr')).toBe(true);
    // The turn brings praise of its own, or nothing was praised before it, or the contrast word stands first in the post.
    expect(concedes('The kettle looks great on the counter. But the best part is how quiet it is.', 'en')).toBe(false);
    expect(concedes('The kettle arrived on Tuesday. But the lid sticks every single morning.', 'en')).toBe(false);
    expect(concedes('But the kettle looks great on the counter.', 'en')).toBe(false);
  });

  it('read a post that marks irony as negative even where no word of praise is there to turn', async () => {
    const text = 'Ah yes, another quarterly memo about synergy. Touching.';
    const features = await featuresOf(text);
    expect(features.has('irony')).toBe(true);
    expect(readOpinionsOf(loadOpinionModels(), features, [], true).sentiment).toBe('negative');
    // Without the mark the same sentence is a neutral remark.
    expect(readOpinionsOf(loadOpinionModels(), await featuresOf('Another quarterly memo about synergy.'), [], true).sentiment).toBe('neutral');
  });

  it('read a sentence thrown open by praise and a comma as sarcasm, in any language', async () => {
    const opening = (text: string, language: string) => readSentiment(text, language, noWords);
    expect(opening('Wonderful, the app reordered my photos and the cover shot is now the laundry room.', 'en')).toMatchObject({ ironic: true, cues: [{ cue: 'wonderful', score: -4 }] });
    expect(opening('El termo me marca la hora mal cada día. Genial, muy útil.', 'es').ironic).toBe(true);
    expect(opening('Ótimo, o aplicativo apagou tudo de novo.', 'pt').ironic).toBe(true);
    // A curt closer of praise carries on the irony of a marked post, and only there.
    expect(opening('Oh good, they discontinued my lid colour. Thrilled.', 'en').cues.every((cue) => cue.score < 0)).toBe(true);
    expect(opening("Sure, let's all swim next to the warning signs. Brilliant plan.", 'en')).toMatchObject({ ironic: true, cues: [{ cue: 'brilliant', score: -4 }] });
    expect(opening('The support team replaced the lid in two days. Brilliant.', 'en')).toMatchObject({ ironic: false, cues: [{ cue: 'brilliant', score: 4 }] });
    // A degree word before the praise, or the Dutch "hoor" after it, says it louder.
    expect(opening('Just great, the printer driver update removed duplex printing.', 'en').ironic).toBe(true);
    expect(opening('Ganz toll, der Anbieter erhöht den Preis und nennt das Optimierung.', 'de').ironic).toBe(true);
    expect(opening('Fijn hoor, de app is na de update al mijn instellingen kwijt.', 'nl').ironic).toBe(true);
    expect(opening('Just great to see the sync fixed.', 'en').ironic).toBe(false);
    // Praise that opens without a comma, or a comma later in the sentence, is praise.
    expect(opening('Great app, the sync is fast.', 'en').ironic).toBe(false);
    expect(opening('Soepel, goedkoop en de app werkt. Top!', 'nl').ironic).toBe(false);
    const models = loadOpinionModels();
    const text = 'Great, the vendor ended support for my model and the spare batteries are now paperweights.';
    expect(readOpinionsOf(models, await featuresOf(text), [], true).sentiment).toBe('negative');
  });

  it('names the stance cues a post holds in any of eight languages', async () => {
    const cues = async (text: string) => [...(await featuresOf(text)).keys()].filter((name) => name.startsWith('cue:')).sort();
    expect(await cues('The lid cracked after a week and I sent it back.')).toEqual(['cue:broke', 'cue:sent-back']);
    expect(await cues('Se me rompió el cargador otra vez.')).toEqual(['cue:again', 'cue:broke']);
    expect(await cues('Das Abo hat den Preis schon wieder erhöht.')).toEqual(['cue:again', 'cue:price-rise']);
    expect(await cues('À ce prix je m\'attendais à mieux.')).toEqual(['cue:expected-more']);
    expect(await cues('Nach zehn Jahren immer noch wie neu.')).toEqual(['cue:lasted']);
    expect(await cues('Zou ik zo weer kopen.')).toEqual(['cue:would-again']);
    expect(await cues('Nessuna risposta dal supporto.')).toEqual(['cue:kept-waiting']);
    expect(await cues('The album is fine, but the songs are way too long.')).toEqual(['cue:too-much']);
    expect(await cues('Produzione pulita, ma i pezzi sono troppo lunghi.')).toEqual(['cue:too-much']);
    expect(await cues('Achei bom, mas caro demais pro Brasil.')).toEqual(['cue:too-much']);
    // A thing that came damaged or will not start is a thing that broke, in words of any field.
    for (const text of [
      'Rear fender dented, bumper scuffed.',
      "The speaker won't turn on since Tuesday.",
      'Comprei um copo no site oficial e chegou amassado.',
      'Die Dose kam verbeult an.',
      'La boîte est arrivée cabossée.',
      'La nevera llegó abollada.',
      'Il frigorifero è arrivato ammaccato.',
      'Het pakket was beschadigd.',
      'Paczka przyszła uszkodzona.',
      'Kartongen var skadad.',
      'リアのバンパーがへこんだ。',
    ]) expect(await cues(text), text).toEqual(['cue:broke']);
    // Not "too" as "also", nor colloquial praise ("trop bien").
    expect(await cues('I love it too and so does my sister.')).toEqual([]);
    expect(await cues("C'est trop bien, je recommande.")).toEqual([]);
    expect(await cues('The new editor is fast.')).toEqual([]);
  });

  it('are committed as a fresh training on the training posts and the tune posts would write them', { timeout: 300_000 }, async () => {
    const fresh = `${JSON.stringify(await trainCommittedOpinionModels())}\n`;
    expect(fresh === (await readFile(opinionModelsPath, 'utf8')), 'opinion-models.json is stale: run npm run train:classifier').toBe(true);
  });
});
