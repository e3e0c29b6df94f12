import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchPlatforms } from '../vocabulary/normalized-post.ts';
import { type FakeUpstream, startFakeServer } from './fake-upstreams/fake-server.ts';
import { startTestEarshot, type TestEarshot } from './harness.ts';

let earshot: TestEarshot;
let feeds: FakeUpstream;
let key: string;
let keywordId: string;
let groupIds: string[];
/** The keyword as the last GET showed it: every run reads it after its PATCH, so the next run starts from it. */
let lastSeen: Record<string, unknown>;

const rss = `<?xml version="1.0"?><rss version="2.0"><channel><title>Feed</title><link>https://acme.com</link><description>d</description></channel></rss>`;

beforeAll(async () => {
  feeds = await startFakeServer(() => ({ headers: { 'content-type': 'application/rss+xml' }, body: rss }));
  // The feeds live on a loopback fake, which feed checks refuse unless told otherwise (operating contract).
  earshot = await startTestEarshot({ env: { EARSHOT_ALLOW_PRIVATE_URLS: '1' } });
  key = (await earshot.createWorkspace()).apiKey;
  const other = await earshot.rest('POST', '/v1/groups', { key, body: { name: 'Other' } });
  const keyword = await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'acme' } });
  await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'widget' } });
  await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'acme', groupId: other.body.id } });
  keywordId = keyword.body.id;
  groupIds = [keyword.body.group.id, other.body.id];
  lastSeen = keyword.body;
});
afterAll(async () => {
  await earshot?.stop();
  await feeds?.close();
});

const topLevelFields = ['term', 'kind', 'muted', 'platforms', 'context', 'matching', 'cap', 'comments', 'groupId', 'reviewSources', 'feeds'];
const matchingFields = ['requiredTerms', 'requiredMode', 'excludedTerms', 'excludedAuthors', 'caseSensitive', 'exactPhrase', 'subreddits', 'repositories'];
const items = <T,>(count: number, make: (index: number) => T): T[] => Array.from({ length: count }, (_, index) => make(index));

// A well-formed PATCH body: any subset of the writable fields, each inside its bounds.
const nonBlank = (maxLength: number) => fc.string({ minLength: 1, maxLength }).filter((value) => value.trim().length > 0);
const wellFormed = fc.record(
  {
    term: fc.oneof(fc.constantFrom('acme', 'ACME', 'Widget', '"acme cloud"'), fc.stringMatching(/^[a-z][a-z ]{0,20}[a-z]$/)),
    kind: fc.constantFrom('brand', 'competitor', 'topic'),
    muted: fc.boolean(),
    platforms: fc.oneof(fc.constant(null), fc.subarray([...searchPlatforms])),
    context: fc.oneof(fc.constant(null), fc.string({ maxLength: 300 })),
    matching: fc.record(
      {
        requiredTerms: fc.oneof(fc.constant(null), fc.array(nonBlank(80), { maxLength: 50 })),
        requiredMode: fc.constantFrom('any', 'all'),
        excludedTerms: fc.array(fc.oneof(nonBlank(80), fc.constantFrom('*spam', 'job*')), { maxLength: 50 }),
        excludedAuthors: fc.array(fc.constantFrom('@alice', 'u/bob', 'https://x.com/carol', 'did:plc:abc', 'Jane Doe'), { maxLength: 100 }),
        caseSensitive: fc.boolean(),
        exactPhrase: fc.boolean(),
        subreddits: fc.record(
          { only: fc.array(fc.stringMatching(/^(r\/)?[A-Za-z0-9_]{1,21}$/), { maxLength: 50 }), excluded: fc.oneof(fc.constant(null), fc.array(fc.stringMatching(/^[a-z0-9_]{1,21}$/), { maxLength: 50 })) },
          { requiredKeys: [] },
        ),
        repositories: fc.record(
          {
            events: fc.subarray(['new', 'traction', 'stars', 'growth']),
            minStars: fc.oneof(fc.constant(null), fc.integer({ min: 0, max: 1_000_000 })),
            minWeeklyStars: fc.oneof(fc.constant(null), fc.integer({ min: 25, max: 1_000_000 })),
          },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: [] },
    ),
    cap: fc.oneof(fc.constant(null), fc.record({ mentions: fc.integer({ min: 1, max: 1_000_000 }), per: fc.constantFrom('day', 'week', 'month') }, { requiredKeys: ['mentions'] })),
    comments: fc.record({ enabled: fc.boolean(), maxPerPost: fc.integer({ min: 1, max: 100 }) }, { requiredKeys: [] }),
    groupId: fc.constantFrom(0, 1).map((index) => groupIds[index]),
    reviewSources: fc.array(
      fc.oneof(
        fc.record({ platform: fc.constant('trustpilot'), id: fc.stringMatching(/^[a-z]{1,12}\.com$/) }),
        fc.record({ platform: fc.constant('appstore'), id: fc.constant('284882215'), countries: fc.subarray(['us', 'gb', 'de', 'fr'], { minLength: 1 }) }),
      ),
      { maxLength: 10 },
    ),
    feeds: fc.array(fc.nat(25).map((n) => ({ url: `${feeds.url}/feed${n}.xml` })), { maxLength: 20 }),
  },
  { requiredKeys: [] },
);

// What breaks a body: a wrong type or null anywhere, a value just past a bound, an unknown field.
const junk = fc.oneof(fc.anything({ maxDepth: 2 }), fc.constant(null), fc.string({ unit: 'binary', maxLength: 20 }));
const junkField = fc.record({ field: fc.constantFrom(...topLevelFields), value: junk }).map(({ field, value }) => ({ [field]: value }));
const junkMatchingField = fc.record({ field: fc.constantFrom(...matchingFields), value: junk }).map(({ field, value }) => ({ matching: { [field]: value } }));
const pastABound = fc.constantFrom<Record<string, unknown>>(
  { term: 'a' },
  { term: 't'.repeat(81) },
  { kind: 'person' },
  { platforms: ['myspace'] },
  { context: 'c'.repeat(301) },
  { cap: { mentions: 0 } },
  { cap: { mentions: 1_000_001 } },
  { cap: { per: 'week' } },
  { cap: { mentions: 5, per: 'year' } },
  { comments: { maxPerPost: 0 } },
  { comments: { maxPerPost: 101 } },
  { matching: { requiredTerms: items(51, (i) => `t${i}`) } },
  { matching: { excludedTerms: ['e'.repeat(81)] } },
  { matching: { excludedAuthors: items(101, (i) => `@a${i}`) } },
  { matching: { excludedAuthors: ['n'.repeat(501)] } },
  { matching: { subreddits: { only: items(51, (i) => `s${i}`) } } },
  { matching: { subreddits: { excluded: ['s'.repeat(101)] } } },
  { matching: { repositories: { minStars: -1 } } },
  { matching: { repositories: { minStars: 1_000_001 } } },
  { matching: { repositories: { minWeeklyStars: 24 } } },
  { matching: { repositories: { events: ['forks'] } } },
  { reviewSources: items(11, (i) => ({ platform: 'trustpilot', id: `a${i}.com` })) },
  { reviewSources: [{ platform: 'appstore', id: '1', countries: items(21, (i) => String.fromCharCode(97 + i).repeat(2)) }] },
  { reviewSources: [{ platform: 'trustpilot', id: 'acme.com', countries: ['us'] }] },
  { reviewSources: [{ url: 'https://example.com/not-a-review-page' }] },
  { feeds: items(21, (i) => ({ url: `https://acme.com/feed${i}` })) },
  { feeds: [{ url: 'a:/' }] },
  { feeds: [{ url: `https://acme.com/${'f'.repeat(490)}` }] },
  { groupId: 'grp_00000000000000000000000000' },
);
// Text PostgreSQL cannot store: NUL characters anywhere a string goes.
const nulInText = fc.constantFrom<Record<string, unknown>>(
  { term: 'nul\u0000term' },
  { context: 'nul\u0000context' },
  { matching: { requiredTerms: ['nul\u0000'] } },
  { matching: { excludedAuthors: ['Jane\u0000Doe'] } },
  { matching: { subreddits: { only: ['r/nul\u0000'] } } },
  { reviewSources: [{ platform: 'trustpilot', id: 'acme\u0000.com' }] },
  { groupId: 'grp_\u0000' },
);
const unknownField = fc.dictionary(
  fc.string({ minLength: 1, maxLength: 8 }).filter((name) => !topLevelFields.includes(name)),
  junk,
  { minKeys: 1, maxKeys: 2 },
);

const withBreak = ([body, broken]: [Record<string, any>, Record<string, any>]) => {
  const merged: Record<string, unknown> = { ...body, ...broken };
  const bothObjects = [body.matching, broken.matching].every((value) => value !== null && typeof value === 'object' && !Array.isArray(value));
  if (bothObjects) merged.matching = { ...body.matching, ...broken.matching };
  return merged;
};

const patchBody = fc.oneof(
  { weight: 9, arbitrary: wellFormed },
  { weight: 9, arbitrary: fc.tuple(wellFormed, fc.oneof(junkField, junkMatchingField, pastABound, nulInText, unknownField)).map(withBreak) },
  { weight: 2, arbitrary: junk },
);

/** The keyword as a client compares it: stats and polling move on their own with time and workers. */
const comparable = (keyword: Record<string, unknown>) => {
  const { stats: _stats, polling: _polling, ...rest } = keyword;
  return rest;
};

describe('keyword PATCH with random bodies', () => {
  it('answers 200 or a 4xx envelope, never 5xx, and a failed PATCH changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(patchBody, async (body) => {
        const before = lastSeen;
        const response = await earshot.rest('PATCH', `/v1/keywords/${keywordId}`, { key, body: JSON.stringify(body) ?? 'null' });
        const after = await earshot.rest('GET', `/v1/keywords/${keywordId}`, { key });
        expect(after.status).toBe(200);
        lastSeen = after.body;
        if (response.status === 200) {
          expect(comparable(after.body)).toEqual(comparable(response.body));
        } else {
          expect(response.status).toBeGreaterThanOrEqual(400);
          expect(response.status).toBeLessThan(500);
          expect(response.body).toEqual({
            error: {
              code: expect.stringMatching(/^[a-z_]+$/),
              message: expect.any(String),
              requestId: response.headers.get('x-request-id'),
              ...(response.body.error.field !== undefined ? { field: response.body.error.field } : {}),
            },
          });
          expect(comparable(after.body)).toEqual(comparable(before));
        }
      }),
      { numRuns: 120 },
    );
  }, 120_000);

  it('answers GraphQL clients with a stated error code, never internal_error', async () => {
    const update = 'mutation ($id: ID!, $input: KeywordPatchInput!) { updateKeyword(id: $id, input: $input) { id } }';
    await fc.assert(
      fc.asyncProperty(patchBody, async (input) => {
        const response = await earshot.graphql(update, { id: keywordId, input }, key);
        expect(response.status).toBeLessThan(500);
        for (const error of response.body.errors ?? []) {
          expect(error.extensions?.code).not.toBe('internal_error');
          expect(error.extensions?.code).not.toBe('INTERNAL_SERVER_ERROR');
        }
      }),
      { numRuns: 40 },
    );
  }, 60_000);
});
