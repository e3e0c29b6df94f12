import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hackerNewsStory, startFakeHackerNews } from './fake-upstreams/hackernews.ts';
import type { FakeUpstream } from './fake-upstreams/fake-server.ts';
import { startTestEarshot, type TestEarshot, eventually, allMentionsOf } from './harness.ts';

let earshot: TestEarshot;
let hackerNews: FakeUpstream;
let key: string;

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);


beforeAll(async () => {
  hackerNews = await startFakeHackerNews({
    hits: [
      hackerNewsStory({ id: 101, title: 'Show HN: Earshot tracks mentions of your brand', createdAt: daysAgo(1), points: 12 }),
      hackerNewsStory({ id: 102, title: 'Earshot vs the rest: a comparison of mention trackers', createdAt: daysAgo(3) }),
      hackerNewsStory({ id: 103, title: 'Earshot spam giveaway, click here', createdAt: daysAgo(2) }),
      hackerNewsStory({ id: 104, title: 'An old post about Earshot', createdAt: daysAgo(45) }),
      hackerNewsStory({ id: 105, title: 'Nothing to see here', createdAt: daysAgo(1) }),
      hackerNewsStory({ id: 106, title: 'Just tried Acme for our team, works great', createdAt: daysAgo(1) }),
      hackerNewsStory({ id: 107, title: 'The summit was the acme of the whole trip', createdAt: daysAgo(1) }),
    ],
  });
  earshot = await startTestEarshot({ env: { EARSHOT_UPSTREAM_HACKERNEWS: hackerNews.url }, pollIntervalSeconds: 1 });
  key = (await earshot.createWorkspace('Acme')).apiKey;
});
afterAll(async () => {
  await earshot?.stop();
  await hackerNews?.close();
});

describe('keyword → look-back → poll → mentions', () => {
  it('collects the last 30 days at once, drops excluded and unmatched posts, stores each post once and scores it', async () => {
    const keyword = await earshot.rest('POST', '/v1/keywords', {
      key,
      body: { term: 'Earshot', platforms: ['hackernews'], matching: { excludedTerms: ['giveaway'] } },
    });
    expect(keyword.status).toBe(201);

    const listed = await eventually(
      () => earshot.rest('GET', `/v1/mentions?relevant=false&keywordId=${keyword.body.id}`, { key }),
      (response) => response.body.data.length >= 2,
    );
    const all = await eventually(
      () => allMentionsOf(earshot, key, keyword.body.id),
      (mentions) => mentions.every((mention: { classification: unknown }) => mention.classification !== null),
    );
    expect(listed.status).toBe(200);
    expect(all.map((mention: { post: { url: string } }) => mention.post.url).sort()).toEqual([
      'https://news.ycombinator.com/item?id=101',
      'https://news.ycombinator.com/item?id=102',
    ]);
    for (const mention of all) {
      expect(mention.classification).toMatchObject({ failed: false, relevance: expect.any(Number) });
      expect(mention.keyword).toEqual({ id: keyword.body.id, term: 'Earshot' });
    }
    const stats = await earshot.rest('GET', `/v1/keywords/${keyword.body.id}`, { key });
    expect(stats.body.stats.mentions).toBe(2);
    expect(stats.body.stats.cost).toMatchObject({ billableMentions: 2, mentionCents: 2 });
    expect(stats.body.cap.used).toBe(2);

    // Regular polls keep finding the same posts: nothing is stored twice.
    await eventually(
      () => earshot.rest('GET', `/v1/keywords/${keyword.body.id}`, { key }),
      (response) => response.body.polling.some((poll: { lastPolledAt: string | null }) => poll.lastPolledAt !== null),
    );
    const after = await earshot.rest('GET', `/v1/keywords/${keyword.body.id}`, { key });
    expect(after.body.stats.mentions).toBe(2);
    expect(after.body.polling).toEqual([{ platform: 'hackernews', lastPolledAt: expect.any(String), emptyPolls: expect.any(Number), lastError: null, lastErrorAt: null }]);
  });

  it('lists a post that uses an everyday-word brand as a name as relevant when the keyword says nothing of its sense', async () => {
    const keyword = await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'Acme', platforms: ['hackernews'] } });
    expect(keyword.status).toBe(201);

    const all = await eventually(
      () => allMentionsOf(earshot, key, keyword.body.id),
      (mentions) => mentions.length === 2 && mentions.every((mention: { classification: unknown }) => mention.classification !== null),
    );
    const listed = await earshot.rest('GET', `/v1/mentions?keywordId=${keyword.body.id}`, { key });
    expect(all).toHaveLength(2);
    expect(listed.body.data.map((mention: { post: { url: string }; relevant: boolean }) => ({ url: mention.post.url, relevant: mention.relevant }))).toEqual([
      { url: 'https://news.ycombinator.com/item?id=106', relevant: true },
    ]);
  });
});
