import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { searchPlatforms, type Platform, type SearchPlatform } from '../vocabulary/normalized-post.ts';
import { createMatcher, createReferenceMatcher, type KeywordMatch, type KeywordMatchRules, type MatchablePost, type WorkspaceFilters } from '../subgraphs/keywords/index.ts';
import { formatReport, type Benchmark, type BenchReport } from './benchmark.ts';

/**
 * Issue 5 benchmark, its aim raised by issue 18: matching throughput on one
 * core with 10,000 active keywords against a stream of realistic posts, for
 * the engine (one scan of a trie of every term), for the naive loop over
 * keywords with the same rule checks and for a bare pass over each post's
 * text, by CPU time and by wall time, and the engine's memory with 100,000
 * keywords. Aim: at least 50,000 posts per second of CPU time.
 */

const KEYWORDS = 10_000;
const LARGE_KEYWORDS = 100_000;
const WORKSPACES = 2_500;
const POSTS = 3_000;
const AIM_POSTS_PER_SECOND = 50_000;
const ENGINE_SECONDS = 3;
const BASELINE_SECONDS = 3;
const BARE_SECONDS = 2;

/** mulberry32: the same corpus on every run, so numbers compare across runs. */
function seededRandom(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

const random = seededRandom(0x5eed);
const chance = (probability: number) => random() < probability;
const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
const some = <T>(items: readonly T[], count: number): T[] => Array.from({ length: count }, () => pick(items));

const ENGLISH = `the of and to a in is it you that he was for on are with as I his they be at one have this from or had by
not word but what some we can out other were all there when up use your how said an each she which do their time if will way
about many then them write would like so these her long make thing see him two has look more day could go come did number
sound no most people my over know water than call first who may down side been now find any new work part take get place made
live where after back little only round man year came show every good me give our under name very through just form sentence
great think say help low line differ turn cause much mean before move right boy old too same tell does set three want air
well also play small end put home read hand port large spell add even land here must big high such follow act why ask men
change went light kind off need house picture try us again animal point mother world near build self earth father head stand
own page should country found answer school grow study still learn plant cover food sun four between state keep eye never
last let thought city tree cross farm hard start might story saw far sea draw left late run while press close night real
life few north open seem together next white children begin got walk example ease paper group always music those both mark
often letter until mile river car feet care second book carry took science eat room friend began idea fish mountain stop
once base hear horse cut sure watch color face wood main enough plain girl usual young ready above ever red list though feel
talk bird soon body dog family direct pose leave song measure door product black short numeral class wind question happen
complete ship area half rock order fire south problem piece told knew pass since top whole king space heard best hour better
true during hundred five remember step early hold west ground interest reach fast verb sing listen six table travel less
morning ten simple several vowel toward war lay against pattern slow center love person money serve appear road map rain
rule govern pull cold notice voice unit power town fine certain fly fall lead cry dark machine note wait plan figure star
box noun field rest correct able pound done beauty drive stood contain front teach week final gave green oh quick develop
ocean warm free minute strong special mind behind clear tail produce fact street inch multiply nothing course stay wheel full
force blue object decide surface deep moon island foot system busy test record boat common gold possible plane stead dry
wonder laugh thousand ago ran check game shape equate hot miss brought heat snow tire bring yes distant fill east paint
language among`.split(/\s+/u);

const TECH = `api sdk database server client deploy release bug issue feature pull request merge branch commit repository
docker kubernetes cluster container latency throughput cache queue worker cron webhook token auth login password security
vulnerability patch upgrade migration schema query index postgres mysql redis kafka rust golang python typescript javascript
react vue svelte angular nextjs node runtime compiler build pipeline ci cd test coverage benchmark performance memory leak
crash error exception stack trace log metrics tracing observability dashboard alert monitoring cloud aws gcp azure serverless
lambda function edge cdn dns domain ssl certificate rate limit pricing plan subscription billing invoice startup founder
launch product roadmap feedback users customers support ticket onboarding signup churn growth marketing seo analytics
open source license fork star maintainer contributor community discord slack newsletter podcast video tutorial docs
documentation example template framework library package dependency version semver changelog llm model prompt agent
embedding vector inference training dataset gpu fine tuning chatbot assistant copilot automation workflow integration plugin
extension browser mobile app ios android desktop linux windows macos terminal cli shell editor vim vscode ide`.split(/\s+/u);

const PHRASE_WORDS = `vector database open source observability platform state management feature flags error tracking
customer support tool project management software password manager note taking app code review bot static site generator
headless cms payment gateway email marketing service time tracking issue tracker design system component library api gateway
load balancer secret management log aggregation session replay product analytics user onboarding data pipeline stream
processing message queue job scheduler search engine web scraping browser automation form builder landing page invoice
generator expense tracker habit tracker language learning fitness tracker meal planner budget planner photo editor video
editor screen recorder colour picker machine learning deep learning computer vision speech recognition text summarisation
sentiment analysis recommendation engine fraud detection identity verification background check`.split(/\s+/u);

const REAL_BRANDS = [
  'OpenAI', 'Vercel', 'Supabase', 'Stripe', 'Cloudflare', 'Netlify', 'Linear', 'Notion', 'Figma', 'Datadog', 'Sentry',
  'PostHog', 'Grafana', 'Tailwind', 'Prisma', 'Deno', 'Bun', 'Anthropic', 'Mistral', 'Ollama', 'LangChain', 'Pinecone',
  'GitHub Copilot', 'Hacker News', 'Product Hunt', 'Visual Studio Code', 'Google Cloud', 'Microsoft Azure',
];
const SYMBOL_TERMS = ['C++', '.NET', 'node.js', 'Next.js', 'C#', 'F#', 'Vue.js', 'ASP.NET', 'D3.js', 'Three.js'];
const SUBREDDITS = ['programming', 'webdev', 'rust', 'golang', 'startups', 'saas', 'devops', 'selfhosted', 'machinelearning', 'sysadmin', 'javascript', 'python'];
const SYLLABLES = ['ka', 'zen', 'tri', 'lo', 'mar', 'vex', 'io', 'qu', 'ra', 'plo', 'dio', 'nex', 'sy', 'flux', 'or', 'bit', 'ly', 'ster', 'go', 'pix', 'ta', 'um', 'ver', 'sa'];

const NOISE = `hiring job jobs giveaway airdrop crypto nft casino betting coupon promo discount sale referral sponsored
onlyfans porn escort loan forex signals pump dump meme spam bot scam`.split(/\s+/u);

// Letters the brand syllables never spell alone, so the long tail does not mention brands by accident.
const TAIL_SYLLABLES = ['b', 'c', 'd', 'f', 'h', 'j', 'm', 'n', 'p', 'w'].flatMap((consonant) => ['e', 'u', 'a', 'i'].map((vowel) => consonant + vowel));
const pseudoWord = () => some(TAIL_SYLLABLES, between(2, 4)).join('');

/**
 * Words by frequency rank: the common English words (in rough frequency
 * order), the tech words, then a long tail of made-up ones, as real text has a
 * long tail no keyword list covers.
 */
const RANKED_WORDS = [...new Set([...ENGLISH.map((word) => word.toLowerCase()), ...TECH, ...PHRASE_WORDS])];
while (RANKED_WORDS.length < 30_000) RANKED_WORDS.push(pseudoWord());

/** Zipf's law (exponent 1) over the ranks, sampled by binary search in its running sum. */
const ZIPF_TOTALS = (() => {
  const totals = new Float64Array(RANKED_WORDS.length);
  let total = 0;
  RANKED_WORDS.forEach((_, rank) => (totals[rank] = total += 1 / (rank + 2.7)));
  return totals;
})();

function zipfWord(): string {
  const target = random() * ZIPF_TOTALS[ZIPF_TOTALS.length - 1];
  let low = 0;
  let high = ZIPF_TOTALS.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (ZIPF_TOTALS[middle] < target) low = middle + 1;
    else high = middle;
  }
  return RANKED_WORDS[low];
}

const inventedBrand = () => {
  const name = some(SYLLABLES, between(2, 3)).join('');
  return name[0].toUpperCase() + name.slice(1);
};

function generateTerm(): string {
  const roll = random();
  if (roll < 0.45) return inventedBrand();
  if (roll < 0.6) return `${inventedBrand()} ${pick(['AI', 'Cloud', 'Labs', 'App', 'Studio', 'DB', 'Pay', 'Analytics'])}`;
  if (roll < 0.85) {
    const start = between(0, PHRASE_WORDS.length - 3);
    return PHRASE_WORDS.slice(start, start + between(2, 3)).join(' ');
  }
  if (roll < 0.95) return pick(REAL_BRANDS);
  return pick(SYMBOL_TERMS);
}

/** Noise words most of the time, otherwise words of middling frequency (nobody excludes "the"). */
const excludedTerm = () => {
  const word = chance(0.5) ? pick(NOISE) : RANKED_WORDS[between(200, 5000)];
  const roll = random();
  if (roll < 0.1) return `${word}*`;
  if (roll < 0.15) return `*${word}`;
  if (roll < 0.18) return `*${word}*`;
  return chance(0.2) ? `${word} ${zipfWord()}` : word;
};

function generateKeywords(count: number): KeywordMatchRules[] {
  return Array.from({ length: count }, (_, index) => {
    const platforms: SearchPlatform[] | null = chance(0.3) ? some(searchPlatforms, between(1, 5)) : null;
    return {
      keywordId: `kw_${index}`,
      workspaceId: `org_${index % WORKSPACES}`,
      term: generateTerm(),
      platforms,
      caseSensitive: chance(0.08),
      exactPhrase: chance(0.25),
      requiredTerms: chance(0.2) ? Array.from({ length: between(1, 3) }, () => RANKED_WORDS[between(100, 2000)]) : [],
      requiredMode: chance(0.5) ? 'any' : 'all',
      excludedTerms: chance(0.35) ? Array.from({ length: between(1, 5) }, excludedTerm) : [],
      excludedAuthors: chance(0.1) ? [`@${pick(ENGLISH)}${between(1, 99)}`, `reddit:${pick(ENGLISH)}`] : [],
      subreddits: chance(0.05) ? { only: some(SUBREDDITS, 2), excluded: [] } : { only: [], excluded: chance(0.05) ? some(SUBREDDITS, 2) : [] },
      repositories: { events: ['traction', 'stars', 'growth'], minStars: chance(0.2) ? between(10, 500) : null, minWeeklyStars: null },
    };
  });
}

function generateFilters(): Map<string, WorkspaceFilters> {
  const filters = new Map<string, WorkspaceFilters>();
  for (let index = 0; index < WORKSPACES; index++) {
    if (!chance(0.6)) continue;
    filters.set(`org_${index}`, {
      excludedTerms: Array.from({ length: between(0, 10) }, excludedTerm),
      excludedAuthors: Array.from({ length: between(0, 5) }, () => `x:${pick(ENGLISH)}${between(1, 999)}`),
      githubRepositories: Array.from({ length: between(0, 3) }, () => `${pick(ENGLISH)}/${pick(TECH)}`),
      subreddits: { allowed: [], denied: chance(0.2) ? some(SUBREDDITS, 2) : [] },
    });
  }
  return filters;
}

/** Post lengths in characters per platform: short social posts, long issues and articles. */
const LENGTHS: Partial<Record<Platform, [number, number]>> = {
  bluesky: [40, 300], x: [40, 280], hackernews: [100, 1500], reddit: [80, 3000], github: [200, 4000],
  stackoverflow: [300, 2500], devto: [800, 6000], youtube: [40, 600], news: [300, 3000], linkedin: [100, 1500],
};
const STREAM_PLATFORMS = Object.keys(LENGTHS) as Platform[];

function sentence(mentions: readonly string[]): string {
  const words = Array.from({ length: between(6, 20) }, zipfWord);
  if (mentions.length > 0 && chance(0.5)) words.splice(between(0, words.length), 0, pick(mentions));
  if (chance(0.05)) words.push(`https://example.com/${pick(TECH)}/${between(1, 9999)}`);
  const text = words.join(' ');
  return text[0].toUpperCase() + text.slice(1) + pick(['.', '.', '.', '!', '?', ':']);
}

/** How people write a tracked term: as is, in other case, plural, hyphenated, words apart. */
function writtenMention(term: string): string {
  const roll = random();
  if (roll < 0.4) return term;
  if (roll < 0.55) return term.toLowerCase();
  if (roll < 0.7) return `${term}s`;
  if (roll < 0.85) return term.replace(/ /gu, '-');
  return term.split(' ').reverse().join(' with the ');
}

function generatePosts(keywords: readonly KeywordMatchRules[]): MatchablePost[] {
  return Array.from({ length: POSTS }, (_, index) => {
    const platform = pick(STREAM_PLATFORMS);
    const [shortest, longest] = LENGTHS[platform]!;
    const target = between(shortest, longest);
    const mentions = chance(0.3) ? Array.from({ length: between(1, 2) }, () => writtenMention(pick(keywords).term)) : [];
    let text = '';
    while (text.length < target) text += (text ? ' ' : '') + sentence(mentions);
    const handle = `${pick(ENGLISH)}${between(1, 999)}`;
    return {
      platform,
      externalId: String(index),
      url: platform === 'github' ? `https://github.com/${pick(ENGLISH)}/${pick(TECH)}/issues/${index}` : `https://example.com/${index}`,
      text,
      publishedAt: new Date(),
      replyTo: null,
      links: [],
      author: { platformId: handle, name: handle, handle, url: '', avatarUrl: null, followers: null },
      subreddit: platform === 'reddit' ? pick(SUBREDDITS) : null,
    };
  });
}

/** The benchmark's keywords, workspace filters and posts, the same on every call of a fresh process. */
export function matchingCorpus() {
  const keywords = generateKeywords(KEYWORDS);
  const filters = generateFilters();
  return { keywords, filters, posts: generatePosts(keywords) };
}

interface Throughput {
  /** Posts per second of this process's CPU time: what "posts per second on one core" means. */
  cpu: number;
  /** Posts per second of wall-clock time over the same stretch: other processes taking turns on the core stretch it. */
  wall: number;
}

/**
 * Posts per second over at least `seconds` of CPU time, cycling through the
 * stream, by CPU time and by wall time. On a shared machine the wall figure
 * drops with the load; the CPU figure much less.
 */
function throughput(match: (post: MatchablePost) => unknown, posts: readonly MatchablePost[], seconds: number): Throughput {
  let done = 0;
  const started = process.cpuUsage();
  const wallStarted = performance.now();
  let used = 0;
  while (used < seconds * 1e6) {
    for (let index = 0; index < 50; index++) match(posts[(done + index) % posts.length]);
    done += 50;
    const { user, system } = process.cpuUsage(started);
    used = user + system;
  }
  return { cpu: done / (used / 1e6), wall: done / ((performance.now() - wallStarted) / 1000) };
}

/**
 * The floor under any matcher: fold the post's text to lower case and read
 * every character of it once, doing nothing else. Measured in the same run
 * as the engine, it says how far the engine is from reading the text at all,
 * whatever the load.
 */
function barePass(post: MatchablePost): number {
  const folded = post.text.toLowerCase();
  let sum = 0;
  for (let index = 0; index < folded.length; index++) sum += folded.charCodeAt(index);
  return sum;
}

/** A collection the heap can be measured after; `--expose-gc` for this process alone, not for the run's command line. */
function collectGarbage() {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/** Heap megabytes an engine holding `count` generated keywords (and the same workspace filters) keeps alive. */
function engineMegabytes(count: number, filters: ReadonlyMap<string, WorkspaceFilters>): number {
  let keywords: KeywordMatchRules[] | null = generateKeywords(count);
  collectGarbage();
  const before = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  const engine = createMatcher(keywords, filters);
  keywords = null;
  collectGarbage();
  const after = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  if (engine.keywordCount !== count) throw new Error(`the engine holds ${engine.keywordCount} of ${count} keywords`);
  return (after - before) / 2 ** 20;
}

const key = (matches: KeywordMatch[]) => matches.map((match) => `${match.keywordId}${match.fuzzy ? '~' : ''}`).sort().join(',');

/** Measures the engine against the naive loop and returns the report table. */
export async function benchMatching(): Promise<BenchReport> {
  const [loadAtStart] = os.loadavg();
  const { keywords, filters, posts } = matchingCorpus();

  const buildStarted = performance.now();
  const engine = createMatcher(keywords, filters);
  const buildMilliseconds = performance.now() - buildStarted;
  const baseline = createReferenceMatcher(keywords, filters);

  const checked = posts.slice(0, 300);
  let disagreements = 0;
  let matched = 0;
  let postsMatched = 0;
  for (const post of checked) {
    const found = engine.match(post);
    matched += found.length;
    if (found.length > 0) postsMatched++;
    if (key(found) !== key(baseline.match(post))) disagreements++;
  }

  throughput((post) => engine.match(post), posts, 0.5);
  const engineRate = throughput((post) => engine.match(post), posts, ENGINE_SECONDS);
  const baselineRate = throughput((post) => baseline.match(post), posts, BASELINE_SECONDS);
  throughput(barePass, posts, 0.5);
  const bareRate = throughput(barePass, posts, BARE_SECONDS);

  const changes = keywords.slice(0, 1000).map((rules, index) => ({ ...rules, term: generateTerm(), keywordId: index % 2 ? rules.keywordId : `kw_new_${index}` }));
  const changesStarted = performance.now();
  for (const rules of changes) engine.upsertKeyword(rules);
  const changeMicroseconds = ((performance.now() - changesStarted) * 1000) / changes.length;

  const [loadAtEnd] = os.loadavg();
  const largeMegabytes = engineMegabytes(LARGE_KEYWORDS, filters);

  const averageLength = posts.reduce((total, post) => total + post.text.length, 0) / posts.length;
  const meets = engineRate.cpu >= AIM_POSTS_PER_SECOND ? 'meets' : 'misses';
  const times = (engineValue: number, baselineValue: number) => `${(engineValue / baselineValue).toFixed(engineValue >= 10 * baselineValue ? 0 : 2)}×`;
  const aim = `≥ ${AIM_POSTS_PER_SECOND.toLocaleString('en')}`;
  return {
    description:
      `${KEYWORDS.toLocaleString('en')} generated keywords in ${WORKSPACES.toLocaleString('en')} workspaces (brands, shared competitor names, ` +
      `multi-word topics, symbol terms; required, excluded and author rules, workspace filters) against ${POSTS.toLocaleString('en')} generated posts ` +
      `of ${Math.round(averageLength)} characters on average (Zipf-distributed words), one Node thread, posts per second of CPU time ` +
      `(process.cpuUsage) and of wall time over the same stretch. Two baselines in the same run: the naive loop over keywords with the ` +
      `same rule checks (reference-matcher.ts), and a bare pass that folds each post to lower case and reads every character once ` +
      `(the floor under any matcher). ${(matched / checked.length).toFixed(2)} matches per post, ` +
      `${Math.round((100 * postsMatched) / checked.length)}% of posts matched; engine and naive loop disagree on ${disagreements} of ${checked.length} posts. ` +
      `Load average ${loadAtStart.toFixed(1)} when the benchmark began, ${loadAtEnd.toFixed(1)} after the throughput runs.`,
    columns: ['engine', 'baseline', 'ratio', 'aim'],
    rows: [
      { label: 'posts/s, one core (CPU time); baseline: naive loop', values: [engineRate.cpu, baselineRate.cpu, times(engineRate.cpu, baselineRate.cpu), aim] },
      { label: 'posts/s, wall time; baseline: naive loop', values: [engineRate.wall, baselineRate.wall, times(engineRate.wall, baselineRate.wall), ''] },
      { label: 'posts/s, one core (CPU time); baseline: bare pass', values: [engineRate.cpu, bareRate.cpu, times(engineRate.cpu, bareRate.cpu), aim] },
      { label: 'posts/s, wall time; baseline: bare pass', values: [engineRate.wall, bareRate.wall, times(engineRate.wall, bareRate.wall), ''] },
      { label: 'µs of CPU time per post', values: [1e6 / engineRate.cpu, 1e6 / baselineRate.cpu, '', ''] },
      { label: 'index build, all keywords (ms)', values: [buildMilliseconds, '', '', ''] },
      { label: 'keyword added or changed in place (µs each)', values: [changeMicroseconds, '', '', ''] },
      { label: `engine memory with ${LARGE_KEYWORDS.toLocaleString('en')} keywords (MB, rules included)`, values: [largeMegabytes, '', '', ''] },
    ],
    verdict: `The engine ${meets} the aim of ${AIM_POSTS_PER_SECOND.toLocaleString('en')} posts per second of CPU time on one core with ${KEYWORDS.toLocaleString('en')} keywords.`,
  };
}

export const matchingThroughput: Benchmark = {
  name: 'Matching engine throughput (issue 5)',
  run: () => benchMatching(),
};

/** Runs the benchmark alone and prints its table. */
export async function runMatchingBenchmark(): Promise<BenchReport> {
  const report = await benchMatching();
  console.log(formatReport(matchingThroughput.name, report));
  return report;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runMatchingBenchmark();
