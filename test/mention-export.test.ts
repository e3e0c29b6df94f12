import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NormalizedPost } from '../vocabulary/normalized-post.ts';
import { storeMatchedPosts } from '../subgraphs/mentions/mention-store.ts';
import { startTestEarshot, type TestEarshot } from './harness.ts';
import { seedMentions } from './mention-seeds.ts';

/** `GET /v1/mentions/export.csv` (spec 4.3, 8): columns, quoting, truncation, the shared rate limit. */

let earshot: TestEarshot;

const columns = [
  'id', 'published_at', 'platform', 'keyword', 'author', 'author_url', 'author_followers', 'relevance', 'sentiment',
  'intents', 'status', 'relevant', 'delivered', 'url', 'text', 'links',
];

beforeAll(async () => {
  earshot = await startTestEarshot();
});
afterAll(() => earshot?.stop());

async function download(path: string, key: string, on: TestEarshot = earshot) {
  const response = await fetch(on.url + path, { headers: { authorization: `Bearer ${key}` } });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

async function workspaceWithKeyword(name: string, term: string) {
  const created = await earshot.createWorkspace(name);
  const keyword = await earshot.rest('POST', '/v1/keywords', { key: created.apiKey, body: { term, platforms: [] } });
  expect(keyword.status, JSON.stringify(keyword.body)).toBe(201);
  return { ...created, keywordId: keyword.body.id as string };
}

/** A mention record (`GET /v1/mentions/{id}`) as its CSV row must read. */
const expectedRow = (m: any) => [
  m.id,
  m.post.publishedAt,
  m.post.platform,
  m.keyword.term,
  m.author.name,
  m.author.url,
  String(m.author.followers),
  m.classification?.relevance === undefined || m.classification?.relevance === null ? '' : String(m.classification.relevance),
  m.classification?.sentiment ?? '',
  (m.classification?.intents ?? []).join('|'),
  m.status,
  String(m.relevant),
  String(m.delivered),
  m.post.url,
  [...m.post.text].slice(0, 1000).join(''),
  m.post.links.join(' '),
];

describe('GET /v1/mentions/export.csv', () => {
  it('writes the columns of spec 4.3 in order, RFC 4180 quoted, so that every field parses back exactly', async () => {
    const { workspace, apiKey, keywordId } = await workspaceWithKeyword('Quoting', 'Acme, "the" company');
    const awkward = [
      'Plain Acme text',
      'Commas, "quotes" and\r\nCRLF line breaks, and a lone\nLF and \r CR',
      '=HYPERLINK("http://evil.example") starts like a formula; so does +1 and -1 and @me',
      'Ünïcødé 🎉 emoji, 中文, and a tab\there',
      `${'🎉'.repeat(600)}${'x'.repeat(900)}`,
      '"',
      ' leading and trailing spaces ',
      'A post in two lines\nwith nothing else to quote',
      'A lone carriage return\rand nothing else',
    ];
    const stored = await seedMentions(
      earshot.sql,
      workspace.id,
      awkward.map((text, i) => ({
        keywordId,
        text,
        links: i === 1 ? ['https://example.com/a,b', 'https://example.com/"q"'] : [],
        author: { name: `Name, with "quotes" ${i}`, handle: `h${i}`, followers: i * 10 },
        score: i % 2 ? { relevance: 50 + i, sentiment: 'negative', intents: ['complaint', 'question'] } : { relevance: 90, sentiment: 'positive', intents: [] },
      })),
    );

    const answer = await download('/v1/mentions/export.csv', apiKey);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(answer.headers.get('x-mentions-truncated')).toBe('false');
    expect(answer.headers.get('content-disposition')).toBe('attachment; filename="mentions.csv"');
    expect(answer.headers.get('x-request-id')).toMatch(/^req_/);
    expect(answer.text.startsWith(`${columns.join(',')}\r\n`)).toBe(true);

    const [header, ...rows] = parse(answer.text) as string[][];
    expect(header).toEqual(columns);
    const list = await earshot.rest('GET', '/v1/mentions?limit=100', { key: apiKey });
    expect(rows).toEqual(list.body.data.map(expectedRow));
    expect(rows.map((row) => row[0]).sort()).toEqual([...stored].sort());
    const long = rows.find((row) => row[14].startsWith('🎉'))!;
    expect([...long[14]]).toHaveLength(1000);
    expect(answer.text).toContain('"A post in two lines\nwith nothing else to quote"');
    expect(rows.find((row) => row[14].startsWith('Commas'))![15]).toBe('https://example.com/a,b https://example.com/"q"');
  });

  it('takes the list filters, refuses what the list refuses, and lets a read key export', async () => {
    const { workspace, apiKey, keywordId } = await workspaceWithKeyword('Filtered', 'Widget');
    const [onReddit] = await seedMentions(earshot.sql, workspace.id, [
      { keywordId, platform: 'reddit', score: { relevance: 80, sentiment: 'negative' } },
      { keywordId, platform: 'x', score: { relevance: 80, sentiment: 'negative' } },
      { keywordId, platform: 'reddit', score: { relevance: 10, sentiment: 'negative' } },
    ]);
    const filtered = await download('/v1/mentions/export.csv?platforms=reddit&sentiments=negative', apiKey);
    expect(filtered.status).toBe(200);
    expect((parse(filtered.text) as string[][]).slice(1).map((row) => row[0])).toEqual([onReddit]);

    const bad = await earshot.rest('GET', '/v1/mentions/export.csv?platforms=myspace', { key: apiKey });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(bad.body).toEqual({ error: { code: 'validation_error', field: 'platforms.0', message: expect.stringContaining('platforms.0'), requestId: expect.any(String) } });
    const missing = await earshot.rest('GET', '/v1/mentions/export.csv?alertId=feed_nothing', { key: apiKey });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: 'not_found', field: 'alertId' });
    const unauthorized = await earshot.rest('GET', '/v1/mentions/export.csv');
    expect(unauthorized.status).toBe(401);

    const readKey = (await earshot.rest('POST', '/v1/api-keys', { key: apiKey, body: { name: 'reader', scope: 'read' } })).body.key;
    const asReader = await download('/v1/mentions/export.csv?platform=x', readKey);
    expect(asReader.status).toBe(200);
    expect(parse(asReader.text)).toHaveLength(2);
  });

  it('stops at 10,000 rows, newest match first, and says so in X-Mentions-Truncated', async () => {
    const { workspace, apiKey, keywordId } = await workspaceWithKeyword('Large', 'Gadget');
    const post = (n: number): NormalizedPost => ({
      platform: 'hackernews',
      externalId: `large-${n}`,
      url: `https://news.ycombinator.com/item?id=${n}`,
      text: `Gadget post number ${n}`,
      publishedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, n % 60)),
      replyTo: null,
      links: [],
      author: { platformId: `a${n % 50}`, name: `Author ${n % 50}`, handle: `a${n % 50}`, url: `https://news.ycombinator.com/user?id=a${n % 50}`, avatarUrl: null, followers: n },
    });
    for (let from = 0; from < 10_000; from += 2_000) {
      await storeMatchedPosts(earshot.sql, Array.from({ length: 2_000 }, (_, i) => ({ post: post(from + i), matches: [{ keywordId, workspaceId: workspace.id, fuzzy: false }] })));
    }
    // Unscored mentions are not relevant: `relevant=false` shows them.
    const whole = await download('/v1/mentions/export.csv?relevant=false', apiKey);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('x-mentions-truncated')).toBe('false');
    expect(parse(whole.text)).toHaveLength(10_001);

    const [newest] = await storeMatchedPosts(earshot.sql, [{ post: post(10_000), matches: [{ keywordId, workspaceId: workspace.id, fuzzy: false }] }]);
    const cut = await download('/v1/mentions/export.csv?relevant=false', apiKey);
    expect(cut.headers.get('x-mentions-truncated')).toBe('true');
    const rows = (parse(cut.text) as string[][]).slice(1);
    expect(rows).toHaveLength(10_000);
    expect(rows[0][0]).toBe(newest.id);
    expect(rows[0][14]).toBe('Gadget post number 10000');
  }, 120_000);

  it('allows 6 exports a minute per workspace across processes, then answers 429 with Retry-After', async () => {
    const { apiKey } = await workspaceWithKeyword('Limited', 'Thing');
    const neighbour = await workspaceWithKeyword('Unlimited neighbour', 'Thing');
    const second = await startTestEarshot({}, { databaseUrl: earshot.databaseUrl });
    try {
      for (const on of [earshot, second, earshot, second, earshot, second]) {
        expect((await download('/v1/mentions/export.csv', apiKey, on)).status).toBe(200);
      }
      for (const on of [earshot, second]) {
        const refused = await on.rest('GET', '/v1/mentions/export.csv', { key: apiKey });
        expect(refused.status).toBe(429);
        const retryAfter = Number(refused.headers.get('retry-after'));
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        expect(retryAfter).toBeLessThanOrEqual(60);
        expect(refused.body).toEqual({
          error: { code: 'rate_limited', message: expect.stringContaining('6 exports a minute'), requestId: expect.any(String), retryAfterSeconds: retryAfter },
        });
      }
      // The same refusal over /graphql: 429 with Retry-After, as the workspace rate limit answers there (it was 200 without the header).
      const overGraphQL = await earshot.graphql('{ mentionExport { __typename } }', {}, apiKey);
      expect(overGraphQL.body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'rate_limited', retryAfterSeconds: expect.any(Number) }) })]);
      expect([overGraphQL.status, Number(overGraphQL.headers.get('retry-after'))]).toEqual([429, overGraphQL.body.errors[0].extensions.retryAfterSeconds]);
      // Another workspace's exports are its own; and lists are not exports.
      expect((await download('/v1/mentions/export.csv', neighbour.apiKey, second)).status).toBe(200);
      expect((await earshot.rest('GET', '/v1/mentions', { key: apiKey })).status).toBe(200);
    } finally {
      await second.stop();
    }
  }, 120_000);
});
