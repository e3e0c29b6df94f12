import { afterEach, describe, expect, it } from 'vitest';
import type { NormalizedPost } from '../vocabulary/normalized-post.ts';
import { createNewsConnector } from '../jobs/connectors/news.ts';
import type { FakeUpstream } from './fake-upstreams/fake-server.ts';
import { fastRetry, itSurvivesUpstreamFaults } from './fake-upstreams/fault-cases.ts';
import { type NewsArticleFixture, startFakeNews } from './fake-upstreams/news.ts';

const since = new Date('2025-03-01T00:00:00Z');
const at = (minutes: number) => new Date(since.getTime() + minutes * 60_000);

const funding: NewsArticleFixture = {
  id: 'CBMiXkFVX3lxTE1hY2tfZWFyc2hvdF9yYWlzZXNfMTBt0gEA',
  headline: 'Earshot raises $10M to track brand mentions & reviews',
  source: { name: 'TechCrunch', url: 'https://techcrunch.com' },
  publishedAt: at(600),
};
const review: NewsArticleFixture = {
  id: 'CBMiWkFVX3lxTE9lYXJzaG90X3Jldmlld19oYW5kc19vbtIBAA',
  headline: 'Hands-on with Earshot, the mention tracker',
  source: { name: 'The Verge', url: 'https://www.theverge.com' },
  publishedAt: at(120),
};
const stale: NewsArticleFixture = { ...review, id: 'CBMiStale', headline: 'Earshot in beta', publishedAt: at(-60) };
const unrelated: NewsArticleFixture = { ...review, id: 'CBMiOther', headline: 'Markets rally' };

const fakes: FakeUpstream[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.close()));
});

async function connectorWith(articles: NewsArticleFixture[]) {
  const fake = await startFakeNews({ articles });
  fakes.push(fake);
  return { fake, connector: createNewsConnector({ EARSHOT_UPSTREAM_NEWS: fake.url }, { retry: fastRetry }) };
}

describe('News connector', () => {
  it('searches the US English edition, quoting an exact phrase', async () => {
    const { fake, connector } = await connectorWith([funding]);
    await connector.search({ term: 'brand mentions', exactPhrase: true, since });
    expect(fake.requests[0].path).toBe('/rss/search');
    expect(Object.fromEntries(fake.requests[0].query)).toEqual({ q: '"brand mentions"', hl: 'en-US', gl: 'US', ceid: 'US:en' });
  });

  it('maps articles newer than since, newest first, the publication as author', async () => {
    const { connector } = await connectorWith([review, stale, funding, unrelated]);
    const article = (item: NewsArticleFixture) => `https://news.google.com/rss/articles/${item.id}?oc=5`;
    expect(await connector.search({ term: 'earshot', exactPhrase: false, since })).toEqual({
      nextCursor: null,
      posts: [
        {
          platform: 'news',
          externalId: funding.id,
          url: article(funding),
          text: 'Earshot raises $10M to track brand mentions & reviews',
          title: 'Earshot raises $10M to track brand mentions & reviews',
          publishedAt: at(600),
          replyTo: null,
          links: [article(funding)],
          author: { platformId: 'techcrunch.com', name: 'TechCrunch', handle: 'techcrunch.com', url: 'https://techcrunch.com', avatarUrl: null, followers: null },
          language: 'en',
        },
        {
          platform: 'news',
          externalId: review.id,
          url: article(review),
          text: 'Hands-on with Earshot, the mention tracker',
          title: 'Hands-on with Earshot, the mention tracker',
          publishedAt: at(120),
          replyTo: null,
          links: [article(review)],
          author: { platformId: 'www.theverge.com', name: 'The Verge', handle: 'www.theverge.com', url: 'https://www.theverge.com', avatarUrl: null, followers: null },
          language: 'en',
        },
      ] satisfies NormalizedPost[],
    });
  });

  it('keeps at most the asked number of articles', async () => {
    const { connector } = await connectorWith([review, funding]);
    const page = await connector.search({ term: 'earshot', exactPhrase: false, since, limit: 1 });
    expect(page.posts.map((post) => post.externalId)).toEqual([funding.id]);
  });

  describe('when Google News fails', () => {
    itSurvivesUpstreamFaults(async () => {
      const { fake, connector } = await connectorWith([funding]);
      return { fake, call: () => connector.search({ term: 'earshot', exactPhrase: false, since }) };
    });
  });
});
