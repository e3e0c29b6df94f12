import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provisionWorkspace } from '../subgraphs/team/workspace-provisioning.ts';
import { startTestEarshot, type TestEarshot } from './harness.ts';
import { type MentionSeed, seedMentions } from './mention-seeds.ts';

/**
 * Every filter of spec 4.3 on `GET /v1/mentions`, one table of queries and
 * the mentions each must show, over eight mentions that differ in every
 * attribute a filter reads.
 */

let earshot: TestEarshot;
let key: string;
let ownerId: string;
const ids: Record<string, string> = {};
const letterOf = new Map<string, string>();
let kw1: string;
let kw2: string;
let negativeRule: string;
let otherKeyword: string;

const day = (date: string) => new Date(`${date}T12:00:00Z`);

beforeAll(async () => {
  earshot = await startTestEarshot();
  const created = await provisionWorkspace(earshot.sql, 'Filters', { ownerEmail: 'ada@filters.example' });
  key = created.apiKey;
  ownerId = created.owner!.id;
  const workspaceId = created.workspace.id;
  kw1 = (await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'Acme', platforms: [] } })).body.id;
  kw2 = (await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'Widget', platforms: [] } })).body.id;
  const future = new Date(Date.now() + 86_400_000);
  const past = new Date(Date.now() - 86_400_000);
  const seeds: Record<string, MentionSeed> = {
    A: {
      keywordId: kw1, platform: 'reddit', text: 'Acme rocks 100% of the time', links: ['https://www.github.com/acme/x'], publishedAt: day('2026-01-10'),
      author: { name: 'Ann Lee', handle: 'ann', url: 'https://reddit.com/u/ann', followers: 5000, tags: ['vip'] },
      score: { relevance: 90, sentiment: 'positive', intents: ['praise'], language: 'en', priority: 50 },
    },
    B: {
      keywordId: kw1, platform: 'hackernews', text: 'Acme_broke again', links: ['https://docs.github.com/y', 'https://example.org/z'], replyTo: 'hn-parent',
      publishedAt: day('2026-02-01'), author: { name: 'Bob', handle: 'bob', followers: 10 },
      score: { relevance: 60, sentiment: 'negative', intents: ['complaint', 'question'], automated: true, language: 'de', priority: 80 },
    },
    C: {
      keywordId: kw2, platform: 'bluesky', text: 'a quiet mention of widget', publishedAt: day('2026-03-01'), author: { name: 'Cy', handle: 'cy.bsky.social', followers: null },
      score: { relevance: 20, sentiment: 'neutral', automated: null, language: null, priority: 5 },
    },
    D: { keywordId: kw2, platform: 'x', text: 'WIDGET launch day', links: ['https://gitlab.com/z'], publishedAt: day('2026-03-15'), author: { name: 'Dee', handle: 'dee', followers: 200 } },
    E: {
      keywordId: kw1, platform: 'reddit', text: 'Acme support was slow', publishedAt: day('2026-01-20'), author: { name: 'Eve', handle: 'eve', followers: 300, tags: ['customer'] },
      score: { relevance: 80, sentiment: 'positive', intents: ['complaint'], language: 'en', priority: 40 },
      verdict: { relevant: false, sentiment: 'negative' },
      triage: { status: 'done', assigneeId: ownerId },
    },
    F: {
      keywordId: kw2, platform: 'reddit', text: 'Widget or Acme?', publishedAt: day('2026-02-10'), author: { name: 'Fay', handle: 'fay', followers: 1000 },
      score: { relevance: 95, sentiment: 'neutral', intents: ['comparison'], language: 'en', priority: 90 },
      triage: { status: 'ignored', snoozedUntil: future },
    },
    G: {
      keywordId: kw1, platform: 'devto', text: 'Écrire avec Acme', links: ['http://blog.acme.dev/post'], publishedAt: day('2026-02-20'),
      author: { name: 'Gus', handle: 'gus', url: 'https://dev.to/gus', followers: 0 },
      score: { relevance: 70, sentiment: 'positive', intents: ['buy_intent'], language: 'fr', priority: 70 },
      triage: { snoozedUntil: past, assigneeId: ownerId, note: 'call back' },
    },
    H: {
      keywordId: kw1, platform: 'youtube', text: 'acme review', publishedAt: day('2026-03-05'), author: { name: 'Hal', handle: 'hal', followers: 1_000_000 },
      score: { relevance: 30, sentiment: 'negative', intents: ['question'], language: 'en', priority: 20 },
      verdict: { relevant: true },
    },
  };
  const stored = await seedMentions(earshot.sql, workspaceId, Object.values(seeds));
  for (const [i, letter] of Object.keys(seeds).entries()) {
    ids[letter] = stored[i];
    letterOf.set(stored[i], letter);
  }
  // Another workspace's mention passes every filter below that names no id; it must never show.
  const other = await earshot.createWorkspace('Elsewhere');
  otherKeyword = (await earshot.rest('POST', '/v1/keywords', { key: other.apiKey, body: { term: 'Acme', platforms: [] } })).body.id;
  await seedMentions(earshot.sql, other.workspace.id, [{ ...seeds.A, keywordId: otherKeyword, author: { ...seeds.A.author, handle: 'ann2' } }]);
  negativeRule = (await earshot.rest('POST', '/v1/alerts', { key, body: { name: 'Unhappy', event: 'mention.negative', filter: { keywordIds: [kw1] } } })).body.id;
}, 60_000);
afterAll(() => earshot?.stop());

/** The letters of every mention a query lists, all pages; both sides of `relevant` unless the query names it. */
async function listed(query: string, as = key): Promise<string> {
  const sides = /(^|&)relevant=/.test(query) ? [query] : [`${query}&relevant=true`, `${query}&relevant=false`];
  const letters: string[] = [];
  for (const side of sides) {
    let cursor: string | null = null;
    do {
      const answer = await earshot.rest('GET', `/v1/mentions?${side}&limit=100${cursor ? `&cursor=${cursor}` : ''}`, { key: as });
      expect(answer.status, `${side}: ${JSON.stringify(answer.body)}`).toBe(200);
      letters.push(...answer.body.data.map((mention: { id: string }) => letterOf.get(mention.id) ?? `?${mention.id}`));
      cursor = answer.body.nextCursor;
    } while (cursor);
  }
  return letters.sort().join(' ');
}

const epochMs = (date: Date) => String(date.getTime());

describe('GET /v1/mentions filters (spec 4.3)', () => {
  it('shows each query exactly the mentions its filters describe', async () => {
    const authorOf = async (letter: string) => (await earshot.rest('GET', `/v1/mentions/${ids[letter]}`, { key })).body.author.id as string;
    const table: [string, string][] = [
      ['', 'A B C D E G H'],
      ['relevant=true', 'A B G H'],
      ['relevant=false', 'C D E'],
      ['snoozed=true', 'F'],
      ['snoozed=false', 'A B C D E G H'],
      [`keywordId=${kw1}`, 'A B E G H'],
      [`keywordIds=${kw1},${kw2}`, 'A B C D E G H'],
      [`keywordIds=${kw2}`, 'C D'],
      [`notKeywordIds=${kw1}`, 'C D'],
      [`keywordId=${kw1}&keywordIds=${kw2}`, ''],
      ['platform=reddit', 'A E'],
      ['platforms=reddit&platforms=x', 'A D E'],
      ['platforms=reddit,x', 'A D E'],
      ['platforms=reddit,x&platforms=devto', 'A D E G'],
      ['notPlatforms=reddit,hackernews', 'C D G H'],
      ['status=open', 'A B C D G H'],
      ['status=done', 'E'],
      ['status=ignored&snoozed=true', 'F'],
      // A corrected sentiment counts as corrected.
      ['sentiment=negative', 'B E H'],
      ['sentiments=positive,neutral', 'A C G'],
      // A mention not scored yet passes notSentiments.
      ['notSentiments=negative', 'A C D G'],
      ['intent=complaint', 'B E'],
      ['intents=praise,buy_intent', 'A G'],
      ['notIntents=complaint,question', 'A C D G'],
      ['automated=true', 'B'],
      // false takes in mentions judged before the flag existed, and unscored ones.
      ['automated=false', 'A C D E G H'],
      [`assigneeId=${ownerId}`, 'E G'],
      ['excludeAuthors=Ann Lee,@bob', 'C D E G H'],
      ['excludeAuthors=https://dev.to/gus/&excludeAuthors=u/eve', 'A B C D H'],
      // A profile address as copied: another scheme, with or without `www.` and the scheme.
      ['excludeAuthors=http://www.reddit.com/u/ann/,dev.to/gus', 'B C D E H'],
      // Earshot's own author ids too.
      [`excludeAuthors=${await authorOf('B')},${await authorOf('H')}`, 'A C D E G'],
      ['minRelevance=70', 'A E G'],
      ['minFollowers=1000', 'A H'],
      // Unknown reach never passes either bound.
      ['minFollowers=0', 'A B D E G H'],
      ['maxFollowers=300', 'B D E G'],
      ['isReply=true', 'B'],
      ['isReply=false', 'A C D E G H'],
      [`alertId=${negativeRule}`, 'B H'],
      ['tags=vip', 'A'],
      ['tags=VIP', ''],
      ['notTags=vip,customer', 'B C D G H'],
      // A host matches itself and its subdomains, `www.` is ignored, and a post without links never matches.
      ['linkHosts=github.com', 'A B'],
      ['linkHosts=WWW.github.com', 'A B'],
      ['linkHosts=docs.github.com', 'B'],
      ['linkHosts=acme.dev,gitlab.com', 'D G'],
      ['notLinkHosts=github.com', 'C D E G H'],
      // An unknown language fails languages and passes notLanguages.
      ['languages=en', 'A E H'],
      ['languages=en,de', 'A B E H'],
      ['notLanguages=en', 'B C D G'],
      ['q=ACME', 'A B E G H'],
      ['q=widget', 'C D'],
      ['q=bob', 'B'],
      // `%` and `_` are plain characters.
      [`q=${encodeURIComponent('100%')}`, 'A'],
      [`q=${encodeURIComponent('%')}`, 'A'],
      ['q=e_b', 'B'],
      ['since=2026-03-01T00:00:00Z', 'C D H'],
      [`until=${epochMs(day('2026-01-20'))}`, 'A E'],
      [`since=${encodeURIComponent('2026-02-01T12:00:00+00:00')}&until=${epochMs(day('2026-02-20'))}`, 'B G'],
      // A date alone is the whole UTC day: since from its start, until through its end; other offset spellings of ISO 8601.
      ['since=2026-03-05&until=2026-03-15', 'D H'],
      ['until=2026-01-10', 'A'],
      [`since=${encodeURIComponent('2026-03-05T13:00+0100')}`, 'D H'],
      [`since=${encodeURIComponent('2026-03-05T13:01+01')}`, 'D'],
      // A `+` left unencoded arrives as a space, which can only be the offset's sign.
      ['since=2026-03-05T14:00:00+02:00', 'D H'],
      ['since=2026-03-05T14:01+02', 'D'],
      ['platforms=reddit,hackernews&sentiments=negative&minFollowers=5', 'B E'],
    ];
    const failures: string[] = [];
    for (const [query, expected] of table) {
      const got = await listed(query);
      if (got !== expected) failures.push(`${query}: expected [${expected}], got [${got}]`);
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('takes the same filters as one GraphQL input', async () => {
    const query = 'query ($filter: MentionFilter) { mentions(filter: $filter, first: 100) { nodes { id } nextCursor } }';
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'A B G H'],
      [{ relevant: false, notSentiments: ['negative'] }, 'C D'],
      [{ linkHosts: ['www.GitHub.com'], languages: ['de'] }, 'B'],
      [{ snoozed: true, minFollowers: 1000 }, 'F'],
      [{ since: String(day('2026-02-20').getTime()), q: 'acme' }, 'G H'],
      [{ relevant: null, status: null }, 'A B G H'],
    ];
    for (const [filter, expected] of cases) {
      const answer = await earshot.graphql(query, { filter }, key);
      expect(answer.body.errors, JSON.stringify(filter)).toBeUndefined();
      const letters = answer.body.data.mentions.nodes.map((node: { id: string }) => letterOf.get(node.id)).sort().join(' ');
      expect(letters, JSON.stringify(filter)).toBe(expected);
    }
  });

  it('refuses a malformed value naming the parameter, a bad cursor, and a filter over its size', async () => {
    const cases: [string, number, Record<string, unknown>][] = [
      ['platforms=myspace', 400, { code: 'validation_error', field: 'platforms.0' }],
      ['platforms=reddit,myspace', 400, { code: 'validation_error', field: 'platforms.1' }],
      ['platform=reddit&platform=x', 400, { code: 'validation_error', field: 'platform' }],
      ['minFollowers=-1', 400, { code: 'validation_error', field: 'minFollowers' }],
      ['minFollowers=many', 400, { code: 'validation_error', field: 'minFollowers' }],
      ['minRelevance=101', 400, { code: 'validation_error', field: 'minRelevance' }],
      ['since=yesterday', 400, { code: 'validation_error', field: 'since' }],
      ['until=2026-13-45T00:00:00Z', 400, { code: 'validation_error', field: 'until' }],
      ['until=2026-02-30', 400, { code: 'validation_error', field: 'until' }],
      ['since=2026-03-05T12:00:00', 400, { code: 'validation_error', field: 'since' }],
      ['since=2026-03-05T25:00Z', 400, { code: 'validation_error', field: 'since' }],
      // Instants JavaScript reads and PostgreSQL does not: year 0, a year past 9999 (by its offset, or in milliseconds).
      ['since=0000-01-01', 400, { code: 'validation_error', field: 'since' }],
      ['until=9999-12-31T23:59:59-01:00', 400, { code: 'validation_error', field: 'until' }],
      ['since=999999999999999', 400, { code: 'validation_error', field: 'since' }],
      ['relevant=yes', 400, { code: 'validation_error', field: 'relevant' }],
      ['sentiments=angry', 400, { code: 'validation_error', field: 'sentiments.0' }],
      ['languages=english', 400, { code: 'validation_error', field: 'languages.0' }],
      ['linkHosts=not a host', 400, { code: 'validation_error', field: 'linkHosts.0' }],
      ['platforms=,', 400, { code: 'validation_error', field: 'platforms' }],
      ['q=', 400, { code: 'validation_error', field: 'q' }],
      ['sort=oldest', 400, { code: 'validation_error', field: 'sort' }],
      ['limit=101', 400, { code: 'validation_error', field: 'limit' }],
      ['colour=red', 400, { code: 'validation_error', field: 'colour' }],
      ['cursor=bm90IGEgY3Vyc29y', 400, { code: 'invalid_cursor', field: 'cursor' }],
      // Cursors of the right shape holding what PostgreSQL cannot read: a day that does not exist, a priority past a `real`.
      [`cursor=${Buffer.from('newest|2026-02-30T00:00:00.000000Z|mm_x').toString('base64url')}`, 400, { code: 'invalid_cursor', field: 'cursor' }],
      [`sort=priority&cursor=${Buffer.from('priority|1e41|2026-01-01T00:00:00.000000Z|mm_x').toString('base64url')}`, 400, { code: 'invalid_cursor', field: 'cursor' }],
      ['alertId=feed_nothing', 404, { code: 'not_found', field: 'alertId' }],
      // Another workspace's keyword is no keyword of this one, whether to show it or to leave it out.
      [`keywordId=${otherKeyword}`, 404, { code: 'not_found', field: 'keywordId' }],
      [`notKeywordIds=${kw1},${otherKeyword}`, 404, { code: 'not_found', field: 'notKeywordIds' }],
      ['keywordIds=kw_01jd8x3m5c2v7q9r4t6w8y0z1a', 404, { code: 'not_found', field: 'keywordIds' }],
      [`platforms=${Array(101).fill('reddit').join(',')}`, 400, { code: 'filter_too_complex', field: 'platforms' }],
      [
        ['excludeAuthors', 'tags', 'notTags'].map((name) => `${name}=${Array.from({ length: 100 }, (_, i) => `${name}${i}`).join(',')}`).join('&') + '&languages=en',
        400,
        { code: 'filter_too_complex', field: null },
      ],
    ];
    for (const [query, status, error] of cases) {
      const answer = await earshot.rest('GET', `/v1/mentions?${query}`, { key });
      expect(answer.status, query.slice(0, 80)).toBe(status);
      expect(answer.body, query.slice(0, 80)).toEqual({ error: { ...error, message: expect.any(String), requestId: expect.any(String) } });
    }
    const graphql = await earshot.graphql('{ mentions(filter: { platforms: ["myspace"] }) { nextCursor } }', {}, key);
    expect(graphql.body.errors[0]).toMatchObject({ extensions: { code: 'validation_error', field: 'platforms.0' } });
  });

  it('pages by a cursor in either order, and a cursor of one order is refused by the other', async () => {
    const all = await earshot.rest('GET', '/v1/mentions?limit=100', { key });
    const newest = all.body.data.map((mention: { id: string }) => mention.id);
    expect(newest).toEqual([ids.A, ids.B, ids.G, ids.H].sort().reverse());
    for (const sort of ['newest', 'priority']) {
      const paged: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const answer: any = await earshot.rest('GET', `/v1/mentions?sort=${sort}&limit=1${cursor ? `&cursor=${cursor}` : ''}`, { key });
        paged.push(...answer.body.data.map((mention: { id: string }) => mention.id));
        cursor = answer.body.nextCursor;
        pages++;
      } while (cursor);
      expect(paged).toEqual(sort === 'newest' ? newest : [ids.B, ids.G, ids.A, ids.H]);
      expect(pages).toBe(4);
    }
    const first = await earshot.rest('GET', '/v1/mentions?limit=1', { key });
    const crossed = await earshot.rest('GET', `/v1/mentions?sort=priority&cursor=${first.body.nextCursor}`, { key });
    expect(crossed.status).toBe(400);
    expect(crossed.body.error).toMatchObject({ code: 'invalid_cursor', field: 'cursor' });
  });
});
