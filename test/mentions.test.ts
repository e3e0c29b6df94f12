import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NormalizedPost } from '../vocabulary/normalized-post.ts';
import { storeMatchedPost } from '../subgraphs/mentions/mention-store.ts';
import { startTestEarshot, type TestEarshot } from './harness.ts';
import { seedMentions } from './mention-seeds.ts';

let earshot: TestEarshot;
let key: string;
let workspaceId: string;
let keywordId: string;

const post = (externalId: string, text: string): NormalizedPost => ({
  platform: 'hackernews',
  externalId,
  url: `https://news.ycombinator.com/item?id=${externalId}`,
  text,
  publishedAt: new Date('2026-11-20T10:00:00Z'),
  replyTo: null,
  links: ['https://acme.dev/blog'],
  author: { platformId: 'pg', name: 'pg', handle: 'pg', url: 'https://news.ycombinator.com/user?id=pg', avatarUrl: null, followers: null },
});

beforeAll(async () => {
  earshot = await startTestEarshot();
  const created = await earshot.createWorkspace('Acme');
  key = created.apiKey;
  workspaceId = created.workspace.id;
  keywordId = (await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'Acme' } })).body.id;
});
afterAll(() => earshot?.stop());

describe('mentions read path', () => {
  it('stores a post once per keyword and shows the full mention record', async () => {
    const [stored] = await storeMatchedPost(earshot.sql, post('1', 'Acme is great'), [{ keywordId, workspaceId, fuzzy: false }]);
    const again = await storeMatchedPost(earshot.sql, post('1', 'Acme is great'), [{ keywordId, workspaceId, fuzzy: false }]);
    expect(again).toEqual([]);
    const fetched = await earshot.rest('GET', `/v1/mentions/${stored.id}`, { key });
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual({
      id: stored.id,
      status: 'open',
      relevant: false,
      delivered: false,
      priority: 0,
      keyword: { id: keywordId, term: 'Acme' },
      post: {
        platform: 'hackernews',
        url: 'https://news.ycombinator.com/item?id=1',
        text: 'Acme is great',
        publishedAt: '2026-11-20T10:00:00.000Z',
        replyTo: null,
        links: ['https://acme.dev/blog'],
      },
      author: { id: expect.stringMatching(/^aut_/), name: 'pg', handle: 'pg', url: 'https://news.ycombinator.com/user?id=pg', avatarUrl: null, followers: 0, tags: [] },
      classification: null,
      triage: { assignee: null, snoozedUntil: null, note: null },
      createdAt: expect.any(String),
    });
  });

  it('lists relevant mentions by default and the rest with relevant=false', async () => {
    const relevantOnly = await earshot.rest('GET', '/v1/mentions', { key });
    expect(relevantOnly.body).toEqual({ data: [], nextCursor: null });
    const rest = await earshot.rest('GET', `/v1/mentions?relevant=false&keywordId=${keywordId}`, { key });
    expect(rest.body.data).toHaveLength(1);
    const other = await earshot.createWorkspace('Other');
    const hidden = await earshot.rest('GET', `/v1/mentions/${rest.body.data[0].id}`, { key: other.apiKey });
    expect(hidden.status).toBe(404);
  });

  it('pages 50 mentions by default, newest match first, on REST and GraphQL alike', async () => {
    const seeded = await seedMentions(earshot.sql, workspaceId, Array.from({ length: 51 }, () => ({ keywordId, score: { relevance: 90, sentiment: 'positive' as const } })));
    // Stored together, they share their match time: the newest first is the largest id.
    const newestFirst = [...seeded].sort().reverse();
    const first = await earshot.rest('GET', '/v1/mentions', { key });
    expect(first.body.data.map((m: { id: string }) => m.id)).toEqual(newestFirst.slice(0, 50));
    const rest = await earshot.rest('GET', `/v1/mentions?cursor=${first.body.nextCursor}`, { key });
    expect(rest.body).toEqual({ data: [expect.objectContaining({ id: newestFirst[50] })], nextCursor: null });

    const graphql = await earshot.graphql('{ mentions { nodes { id } nextCursor } }', {}, key);
    expect(graphql.body.data.mentions.nodes.map((m: { id: string }) => m.id)).toEqual(newestFirst.slice(0, 50));
    expect(graphql.body.data.mentions.nextCursor).toBe(first.body.nextCursor);
  });

  it('lists the posts of one stored batch (a look-back) newest post first, in the list and the export', async () => {
    const batchKeywordId = (await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'Batchword' } })).body.id;
    const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);
    const ages = [5, 1, 9, 3, 7, 2, 8, 4, 6, 10];
    const seeded = await seedMentions(
      earshot.sql,
      workspaceId,
      ages.map((hours) => ({ keywordId: batchKeywordId, publishedAt: hoursAgo(hours), score: { relevance: 90, sentiment: 'neutral' as const } })),
    );
    const newestPostFirst = ages.map((hours, i) => ({ hours, id: seeded[i] })).sort((a, b) => a.hours - b.hours).map((each) => each.id);
    const listed = await earshot.rest('GET', `/v1/mentions?keywordId=${batchKeywordId}`, { key });
    expect(listed.body.data.map((m: { id: string }) => m.id)).toEqual(newestPostFirst);
    const exported = await earshot.rest('GET', `/v1/mentions/export.csv?keywordId=${batchKeywordId}`, { key });
    expect(String(exported.body).trim().split('\n').slice(1).map((line) => line.split(',')[0])).toEqual(newestPostFirst);
  });
});
