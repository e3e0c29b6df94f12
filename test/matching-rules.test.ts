import { describe, expect, it } from 'vitest';
import type { KeywordMatchRules, WorkspaceFilters } from '../subgraphs/keywords/matching/keyword-rules.ts';
import { createMatcher } from '../subgraphs/keywords/matching/matcher.ts';
import type { MatchablePost } from '../subgraphs/keywords/matching/prepared-post.ts';
import { createReferenceMatcher } from '../subgraphs/keywords/matching/reference-matcher.ts';
import { repositoryEventPasses, type RepositoryRules } from '../subgraphs/keywords/matching/repository-events.ts';
import { parseTerm } from '../subgraphs/keywords/matching/term-syntax.ts';
import { author, filters, keyword, labels, post } from './matching-fixtures.ts';

interface Case {
  name: string;
  keywords: KeywordMatchRules[];
  filters?: Record<string, WorkspaceFilters>;
  post: MatchablePost;
  /** Labels of the matches (see labels()): `kw` exact, `kw~` fuzzy. */
  expected: string[];
}

const rust = (rules: Partial<KeywordMatchRules> = {}) => [keyword('kw', 'Rust', rules)];
const reddit = (subreddit: string, text = 'Rust release notes') => post(text, { platform: 'reddit', subreddit, url: `https://www.reddit.com/r/${subreddit}/comments/1/x/` });

const cases: Case[] = [
  // Word boundaries across Unicode (issue 5)
  { name: 'a term matches as a whole word', keywords: rust(), post: post('I love Rust!'), expected: ['kw'] },
  { name: 'a term does not match inside a longer word', keywords: rust(), post: post('Rustic charm'), expected: [] },
  { name: 'a digit continues a word', keywords: rust(), post: post('rust2 is a tool'), expected: [] },
  { name: 'hyphens and apostrophes are boundaries', keywords: rust(), post: post("rust-lang and Rust's borrow checker"), expected: ['kw'] },
  { name: 'letters with accents are word characters', keywords: [keyword('kw', 'Café')], post: post('un café noir'), expected: ['kw'] },
  { name: 'an accent typed as a combining mark is the same letter', keywords: [keyword('kw', 'Café')], post: post('un cafe\u0301 noir'), expected: ['kw'] },
  { name: 'an unaccented spelling is another word', keywords: [keyword('kw', 'Café')], post: post('a cafe nearby'), expected: [] },
  { name: 'a letter after the accented one still glues', keywords: [keyword('kw', 'Café')], post: post('cafés'), expected: [] },
  { name: 'a term is not found inside a longer word after a letter outside ASCII', keywords: [keyword('kw', 'Straße')], post: post('die Großstraße im Zentrum'), expected: [] },
  { name: 'C++ matches before a version number', keywords: [keyword('kw', 'C++')], post: post('we moved to C++20 last year'), expected: ['kw'] },
  { name: 'C++ does not match plain C', keywords: [keyword('kw', 'C++')], post: post('written in C and C#'), expected: [] },
  { name: '.NET matches inside ASP.NET', keywords: [keyword('kw', '.NET')], post: post('ASP.NET Core is fast'), expected: ['kw'] },
  { name: '.NET does not match network', keywords: [keyword('kw', '.NET')], post: post('a .network of friends'), expected: [] },
  { name: 'node.js matches in any case', keywords: [keyword('kw', 'node.js')], post: post('Node.js 22 is out'), expected: ['kw'] },
  { name: 'node.js does not match node.jsx', keywords: [keyword('kw', 'node.js')], post: post('rename it to node.jsx'), expected: [] },
  { name: 'a term in a script without spaces matches inside a sentence', keywords: [keyword('kw', '東京')], post: post('明日東京に行く'), expected: ['kw'] },
  { name: 'a Latin term matches against such a script', keywords: rust(), post: post('Rustを使う'), expected: ['kw'] },
  { name: 'a whitespace run in the post reads as one space', keywords: [keyword('kw', 'vector database')], post: post('a vector\n\n  database'), expected: ['kw'] },

  // caseSensitive
  { name: 'caseSensitive: the exact case matches', keywords: [keyword('kw', 'Go', { caseSensitive: true })], post: post('Go 1.23 is out'), expected: ['kw'] },
  { name: 'caseSensitive: another case does not', keywords: [keyword('kw', 'Go', { caseSensitive: true })], post: post('go home, GO team'), expected: [] },
  { name: 'case-insensitive by default', keywords: [keyword('kw', 'Go')], post: post('GO team'), expected: ['kw'] },

  // exactPhrase and fuzzy matching
  { name: 'an exact phrase matches as written', keywords: [keyword('kw', 'machine learning', { exactPhrase: true })], post: post('Machine Learning at scale'), expected: ['kw'] },
  { name: 'an exact phrase does not match its words apart', keywords: [keyword('kw', 'machine learning', { exactPhrase: true })], post: post('learning about the machine'), expected: [] },
  { name: 'an exact phrase does not match a hyphenated spelling', keywords: [keyword('kw', 'open source', { exactPhrase: true })], post: post('open-source tools'), expected: [] },
  { name: 'fuzzy: the phrase itself is not fuzzy', keywords: [keyword('kw', 'open source')], post: post('we love open source'), expected: ['kw'] },
  { name: 'fuzzy: hyphenated', keywords: [keyword('kw', 'open source')], post: post('open-source tools'), expected: ['kw~'] },
  { name: 'fuzzy: joined', keywords: [keyword('kw', 'open source')], post: post('OpenSource tools'), expected: ['kw~'] },
  { name: 'fuzzy: joined and plural', keywords: [keyword('kw', 'open source')], post: post('two opensources'), expected: ['kw~'] },
  { name: 'fuzzy: any order', keywords: [keyword('kw', 'open source')], post: post('the source is open'), expected: ['kw~'] },
  { name: 'fuzzy: plurals', keywords: [keyword('kw', 'open source')], post: post('sources were open'), expected: ['kw~'] },
  { name: 'fuzzy: a hyphenated term matches its words spaced', keywords: [keyword('kw', 'open-source')], post: post('open source tools'), expected: ['kw~'] },
  { name: 'fuzzy: -ies plurals', keywords: [keyword('kw', 'company search')], post: post('search for companies'), expected: ['kw~'] },
  { name: 'fuzzy: British and American -our/-or', keywords: [keyword('kw', 'colour palette')], post: post('color palettes'), expected: ['kw~'] },
  { name: 'fuzzy: -ise/-ize', keywords: [keyword('kw', 'customise dashboard')], post: post('customize your dashboards'), expected: ['kw~'] },
  { name: 'fuzzy: three words between is close', keywords: [keyword('kw', 'open source')], post: post('open and then the source'), expected: ['kw~'] },
  { name: 'fuzzy: four words between is too far', keywords: [keyword('kw', 'open source')], post: post('open and then at the source'), expected: [] },
  { name: 'fuzzy: a one-word term has no variants', keywords: [keyword('kw', 'analytics')], post: post('an analytic mind'), expected: [] },
  { name: 'fuzzy: a word repeated is still one word', keywords: [keyword('kw', 'talk talk')], post: post('small talk'), expected: [] },
  { name: 'fuzzy: case-sensitive words keep their case', keywords: [keyword('kw', 'Open Source', { caseSensitive: true })], post: post('Source is Open'), expected: ['kw~'] },
  { name: 'fuzzy: case-sensitive words in another case', keywords: [keyword('kw', 'Open Source', { caseSensitive: true })], post: post('source is open'), expected: [] },
  { name: 'fuzzy: a word with symbols keeps its spelling', keywords: [keyword('kw', 'node.js framework')], post: post('frameworks for node.js'), expected: ['kw~'] },

  // requiredTerms and requiredMode
  { name: 'required any: one present', keywords: rust({ requiredTerms: ['api', 'sdk'] }), post: post('Rust SDK released'), expected: ['kw'] },
  { name: 'required any: none present', keywords: rust({ requiredTerms: ['api', 'sdk'] }), post: post('Rust released'), expected: [] },
  { name: 'required all: one missing', keywords: rust({ requiredTerms: ['api', 'sdk'], requiredMode: 'all' }), post: post('Rust SDK released'), expected: [] },
  { name: 'required all: every one present', keywords: rust({ requiredTerms: ['api', 'sdk'], requiredMode: 'all' }), post: post('Rust SDK and API released'), expected: ['kw'] },
  { name: 'required terms are whole words', keywords: rust({ requiredTerms: ['api'] }), post: post('Rust rapid releases'), expected: [] },
  { name: 'required terms follow caseSensitive', keywords: rust({ requiredTerms: ['API'], caseSensitive: true }), post: post('Rust api'), expected: [] },
  // a symbol written as a surrogate pair has no word to be looked for by: the text decides
  { name: 'required: an emoji', keywords: rust({ requiredTerms: ['😀'] }), post: post('Rust 😀 released'), expected: ['kw'] },
  { name: 'required: an emoji glued to a word', keywords: rust({ requiredTerms: ['😀'] }), post: post('Rust😀 released'), expected: ['kw'] },
  { name: 'required: an emoji absent', keywords: rust({ requiredTerms: ['😀'] }), post: post('Rust 😃 released'), expected: [] },
  { name: 'required phrase across a line break', keywords: rust({ requiredTerms: ['release notes'] }), post: post('Rust release\nnotes'), expected: ['kw'] },

  // excludedTerms with wildcards
  { name: 'excluded: a whole word drops the post', keywords: rust({ excludedTerms: ['job'] }), post: post('Rust job in Berlin'), expected: [] },
  { name: 'excluded: only as a whole word', keywords: rust({ excludedTerms: ['job'] }), post: post('Rust jobs in Berlin'), expected: ['kw'] },
  { name: 'excluded foo*: a word starting with foo', keywords: rust({ excludedTerms: ['hir*'] }), post: post('Rust hiring now'), expected: [] },
  { name: 'excluded foo*: not a word merely containing foo', keywords: rust({ excludedTerms: ['hir*'] }), post: post('Rust chiral molecules'), expected: ['kw'] },
  { name: 'excluded *bar: a word ending with bar', keywords: rust({ excludedTerms: ['*coin'] }), post: post('Rust bitcoin wallet'), expected: [] },
  { name: 'excluded *bar: not a word starting with bar', keywords: rust({ excludedTerms: ['*coin'] }), post: post('Rust coinbase wallet'), expected: ['kw'] },
  { name: 'excluded *mid*: a word containing mid', keywords: rust({ excludedTerms: ['*crypt*'] }), post: post('Rust decryption'), expected: [] },
  { name: 'excluded: an emoji', keywords: rust({ excludedTerms: ['🚀'] }), post: post('Rust 🚀 to the moon'), expected: [] },
  { name: 'excluded: an emoji after a word', keywords: rust({ excludedTerms: ['moon 🚀'] }), post: post('Rust to the moon 🚀'), expected: [] },
  { name: 'excluded phrase', keywords: rust({ excludedTerms: ['free trial'] }), post: post('Rust free\ttrial'), expected: [] },
  { name: 'excluded: case-insensitive by default', keywords: rust({ excludedTerms: ['Job'] }), post: post('Rust JOB'), expected: [] },
  { name: 'excluded: caseSensitive keeps case', keywords: rust({ excludedTerms: ['Job'], caseSensitive: true }), post: post('Rust job'), expected: ['kw'] },
  // a wildcard term is first looked for among the words starting (or ending) with its ASCII letters; the term itself decides
  { name: 'excluded foo*: in upper case, the last word of the post', keywords: rust({ excludedTerms: ['hir*'] }), post: post('Rust is HIRING'), expected: [] },
  { name: 'excluded foo*: caseSensitive in its case', keywords: rust({ excludedTerms: ['Hir*'], caseSensitive: true }), post: post('Rust Hiring'), expected: [] },
  { name: 'excluded foo*: caseSensitive in another case', keywords: rust({ excludedTerms: ['Hir*'], caseSensitive: true }), post: post('Rust hiring'), expected: ['kw'] },
  { name: 'excluded foo*: letters past the ASCII ones decide', keywords: rust({ excludedTerms: ['cafés*'] }), post: post('Rust cafeteria'), expected: ['kw'] },
  { name: 'excluded foo*: with its letters past the ASCII ones', keywords: rust({ excludedTerms: ['cafés*'] }), post: post('Rust CAFÉSITO'), expected: [] },
  { name: 'excluded foo*: letters and digits', keywords: rust({ excludedTerms: ['abc12*'] }), post: post('Rust ABC123'), expected: [] },
  { name: 'excluded *bar: the first word of the post', keywords: rust({ excludedTerms: ['*coin'] }), post: post('Bitcoin: Rust'), expected: [] },
  { name: 'excluded *bar: after a non-ASCII letter', keywords: rust({ excludedTerms: ['*coin'] }), post: post('Rust ßcoin'), expected: [] },
  { name: 'excluded *bar: not a word ending in more', keywords: rust({ excludedTerms: ['*coin'] }), post: post('Rust co in coins'), expected: ['kw'] },
  { name: 'excluded *bar: caseSensitive in another case', keywords: rust({ excludedTerms: ['*Coin'], caseSensitive: true }), post: post('Rust bitcoin'), expected: ['kw'] },
  { name: 'excluded wildcard terms far into a long post', keywords: rust({ excludedTerms: ['zig*', '*odin'] }), post: post(`Rust ${'a '.repeat(3000)}zigzag`), expected: [] },
  { name: 'excluded: a lone star excludes nothing', keywords: rust({ excludedTerms: ['*'] }), post: post('Rust'), expected: ['kw'] },
  // a longer rule term is first looked for by its longest whole word; the term itself decides
  { name: 'excluded phrase: its whole word alone does not drop the post', keywords: rust({ excludedTerms: ['hiring now'] }), post: post('Rust hiring soon'), expected: ['kw'] },
  { name: 'excluded phrase: in other case, across a line break', keywords: rust({ excludedTerms: ['hiring now'] }), post: post('Rust HIRING\n  Now'), expected: [] },
  { name: 'excluded phrase: its words in another order', keywords: rust({ excludedTerms: ['hiring now'] }), post: post('now Rust is hiring'), expected: ['kw'] },
  { name: 'excluded phrase: caseSensitive keeps case', keywords: rust({ excludedTerms: ['Hiring Now'], caseSensitive: true }), post: post('Rust hiring now'), expected: ['kw'] },
  { name: 'excluded phrase: caseSensitive in its case', keywords: rust({ excludedTerms: ['Hiring Now'], caseSensitive: true }), post: post('Rust Hiring Now'), expected: [] },
  { name: 'excluded *foo bar: open start, whole last word', keywords: rust({ excludedTerms: ['*ob board'] }), post: post('Rust job board'), expected: [] },
  { name: 'excluded *foo bar: the last word must stand whole', keywords: rust({ excludedTerms: ['*ob board'] }), post: post('Rust job boards'), expected: ['kw'] },
  { name: 'excluded foo bar*: whole first word, open end', keywords: rust({ excludedTerms: ['free tri*'] }), post: post('Rust free trials'), expected: [] },
  { name: 'excluded term with symbols: its word stands whole before them', keywords: rust({ excludedTerms: ['c++ jobs'] }), post: post('Rust and C++ jobs'), expected: [] },
  { name: 'excluded term with symbols: not inside a longer word', keywords: rust({ excludedTerms: ['c++ jobs'] }), post: post('Rust and abc++ jobs'), expected: ['kw'] },
  { name: 'excluded phrase at the very start and end of the post', keywords: rust({ excludedTerms: ['job offer'] }), post: post('job offer: Rust'), expected: [] },
  { name: 'excluded phrase with an accented word, folded', keywords: rust({ excludedTerms: ['café crème'] }), post: post('Rust at the CAFÉ CRÈME'), expected: [] },
  { name: 'required phrase: its whole word alone is not enough', keywords: rust({ requiredTerms: ['release notes'] }), post: post('Rust release soon, notes later'), expected: [] },

  // excludedAuthors in canonical forms
  { name: 'excluded author by @handle on any platform', keywords: rust({ excludedAuthors: ['@spez'] }), post: post('Rust', { platform: 'reddit', author: author({ handle: 'spez' }) }), expected: [] },
  { name: 'excluded author by platform account', keywords: rust({ excludedAuthors: ['bluesky:alice.bsky.social'] }), post: post('Rust', { platform: 'bluesky', author: author({ handle: 'alice.bsky.social', platformId: 'did:plc:abc' }) }), expected: [] },
  { name: 'excluded author by DID', keywords: rust({ excludedAuthors: ['did:plc:abc'] }), post: post('Rust', { platform: 'bluesky', author: author({ handle: 'alice.bsky.social', platformId: 'did:plc:abc' }) }), expected: [] },
  { name: 'excluded author by display name', keywords: rust({ excludedAuthors: ['name:john smith'] }), post: post('Rust', { author: author({ name: 'John  Smith' }) }), expected: [] },
  { name: 'an author not listed passes', keywords: rust({ excludedAuthors: ['@spez', 'x:jack'] }), post: post('Rust', { platform: 'x', author: author({ handle: 'kn0thing' }) }), expected: ['kw'] },
  { name: 'an account on another platform is another author', keywords: rust({ excludedAuthors: ['x:jack'] }), post: post('Rust', { platform: 'bluesky', author: author({ handle: 'jack' }) }), expected: ['kw'] },

  // platforms
  { name: 'platforms: a listed platform', keywords: rust({ platforms: ['reddit'] }), post: reddit('rust'), expected: ['kw'] },
  { name: 'platforms: an unlisted platform', keywords: rust({ platforms: ['reddit'] }), post: post('Rust'), expected: [] },
  { name: 'platforms: [] takes no search platform', keywords: rust({ platforms: [] }), post: post('Rust'), expected: [] },
  { name: 'platforms: reviews are not filtered', keywords: rust({ platforms: [] }), post: post('Rust crashed', { platform: 'appstore' }), expected: ['kw'] },
  { name: 'platforms: feeds are not filtered', keywords: rust({ platforms: ['x'] }), post: post('Rust', { platform: 'rss' }), expected: ['kw'] },

  // subreddits (keyword)
  { name: 'subreddits only: listed', keywords: rust({ subreddits: { only: ['rust'], excluded: [] } }), post: reddit('rust'), expected: ['kw'] },
  { name: 'subreddits only: not listed', keywords: rust({ subreddits: { only: ['rust'], excluded: [] } }), post: reddit('golang'), expected: [] },
  { name: 'subreddits only: other platforms unaffected', keywords: rust({ subreddits: { only: ['rust'], excluded: [] } }), post: post('Rust'), expected: ['kw'] },
  { name: 'subreddits excluded', keywords: rust({ subreddits: { only: [], excluded: ['golang'] } }), post: reddit('golang'), expected: [] },
  { name: 'subreddits: with only set, excluded is ignored', keywords: rust({ subreddits: { only: ['rust'], excluded: ['rust'] } }), post: reddit('rust'), expected: ['kw'] },

  // workspace filters: a post must pass them and the keyword's rules
  { name: 'workspace excluded term', keywords: rust(), filters: { org_a: filters({ excludedTerms: ['crypto'] }) }, post: post('Rust crypto'), expected: [] },
  { name: 'workspace excluded wildcard', keywords: rust(), filters: { org_a: filters({ excludedTerms: ['crypto*'] }) }, post: post('Rust CryptoCurrency'), expected: [] },
  { name: 'another workspace\'s filters do not apply', keywords: rust(), filters: { org_b: filters({ excludedTerms: ['crypto'] }) }, post: post('Rust crypto'), expected: ['kw'] },
  { name: 'workspace excluded author', keywords: rust(), filters: { org_a: filters({ excludedAuthors: ['x:jack'] }) }, post: post('Rust', { platform: 'x', author: author({ handle: 'Jack' }) }), expected: [] },
  { name: 'workspace GitHub repository: an issue', keywords: rust(), filters: { org_a: filters({ githubRepositories: ['acme/widgets'] }) }, post: post('Rust panic', { platform: 'github', url: 'https://github.com/Acme/Widgets/issues/7' }), expected: [] },
  { name: 'workspace GitHub repository: another repository', keywords: rust(), filters: { org_a: filters({ githubRepositories: ['acme/widgets'] }) }, post: post('Rust panic', { platform: 'github', url: 'https://github.com/acme/gadgets/issues/7' }), expected: ['kw'] },
  {
    name: 'workspace GitHub repository: a repository item',
    keywords: rust(),
    filters: { org_a: filters({ githubRepositories: ['acme/widgets'] }) },
    post: post('acme/widgets: Rust widgets', { platform: 'github', url: 'https://github.com/acme/widgets', repository: { fullName: 'Acme/Widgets', stars: 50, starsLastWeek: 5, createdAt: new Date() } }),
    expected: [],
  },
  { name: 'workspace subreddits allowed: others dropped', keywords: rust({ subreddits: { only: ['golang'], excluded: [] } }), filters: { org_a: filters({ subreddits: { allowed: ['rust'], denied: [] } }) }, post: reddit('golang'), expected: [] },
  { name: 'workspace subreddits denied', keywords: rust(), filters: { org_a: filters({ subreddits: { allowed: [], denied: ['golang'] } }) }, post: reddit('golang'), expected: [] },
  { name: 'workspace subreddits allowed and keyword only agree', keywords: rust({ subreddits: { only: ['rust'], excluded: [] } }), filters: { org_a: filters({ subreddits: { allowed: ['rust'], denied: [] } }) }, post: reddit('rust'), expected: ['kw'] },

  // repository events (spec 2.1.3)
  {
    name: 'repository event that passes',
    keywords: [keyword('kw', 'widgets')],
    post: post('acme/widgets: tiny widgets', { platform: 'github', repositoryEvent: { kind: 'traction', stars: 12, weeklyStars: 3 } }),
    expected: ['kw'],
  },
  {
    name: 'repository event outside the rule',
    keywords: [keyword('kw', 'widgets')],
    post: post('acme/widgets: tiny widgets', { platform: 'github', repositoryEvent: { kind: 'new', stars: 0, weeklyStars: 0 } }),
    expected: [],
  },
  {
    name: 'repository event that passes but does not name the term',
    keywords: [keyword('kw', 'gadgets')],
    post: post('acme/widgets: tiny widgets', { platform: 'github', repositoryEvent: { kind: 'traction', stars: 12, weeklyStars: 3 } }),
    expected: [],
  },
  { name: 'a GitHub issue has no event to pass', keywords: [keyword('kw', 'widgets', { repositories: { events: [], minStars: null, minWeeklyStars: null } })], post: post('widgets crash', { platform: 'github' }), expected: ['kw'] },

  // many keywords, one post
  {
    name: 'a term shared by many keywords, each judged by its own rules and workspace',
    keywords: [
      keyword('plain', 'Rust'),
      keyword('other-platform', 'Rust', { workspaceId: 'org_b', platforms: ['x'] }),
      keyword('this-platform', 'Rust', { workspaceId: 'org_b', platforms: ['x', 'hackernews'] }),
      keyword('needs-api', 'Rust', { workspaceId: 'org_c', requiredTerms: ['api'] }),
      keyword('drops-job', 'Rust', { workspaceId: 'org_c', excludedTerms: ['job*'] }),
      keyword('filtered', 'Rust', { workspaceId: 'org_d' }),
      keyword('also-filtered', 'RUST', { workspaceId: 'org_d', exactPhrase: true }),
    ],
    filters: { org_d: filters({ excludedTerms: ['jobs'] }) },
    post: post('Rust jobs board, rust at the start and the end: RUST'),
    expected: ['plain', 'this-platform'],
  },
  {
    name: 'a term at the very start and the very end of the post',
    keywords: [keyword('start', 'Zig'), keyword('end', 'Odin lang')],
    post: post('Zig or Odin lang'),
    expected: ['end', 'start'],
  },
  { name: 'a term that is the whole post', keywords: [keyword('kw', 'vector database')], post: post('Vector Database'), expected: ['kw'] },
  { name: 'unicode case folding: a term in capitals with accents', keywords: [keyword('kw', 'ÉCOLE Ångström')], post: post('à l\'école ångström'), expected: ['kw'] },
  { name: 'unicode case folding: Cyrillic capitals fold; Greek capitals drop the accent, another spelling', keywords: [keyword('greek', 'Αθήνα'), keyword('cyrillic', 'МОСКВА')], post: post('από την ΑΘΗΝΑ στη москва'), expected: ['cyrillic'] },
  {
    name: 'one term in two workspaces, each with its own rules',
    keywords: [keyword('a', 'Rust', { excludedTerms: ['job'] }), keyword('b', 'Rust', { workspaceId: 'org_b' })],
    post: post('Rust job'),
    expected: ['b'],
  },
  {
    name: 'rule words past the thousandth word of a long post',
    keywords: [keyword('needs-zig', 'Rust', { requiredTerms: ['zig'] }), keyword('drops-odin', 'Rust', { workspaceId: 'org_b', excludedTerms: ['odin'] })],
    post: post(`${'a '.repeat(3000)}Rust, zig and odin`),
    expected: ['needs-zig'],
  },
  {
    name: 'an exact and a fuzzy keyword on one post',
    keywords: [keyword('exact', 'Rust'), keyword('fuzzy', 'source open')],
    post: post('Rust is open source'),
    expected: ['exact', 'fuzzy~'],
  },
];

describe('matching rules (posts × rules)', () => {
  it.each(cases)('$name', ({ keywords, filters: workspaceFilters, post: given, expected }) => {
    const filterMap = new Map(Object.entries(workspaceFilters ?? {}));
    expect(labels(createMatcher(keywords, filterMap).match(given))).toEqual(expected);
    expect(labels(createReferenceMatcher(keywords, filterMap).match(given))).toEqual(expected);
  });
});

describe('repositoryEventPasses (spec 2.1.3)', () => {
  const rules = (overrides: Partial<RepositoryRules> = {}): RepositoryRules => ({ events: ['traction', 'stars', 'growth'], minStars: null, minWeeklyStars: null, ...overrides });
  it.each([
    { name: 'an event in the list', rules: rules(), event: { kind: 'stars', stars: 120, weeklyStars: null }, passes: true },
    { name: 'an event outside the list', rules: rules(), event: { kind: 'new', stars: 500, weeklyStars: 400 }, passes: false },
    { name: 'an empty list takes nothing', rules: rules({ events: [] }), event: { kind: 'traction', stars: 10, weeklyStars: 10 }, passes: false },
    { name: 'minStars holds', rules: rules({ minStars: 100 }), event: { kind: 'stars', stars: 100, weeklyStars: null }, passes: true },
    { name: 'minStars fails', rules: rules({ minStars: 100 }), event: { kind: 'traction', stars: 99, weeklyStars: 50 }, passes: false },
    { name: 'growth needs 100 stars', rules: rules(), event: { kind: 'growth', stars: 99, weeklyStars: 99 }, passes: false },
    { name: 'growth needs 20% in a week', rules: rules(), event: { kind: 'growth', stars: 1000, weeklyStars: 199 }, passes: false },
    { name: 'growth at 100 stars and 20%', rules: rules(), event: { kind: 'growth', stars: 100, weeklyStars: 20 }, passes: true },
    { name: 'growth with an unknown week', rules: rules(), event: { kind: 'growth', stars: 5000, weeklyStars: null }, passes: false },
    { name: 'other events need no growth', rules: rules(), event: { kind: 'traction', stars: 10, weeklyStars: 0 }, passes: true },
    { name: 'minWeeklyStars applies to every event', rules: rules({ minWeeklyStars: 25 }), event: { kind: 'traction', stars: 10, weeklyStars: 24 }, passes: false },
    { name: 'minWeeklyStars met', rules: rules({ minWeeklyStars: 25 }), event: { kind: 'stars', stars: 300, weeklyStars: 25 }, passes: true },
    { name: 'minWeeklyStars: an unknown week does not pass', rules: rules({ minWeeklyStars: 25 }), event: { kind: 'stars', stars: 300, weeklyStars: null }, passes: false },
    { name: 'minWeeklyStars replaces the growth rule', rules: rules({ minWeeklyStars: 25 }), event: { kind: 'growth', stars: 1000, weeklyStars: 30 }, passes: true },
    { name: 'minStars and minWeeklyStars together', rules: rules({ minStars: 500, minWeeklyStars: 25 }), event: { kind: 'growth', stars: 400, weeklyStars: 300 }, passes: false },
  ] as const)('$name', ({ rules: given, event, passes }) => {
    expect(repositoryEventPasses(given, event)).toBe(passes);
  });
});

describe('parseTerm (spec 2.1)', () => {
  it.each([
    { raw: '"open source"', parsed: { term: 'open source', exactPhrase: true } },
    { raw: '\u201copen source\u201d', parsed: { term: 'open source', exactPhrase: true } },
    { raw: '  open   source ', parsed: { term: 'open source', exactPhrase: false } },
    { raw: 'say "hi"', parsed: { term: 'say "hi"', exactPhrase: false } },
    { raw: '"', parsed: { term: '"', exactPhrase: false } },
  ])('$raw', ({ raw, parsed }) => {
    expect(parseTerm(raw)).toEqual(parsed);
  });
});
