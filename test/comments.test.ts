import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commentsQueue } from '../jobs/comments/index.ts';
import { createLogger } from '../runtime/logger.ts';
import { chargeMatchedItem } from '../subgraphs/billing/charging.ts';
import { storeComment, watchThreads } from '../subgraphs/mentions/comment-store.ts';
import { saveClassification, storeMatchedPost } from '../subgraphs/mentions/mention-store.ts';
import type { FakeUpstream } from './fake-upstreams/fake-server.ts';
import { hackerNewsComment, hackerNewsStory, startFakeHackerNews } from './fake-upstreams/hackernews.ts';
import { allMentionsOf, startTestEarshot, testSecrets, type TestEarshot, eventually } from './harness.ts';

let earshot: TestEarshot;
let hackerNews: FakeUpstream;
let key: string;
let workspaceId: string;

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);


beforeAll(async () => {
  const story = { storyTitle: 'Show HN: Earshot' };
  hackerNews = await startFakeHackerNews({
    hits: [
      hackerNewsStory({ id: 301, title: 'Show HN: Earshot', createdAt: minutesAgo(240) }),
      hackerNewsComment({ id: 311, storyId: 301, parentId: 301, createdAt: minutesAgo(200), text: 'This looks really useful for our team', ...story }),
      hackerNewsComment({ id: 312, storyId: 301, parentId: 301, createdAt: minutesAgo(150), text: '+1', ...story }),
      hackerNewsComment({ id: 313, storyId: 301, parentId: 301, createdAt: minutesAgo(120), text: 'How does it compare on pricing?', ...story }),
      hackerNewsComment({ id: 314, storyId: 301, parentId: 301, createdAt: minutesAgo(90), text: 'We replaced our old tracker with Earshot last month', ...story }),
      hackerNewsStory({ id: 401, title: 'Earshot 2.0 is out', createdAt: minutesAgo(240) }),
      ...[3, 2, 1].map((hoursAgo) =>
        hackerNewsComment({ id: 410 + hoursAgo, storyId: 401, parentId: 401, createdAt: minutesAgo(60 * hoursAgo), text: `The new release works well for us, ${hoursAgo} hours in`, storyTitle: 'Earshot 2.0 is out' }),
      ),
    ],
  });
  earshot = await startTestEarshot({ env: { EARSHOT_UPSTREAM_HACKERNEWS: hackerNews.url }, pollIntervalSeconds: 1 });
  const created = await earshot.createWorkspace('Acme');
  key = created.apiKey;
  workspaceId = created.workspace.id;
});
afterAll(async () => {
  await earshot?.stop();
  await hackerNews?.close();
});

describe('thread comments (spec 2.1.2)', () => {
  it('reads the newest comments up to maxPerPost, drops short ones, bills each delivered comment and keeps naming ones as mentions', async () => {
    const keyword = await earshot.rest('POST', '/v1/keywords', {
      key,
      body: { term: 'Earshot', platforms: [], comments: { enabled: true, maxPerPost: 2 } },
    });
    const [mention] = await storeMatchedPost(
      earshot.sql,
      {
        platform: 'hackernews',
        externalId: '301',
        url: 'https://news.ycombinator.com/item?id=301',
        text: 'Show HN: Earshot',
        publishedAt: minutesAgo(240),
        replyTo: null,
        links: [],
        author: { platformId: 'pg', name: 'pg', handle: 'pg', url: 'https://news.ycombinator.com/user?id=pg', avatarUrl: null, followers: null },
      },
      [{ keywordId: keyword.body.id, workspaceId, fuzzy: false }],
    );
    await saveClassification(
      earshot.sql,
      mention.id,
      { relevance: 90, sentiment: 'positive', intents: [], automated: false, language: 'en', note: 'About the product.', priority: 1 },
      new Date(),
    );
    // Scored, so charged: scoring charges a match in the transaction that records its score.
    await earshot.sql.begin((tx) => chargeMatchedItem(tx, { workspaceId, keywordId: keyword.body.id, kind: 'mention', itemId: mention.id, at: new Date() }));
    await watchThreads(earshot.sql, [{ mentionId: mention.id, firstCheckAt: minutesAgo(1), until: new Date(Date.now() + 86_400_000) }]);

    const comments = await eventually(
      () => earshot.rest('GET', `/v1/mentions/${mention.id}/comments`, { key }),
      (response) => response.body?.data?.length >= 2,
    );
    expect(comments.status).toBe(200);
    // The newest two of the three long enough; "+1" is never kept.
    expect(comments.body.data.map((comment: { text: string }) => comment.text)).toEqual([
      'We replaced our old tracker with Earshot last month',
      'How does it compare on pricing?',
    ]);
    const naming = await eventually(
      () => earshot.rest('GET', `/v1/mentions?relevant=false&keywordId=${keyword.body.id}`, { key }),
      (response) => response.body.data.some((m: { post: { text: string } }) => m.post.text.includes('replaced our old tracker')),
    );
    expect(naming.body.data.some((m: { post: { text: string } }) => m.post.text.includes('replaced our old tracker'))).toBe(true);
    // The naming comment is charged as a mention once scored.
    const stats = await eventually(
      () => earshot.rest('GET', `/v1/keywords/${keyword.body.id}`, { key }),
      (response) => response.body.stats.cost.billableMentions === 2,
    );
    // One delivered comment is billed as a comment; the one naming the keyword as a mention.
    expect(stats.body.stats.cost.billableComments).toBe(1);
    // thisMonth counts the story and the naming comment as matches, plus the delivered comment (spec 2.1.4).
    expect(stats.body.stats.thisMonth).toBe(3);
  });

  it('keeps the next newest when a read cut short by a crash runs again from the same point', async () => {
    const keyword = await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'Earshot 2.0', platforms: [], comments: { enabled: true, maxPerPost: 2 } } });
    expect(keyword.status).toBe(201);
    const author = { platformId: 'pg', name: 'pg', handle: 'pg', url: 'https://news.ycombinator.com/user?id=pg', avatarUrl: null, followers: null };
    const [mention] = await storeMatchedPost(
      earshot.sql,
      { platform: 'hackernews', externalId: '401', url: 'https://news.ycombinator.com/item?id=401', text: 'Earshot 2.0 is out', publishedAt: minutesAgo(240), replyTo: null, links: [], author },
      [{ keywordId: keyword.body.id, workspaceId, fuzzy: false }],
    );
    // The read that crashed had kept the newest comment, and nothing after it.
    const newest = { platform: 'hackernews' as const, externalId: '411', url: 'https://news.ycombinator.com/item?id=411', text: 'The new release works well for us, 1 hours in', publishedAt: minutesAgo(60), replyTo: '401', links: [], author };
    expect(await storeComment(earshot.sql, mention.id, newest, true)).toMatch(/^cmt_/);

    const context = { sql: earshot.sql, clock: { now: () => new Date() }, log: createLogger('silent'), config: { pollIntervalSeconds: 1, env: { EARSHOT_UPSTREAM_HACKERNEWS: hackerNews.url } }, secrets: testSecrets, send: async () => null };
    await commentsQueue.handle([{ watches: [{ mentionId: mention.id, lastCheckedAt: null, until: new Date(Date.now() + 86_400_000).toISOString() }] }], context);

    const comments = await earshot.rest('GET', `/v1/mentions/${mention.id}/comments`, { key });
    expect(comments.body.data.map((comment: { text: string }) => comment.text)).toEqual([
      'The new release works well for us, 1 hours in',
      'The new release works well for us, 2 hours in',
    ]);
  });
  // A comment naming the keyword was matched against the keyword's rules alone: one holding a workspace excluded term became a mention.
  it('keeps a comment naming the keyword that the workspace filters exclude as a comment, not a mention', async () => {
    const filtered = await earshot.createWorkspace('Filtered');
    expect((await earshot.rest('PATCH', '/v1/filters', { key: filtered.apiKey, body: { excludedTerms: ['tracker'] } })).status).toBe(200);
    const keyword = await earshot.rest('POST', '/v1/keywords', { key: filtered.apiKey, body: { term: 'Earshot', platforms: [], comments: { enabled: true, maxPerPost: 2 } } });
    const author = { platformId: 'pg', name: 'pg', handle: 'pg', url: 'https://news.ycombinator.com/user?id=pg', avatarUrl: null, followers: null };
    const [mention] = await storeMatchedPost(
      earshot.sql,
      { platform: 'hackernews', externalId: '301', url: 'https://news.ycombinator.com/item?id=301', text: 'Show HN: Earshot', publishedAt: minutesAgo(240), replyTo: null, links: [], author },
      [{ keywordId: keyword.body.id, workspaceId: filtered.workspace.id, fuzzy: false }],
    );

    const context = { sql: earshot.sql, clock: { now: () => new Date() }, log: createLogger('silent'), config: { pollIntervalSeconds: 1, env: { EARSHOT_UPSTREAM_HACKERNEWS: hackerNews.url } }, secrets: testSecrets, send: async () => null };
    await commentsQueue.handle([{ watches: [{ mentionId: mention.id, lastCheckedAt: null, until: new Date(Date.now() + 86_400_000).toISOString() }] }], context);

    const comments = await earshot.rest('GET', `/v1/mentions/${mention.id}/comments`, { key: filtered.apiKey });
    expect(comments.body.data.map((comment: { text: string }) => comment.text)).toEqual([
      'We replaced our old tracker with Earshot last month',
      'How does it compare on pricing?',
    ]);
    const mentions = await allMentionsOf(earshot, filtered.apiKey, keyword.body.id);
    expect(mentions.map((found: { post: { text: string } }) => found.post.text)).toEqual(['Show HN: Earshot']);
  });
});
