import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keywordFields } from '../rest-facade/routes/keywords.ts';
import { feedInput } from '../subgraphs/keywords/keyword-input.ts';
import { type FakeUpstream, startFakeServer } from './fake-upstreams/fake-server.ts';
import { startTestEarshot, type TestEarshot } from './harness.ts';

let earshot: TestEarshot;
let feeds: FakeUpstream;
let key: string;
let keywordId: string;

const rss = `<?xml version="1.0"?><rss version="2.0"><channel><title>Feed</title><link>https://acme.com</link><description>d</description></channel></rss>`;

beforeAll(async () => {
  feeds = await startFakeServer(() => ({ headers: { 'content-type': 'application/rss+xml' }, body: rss }));
  // The feeds live on a loopback fake, which feed checks refuse unless told otherwise (operating contract).
  earshot = await startTestEarshot({ env: { EARSHOT_ALLOW_PRIVATE_URLS: '1' } });
  key = (await earshot.createWorkspace()).apiKey;
  keywordId = (await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'acme' } })).body.id;
});
afterAll(async () => {
  await earshot?.stop();
  await feeds?.close();
});

const items = <T,>(count: number, make: (index: number) => T): T[] => Array.from({ length: count }, (_, index) => make(index));
const feedUrl = (path: string) => `${feeds.url}/${path}`;
const countries = ['us', 'gb', 'de', 'fr', 'it', 'es', 'nl', 'se', 'no', 'dk', 'fi', 'pl', 'pt', 'ie', 'at', 'ch', 'be', 'cz', 'jp', 'br', 'ca'];

interface Bound {
  name: string;
  body: Record<string, unknown>;
  /** The field a validation_error names; absent when the value is inside its bounds. */
  field?: string;
  /** For an accepted value: what the keyword then shows. */
  stored?: (keyword: any) => unknown;
  expected?: unknown;
}

const inside = (name: string, body: Record<string, unknown>, stored: (keyword: any) => unknown, expected: unknown): Bound => ({ name, body, stored, expected });
const outside = (name: string, body: Record<string, unknown>, field: string): Bound => ({ name, body, field });
const matching = (rules: Record<string, unknown>) => ({ matching: rules });

// Spec part 8 and 2.1.x: each bound just inside and just outside.
const bounds: Bound[] = [
  inside('term of 2 characters', { term: 'ab' }, (k) => k.term, 'ab'),
  inside('term of 80 characters', { term: 't'.repeat(80) }, (k) => k.term, 't'.repeat(80)),
  inside('quoted term of 80 characters inside its quotes', { term: `"${'q'.repeat(80)}"` }, (k) => [k.term, k.matching.exactPhrase], ['q'.repeat(80), true]),
  outside('term of 1 character', { term: 'a' }, 'term'),
  // A character is a code point: an emoji (two UTF-16 units) counts once, as in every other bound.
  inside('term of 80 characters outside the BMP', { term: '🦊'.repeat(80) }, (k) => k.term, '🦊'.repeat(80)),
  outside('term of 81 characters outside the BMP', { term: '🦊'.repeat(81) }, 'term'),
  outside('term of 1 character outside the BMP', { term: '🦊' }, 'term'),
  outside('term of 81 characters', { term: 't'.repeat(81) }, 'term'),
  inside('context of 300 characters', { context: 'c'.repeat(300) }, (k) => k.context, 'c'.repeat(300)),
  outside('context of 301 characters', { context: 'c'.repeat(301) }, 'context'),
  inside('cap.mentions 1', { cap: { mentions: 1 } }, (k) => k.cap.own, 1),
  inside('cap.mentions 1,000,000', { cap: { mentions: 1_000_000 } }, (k) => k.cap.own, 1_000_000),
  outside('cap.mentions 0', { cap: { mentions: 0 } }, 'cap.mentions'),
  outside('cap.mentions 1,000,001', { cap: { mentions: 1_000_001 } }, 'cap.mentions'),
  inside('comments.maxPerPost 1', { comments: { maxPerPost: 1 } }, (k) => k.comments.maxPerPost, 1),
  inside('comments.maxPerPost 100', { comments: { maxPerPost: 100 } }, (k) => k.comments.maxPerPost, 100),
  outside('comments.maxPerPost 0', { comments: { maxPerPost: 0 } }, 'comments.maxPerPost'),
  outside('comments.maxPerPost 101', { comments: { maxPerPost: 101 } }, 'comments.maxPerPost'),
  ...(['requiredTerms', 'excludedTerms'] as const).flatMap((list) => [
    inside(`50 ${list}`, matching({ [list]: items(50, (i) => `term${i}`) }), (k) => k.matching[list].length, 50),
    outside(`51 ${list}`, matching({ [list]: items(51, (i) => `term${i}`) }), `matching.${list}`),
    inside(`${list} entry of 80 characters`, matching({ [list]: ['e'.repeat(80)] }), (k) => k.matching[list], ['e'.repeat(80)]),
    outside(`${list} entry of 81 characters`, matching({ [list]: ['ok', 'e'.repeat(81)] }), `matching.${list}.1`),
  ]),
  inside('100 excludedAuthors', matching({ excludedAuthors: items(100, (i) => `@author${i}`) }), (k) => k.matching.excludedAuthors.length, 100),
  outside('101 excludedAuthors', matching({ excludedAuthors: items(101, (i) => `@author${i}`) }), 'matching.excludedAuthors'),
  inside('excludedAuthors entry of 500 characters', matching({ excludedAuthors: ['n'.repeat(500)] }), (k) => k.matching.excludedAuthors, [`name:${'n'.repeat(500)}`]),
  outside('excludedAuthors entry of 501 characters', matching({ excludedAuthors: ['n'.repeat(501)] }), 'matching.excludedAuthors.0'),
  ...(['only', 'excluded'] as const).flatMap((list) => [
    inside(`50 subreddits.${list}`, matching({ subreddits: { [list]: items(50, (i) => `sub${i}`) } }), (k) => k.matching.subreddits[list].length, 50),
    outside(`51 subreddits.${list}`, matching({ subreddits: { [list]: items(51, (i) => `sub${i}`) } }), `matching.subreddits.${list}`),
    inside(`subreddits.${list} entry of 100 characters`, matching({ subreddits: { [list]: ['s'.repeat(100)] } }), (k) => k.matching.subreddits[list], ['s'.repeat(100)]),
    outside(`subreddits.${list} entry of 101 characters`, matching({ subreddits: { [list]: ['s'.repeat(101)] } }), `matching.subreddits.${list}.0`),
    // Stripped of its prefix, `r/` would be stored as an empty name that no post's subreddit equals.
    outside(`subreddits.${list} entry "r/" naming no subreddit`, matching({ subreddits: { [list]: ['rust', 'r/'] } }), `matching.subreddits.${list}.1`),
  ]),
  inside('minStars 0', matching({ repositories: { minStars: 0 } }), (k) => k.matching.repositories.minStars, 0),
  inside('minStars 1,000,000', matching({ repositories: { minStars: 1_000_000 } }), (k) => k.matching.repositories.minStars, 1_000_000),
  outside('minStars -1', matching({ repositories: { minStars: -1 } }), 'matching.repositories.minStars'),
  outside('minStars 1,000,001', matching({ repositories: { minStars: 1_000_001 } }), 'matching.repositories.minStars'),
  inside('minWeeklyStars 25', matching({ repositories: { minWeeklyStars: 25 } }), (k) => k.matching.repositories.minWeeklyStars, 25),
  inside('minWeeklyStars 1,000,000', matching({ repositories: { minWeeklyStars: 1_000_000 } }), (k) => k.matching.repositories.minWeeklyStars, 1_000_000),
  outside('minWeeklyStars 24', matching({ repositories: { minWeeklyStars: 24 } }), 'matching.repositories.minWeeklyStars'),
  outside('minWeeklyStars 1,000,001', matching({ repositories: { minWeeklyStars: 1_000_001 } }), 'matching.repositories.minWeeklyStars'),
  inside(
    '10 reviewSources',
    { reviewSources: items(10, (i) => ({ platform: 'trustpilot', id: `acme${i}.com` })) },
    (k) => k.reviewSources.map((source: { id: string }) => source.id),
    items(10, (i) => `acme${i}.com`),
  ),
  outside('11 reviewSources', { reviewSources: items(11, (i) => ({ platform: 'trustpilot', id: `acme${i}.com` })) }, 'reviewSources'),
  inside('20 countries', { reviewSources: [{ platform: 'appstore', id: '284882215', countries: countries.slice(0, 20) }] }, (k) => k.reviewSources[0].countries, countries.slice(0, 20)),
  outside('21 countries', { reviewSources: [{ platform: 'appstore', id: '284882215', countries }] }, 'reviewSources.0.countries'),
  outside('no countries', { reviewSources: [{ platform: 'appstore', id: '284882215', countries: [] }] }, 'reviewSources.0.countries'),
];

// Feeds need the fake feed server's address, known only once it runs.
const feedBounds = (): Bound[] => [
  inside('20 feeds', { feeds: items(20, (i) => ({ url: feedUrl(`feed${i}.xml`) })) }, (k) => k.feeds.length, 20),
  outside('21 feeds', { feeds: items(21, (i) => ({ url: feedUrl(`feed${i}.xml`) })) }, 'feeds'),
  inside('feed url of 500 characters', { feeds: [{ url: feedUrl('f'.repeat(500 - feeds.url.length - 1)) }] }, (k) => k.feeds[0].url.length, 500),
  outside('feed url of 501 characters', { feeds: [{ url: feedUrl('f'.repeat(501 - feeds.url.length - 1)) }] }, 'feeds.0.url'),
  outside('feed url of 3 characters', { feeds: [{ url: 'a:/' }] }, 'feeds.0.url'),
];

const graphqlUpdate = `mutation ($id: ID!, $input: KeywordPatchInput!) { updateKeyword(id: $id, input: $input) { ${keywordFields} } }`;

/** One PATCH over REST or GraphQL, as `{ keyword }` or `{ code, field }`. */
async function patch(transport: 'REST' | 'GraphQL', body: Record<string, unknown>) {
  if (transport === 'REST') {
    const response = await earshot.rest('PATCH', `/v1/keywords/${keywordId}`, { key, body });
    if (response.status === 200) return { keyword: response.body };
    expect(response.status).toBe(400);
    return { code: response.body.error.code, field: response.body.error.field };
  }
  const response = await earshot.graphql(graphqlUpdate, { id: keywordId, input: body }, key);
  if (!response.body.errors) return { keyword: response.body.data.updateKeyword };
  return { code: response.body.errors[0].extensions.code, field: response.body.errors[0].extensions.field };
}

describe.each(['REST', 'GraphQL'] as const)('keyword bounds over %s', (transport) => {
  const run = async (bound: Bound) => {
    const outcome = await patch(transport, bound.body);
    if (bound.field) {
      expect(outcome).toEqual({ code: 'validation_error', field: bound.field });
    } else {
      expect(outcome.keyword).toBeDefined();
      expect(bound.stored!(outcome.keyword)).toEqual(bound.expected);
    }
  };

  it.each(bounds)('$name', run);

  it('takes 20 feeds and URLs up to 500 characters, refusing 21 feeds and URLs of 3 or 501', async () => {
    for (const bound of feedBounds()) await run(bound);
  });
});

describe('keyword bounds on create', () => {
  it.each([
    ['ab', 201],
    ['t'.repeat(80), 201],
    ['a', 400],
    ['t'.repeat(81), 400],
    ['""', 400],
  ])('answers the term %s with %i', async (term, status) => {
    const response = await earshot.rest('POST', '/v1/keywords', { key, body: { term } });
    expect(response.status).toBe(status);
    if (status === 400) expect(response.body.error).toMatchObject({ code: 'validation_error', field: 'term' });
    else expect(response.body.term).toBe(term);
  });

  it('refuses a create without a term, naming it', async () => {
    const response = await earshot.rest('POST', '/v1/keywords', { key, body: { kind: 'brand' } });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'validation_error', field: 'term' });
  });

  it('holds a feed URL of 4 characters within its length bound (spec part 8)', () => {
    expect(feedInput.safeParse({ url: 'a://' }).success).toBe(true);
    expect(feedInput.safeParse({ url: 'a:/' }).success).toBe(false);
  });
});
