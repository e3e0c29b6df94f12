/**
 * `npm run eval`: the built-in classifier against the labelled posts of
 * test/fixtures/classifier-eval.jsonl, tune and holdout side by side.
 *
 * `--errors <relevance|sentiment|intents|language|automated>` lists the tune
 * posts the classifier gets wrong on that field. It refuses the holdout: the
 * holdout's numbers are honest only while nobody tunes on its posts.
 * `--tune` prints the tune column alone, for tuning sessions. The holdout
 * is printed whole and by round (see `round` in classifier-eval-set.ts).
 */
import { relevanceLine } from '../vocabulary/relevance.ts';
import { createBuiltInClassifier } from './built-in-classifier.ts';
import type { Classification } from './classification.ts';
import { inputOf, type LabelledPost, readEvalSet } from './classifier-eval-set.ts';
import { type ClassifierMetrics, measureClassifier } from './classifier-metrics.ts';
import { wordCount } from './content-words.ts';

const aims = { relevanceF1: 0.8, sentimentAccuracy: 0.75, languageAccuracy: 0.95 };
const fields = ['relevance', 'sentiment', 'intents', 'language', 'automated'] as const;
type Field = (typeof fields)[number];

const percent = (value: number) => `${(100 * value).toFixed(1)}%`;
const fixed = (value: number) => value.toFixed(3);

function rows(metrics: ClassifierMetrics): [string, string][] {
  return [
    ['posts', String(metrics.posts)],
    [`relevance precision @${relevanceLine}`, fixed(metrics.relevance.precision)],
    [`relevance recall @${relevanceLine}`, fixed(metrics.relevance.recall)],
    [`relevance F1 @${relevanceLine} (aim ≥ ${aims.relevanceF1})`, fixed(metrics.relevance.f1)],
    ['relevance accuracy', percent(metrics.relevance.accuracy)],
    ['  baseline F1: everything relevant', fixed(metrics.relevance.allRelevantF1)],
    [`sentiment accuracy (aim ≥ ${aims.sentimentAccuracy})`, percent(metrics.sentimentAccuracy)],
    ['intent exact-set accuracy', percent(metrics.intentExactAccuracy)],
    ['intent micro F1', fixed(metrics.intentMicroF1)],
    ...Object.entries(metrics.perIntent).map(([intent, score]): [string, string] => [
      `  ${intent} P / R / F1 (n)`,
      `${fixed(score.precision)} / ${fixed(score.recall)} / ${fixed(score.f1)} (${score.support})`,
    ]),
    [`language accuracy, 5+ words (aim ≥ ${aims.languageAccuracy})`, `${percent(metrics.languageAccuracy)} of ${metrics.languagePosts}`],
    ['automated accuracy', percent(metrics.automated.accuracy)],
    ['  automated P / R (n)', `${fixed(metrics.automated.precision)} / ${fixed(metrics.automated.recall)} (${metrics.automated.support})`],
  ];
}

function printTable(columns: [name: string, metrics: ClassifierMetrics][]) {
  const table = columns.map(([, metrics]) => rows(metrics));
  const width = Math.max(...table[0].map(([label]) => label.length));
  const column = Math.max(12, ...table.flat().map(([, value]) => value.length));
  console.log(`${'built-in classifier'.padEnd(width)}  ${columns.map(([name]) => name.padEnd(column)).join('  ')}`);
  table[0].forEach(([label], index) => {
    console.log(`${label.padEnd(width)}  ${table.map((metrics) => metrics[index][1].padEnd(column)).join('  ')}`);
  });
}

function isWrong(field: Field, post: LabelledPost, got: Classification): boolean {
  switch (field) {
    case 'relevance': return got.relevance >= relevanceLine !== post.expected.relevant;
    case 'sentiment': return got.sentiment !== post.expected.sentiment;
    case 'intents': return got.intents.length !== post.expected.intents.length || got.intents.some((intent) => !post.expected.intents.includes(intent));
    case 'language': return wordCount(post.text) >= 5 && got.language !== post.expected.language;
    case 'automated': return got.automated !== post.expected.automated;
  }
}

function printErrors(field: Field, posts: LabelledPost[], results: Classification[]) {
  posts.forEach((post, index) => {
    const got = results[index];
    if (post.split !== 'tune' || !isWrong(field, post, got)) return;
    const expected = field === 'relevance' ? `relevant=${post.expected.relevant}` : JSON.stringify(post.expected[field]);
    const found = field === 'relevance' ? `${got.relevance}` : JSON.stringify(got[field]);
    console.log(`${post.id}  expected ${expected}  got ${found}\n  ${post.text}\n  ${got.note}`);
  });
}

async function main() {
  const errorsAt = process.argv.indexOf('--errors');
  const errorField = errorsAt >= 0 ? process.argv[errorsAt + 1] : undefined;
  if (errorField !== undefined && !fields.includes(errorField as Field)) {
    throw new Error(`--errors takes one of ${fields.join(', ')}; holdout posts are never listed`);
  }
  const posts = await readEvalSet();
  const outcomes = await createBuiltInClassifier().classifyBatch(posts.map(inputOf));
  const results = outcomes.map((outcome) => {
    if (!outcome.ok) throw new Error(`${outcome.mentionId}: ${outcome.error}`);
    return outcome.classification;
  });
  if (errorField) {
    printErrors(errorField as Field, posts, results);
    return;
  }
  const measure = (keep: (post: LabelledPost) => boolean) => {
    const indexes = posts.flatMap((post, index) => (keep(post) ? [index] : []));
    return measureClassifier(indexes.map((index) => posts[index]), indexes.map((index) => results[index]));
  };
  const columns: [string, ClassifierMetrics][] = [['tune', measure((post) => post.split === 'tune')]];
  if (!process.argv.includes('--tune')) {
    columns.push(
      ['holdout', measure((post) => post.split === 'holdout')],
      ['holdout r1', measure((post) => post.split === 'holdout' && post.round === 1)],
      ['holdout r2', measure((post) => post.split === 'holdout' && post.round === 2)],
    );
  }
  printTable(columns);
  // The opinion models learn from the tune posts: there, their scores say how well they fit, not how well they read.
  console.log('\nSentiment and intents (but question) on tune posts are the models\' training scores; the holdout columns are the measure.');
}

await main();
