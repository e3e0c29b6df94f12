import { afterEach, describe, expect, it } from 'vitest';
import { createHackerNewsConnector } from '../jobs/connectors/hackernews.ts';
import type { NormalizedPost } from '../vocabulary/normalized-post.ts';
import { type FakeUpstream, startFakeServer } from './fake-upstreams/fake-server.ts';
import { fastRetry, itSurvivesUpstreamFaults } from './fake-upstreams/fault-cases.ts';
import { hackerNewsComment, hackerNewsStory, type HackerNewsHit, startFakeHackerNews } from './fake-upstreams/hackernews.ts';

const since = new Date('2025-03-01T00:00:00Z');
const at = (minutes: number) => new Date(since.getTime() + minutes * 60_000);

const story = hackerNewsStory({
  id: 43210001,
  title: 'Show HN: Earshot tracks your brand & competitors',
  url: 'https://earshot.example/launch',
  author: 'founder',
  createdAt: at(120),
  text: 'We built it because <a href="https:&#x2F;&#x2F;docs.earshot.example&#x2F;why" rel="nofollow">https:&#x2F;&#x2F;docs.earshot.example&#x2F;why</a> matters.<p>Try it: https://earshot.example/try.',
});
const comment = hackerNewsComment({
  id: 43210002,
  storyId: 43210001,
  parentId: 43210001,
  author: 'skeptic',
  createdAt: at(150),
  text: 'How is Earshot different from &quot;alerts&quot;?<p>I use <a href="https:&#x2F;&#x2F;alerts.example.com">alerts</a> today.',
});

const fakes: FakeUpstream[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.close()));
});

async function connectorWith(hits: HackerNewsHit[]) {
  const fake = await startFakeHackerNews({ hits });
  fakes.push(fake);
  return { fake, connector: createHackerNewsConnector({ EARSHOT_UPSTREAM_HACKERNEWS: fake.url }, { retry: fastRetry }) };
}

describe('Hacker News connector', () => {
  it('asks search_by_date for stories and comments newer than since', async () => {
    const { fake, connector } = await connectorWith([story]);
    await connector.search({ term: 'earshot', exactPhrase: false, since, limit: 50 });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0].path).toBe('/api/v1/search_by_date');
    expect(Object.fromEntries(fake.requests[0].query)).toEqual({
      query: 'earshot',
      tags: '(story,comment)',
      numericFilters: `created_at_i>${since.getTime() / 1000}`,
      hitsPerPage: '50',
    });
  });

  it('quotes an exact phrase', async () => {
    const { fake, connector } = await connectorWith([story]);
    await connector.search({ term: 'brand & competitors', exactPhrase: true, since });
    expect(fake.requests[0].query.get('query')).toBe('"brand & competitors"');
    expect(fake.requests[0].query.get('hitsPerPage')).toBe('1000');
  });

  it('maps a story and a comment to normalized posts', async () => {
    const { connector } = await connectorWith([story, comment]);
    const page = await connector.search({ term: 'earshot', exactPhrase: false, since });
    expect(page).toEqual({
      nextCursor: null,
      posts: [
        {
          platform: 'hackernews',
          externalId: '43210002',
          url: 'https://news.ycombinator.com/item?id=43210002',
          text: 'How is Earshot different from "alerts"?\n\nI use alerts today.',
          title: null,
          publishedAt: at(150),
          replyTo: 'https://news.ycombinator.com/item?id=43210001',
          links: ['https://alerts.example.com'],
          author: { platformId: 'skeptic', name: 'skeptic', handle: 'skeptic', url: 'https://news.ycombinator.com/user?id=skeptic', avatarUrl: null, followers: null },
        },
        {
          platform: 'hackernews',
          externalId: '43210001',
          url: 'https://news.ycombinator.com/item?id=43210001',
          text: 'Show HN: Earshot tracks your brand & competitors\n\nWe built it because https://docs.earshot.example/why matters.\n\nTry it: https://earshot.example/try.',
          title: 'Show HN: Earshot tracks your brand & competitors',
          publishedAt: at(120),
          replyTo: null,
          links: ['https://earshot.example/launch', 'https://docs.earshot.example/why', 'https://earshot.example/try'],
          author: { platformId: 'founder', name: 'founder', handle: 'founder', url: 'https://news.ycombinator.com/user?id=founder', avatarUrl: null, followers: null },
        },
      ] satisfies NormalizedPost[],
    });
  });

  it('reads /api/v1/search where search_by_date is not served, and takes numeric ids', async () => {
    const hit = { objectID: 4242, title: 'Show HN: Earshot', url: null, author: 'alice', created_at: '2025-03-01T01:00:00Z', story_text: null, comment_text: null, points: 3 };
    const fake = await startFakeServer((request) => (request.path === '/api/v1/search' ? { body: { hits: [hit], nbHits: 1, page: 0, nbPages: 1, hitsPerPage: 20 } } : null));
    fakes.push(fake);
    const page = await createHackerNewsConnector({ EARSHOT_UPSTREAM_HACKERNEWS: fake.url }, { retry: fastRetry }).search({ term: 'earshot', exactPhrase: false, since });
    expect(fake.requests.map((request) => request.path)).toEqual(['/api/v1/search_by_date', '/api/v1/search']);
    expect(page.posts.map((post) => [post.externalId, post.url, post.text, post.publishedAt, post.author.name])).toEqual([
      ['4242', 'https://news.ycombinator.com/item?id=4242', 'Show HN: Earshot', at(60), 'alice'],
    ]);
  });

  it('pages back in time without losing or repeating hits, even within one second', async () => {
    const sameSecond = at(60);
    const hits = [
      ...[1, 2, 3].map((n) => hackerNewsStory({ id: n, title: `Earshot ${n}`, createdAt: at(100 - n) })),
      ...[4, 5, 6, 7].map((n) => hackerNewsStory({ id: n, title: `Earshot ${n}`, createdAt: sameSecond })),
      hackerNewsStory({ id: 8, title: 'Earshot 8', createdAt: at(10) }),
      hackerNewsStory({ id: 9, title: 'Earshot before the look-back', createdAt: at(-10) }),
    ];
    const { fake, connector } = await connectorWith(hits);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await connector.search({ term: 'earshot', exactPhrase: false, since, limit: 2, cursor });
      seen.push(...page.posts.map((post) => post.externalId));
      cursor = page.nextCursor;
    } while (cursor && ++pages < 20);
    expect(seen.sort()).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
    expect(cursor).toBeNull();
    expect(fake.requests.at(-1)!.query.get('numericFilters')).toMatch(/^created_at_i>\d+,created_at_i<=\d+$/);
  });

  it('reads the comments of a story thread since a time, newest first, at most the limit', async () => {
    const older = hackerNewsComment({ id: 43210003, storyId: 43210001, parentId: 43210002, createdAt: at(140), text: 'An older reply' });
    const newest = hackerNewsComment({ id: 43210004, storyId: 43210001, parentId: 43210002, author: 'fan', createdAt: at(200), text: 'Replying <i>to</i> you' });
    const { fake, connector } = await connectorWith([story, comment, older, newest]);
    const comments = await connector.comments!({ externalId: '43210001', url: 'https://news.ycombinator.com/item?id=43210001' }, at(130), 2);
    expect(Object.fromEntries(fake.requests[0].query)).toEqual({
      tags: 'comment,story_43210001',
      numericFilters: `created_at_i>${at(130).getTime() / 1000}`,
      hitsPerPage: '2',
    });
    expect(comments.map((post) => post.externalId)).toEqual(['43210004', '43210002']);
    expect(comments[0]).toEqual({
      platform: 'hackernews',
      externalId: '43210004',
      url: 'https://news.ycombinator.com/item?id=43210004',
      text: 'Replying to you',
      title: null,
      publishedAt: at(200),
      replyTo: 'https://news.ycombinator.com/item?id=43210002',
      links: [],
      author: { platformId: 'fan', name: 'fan', handle: 'fan', url: 'https://news.ycombinator.com/user?id=fan', avatarUrl: null, followers: null },
    });
  });

  itSurvivesUpstreamFaults(async () => {
    const { fake, connector } = await connectorWith([story, comment]);
    return { fake, call: () => connector.search({ term: 'earshot', exactPhrase: false, since }) };
  });
});
