import { afterEach, describe, expect, it } from 'vitest';
import { createAppStoreConnector } from '../jobs/connectors/appstore.ts';
import type { ReviewSourceRef } from '../jobs/connectors/connector.ts';
import type { NormalizedPost } from '../vocabulary/normalized-post.ts';
import { type AppStoreFixtures, type AppStoreReviewFixture, appStoreEntry, startFakeAppStore } from './fake-upstreams/appstore.ts';
import { type FakeUpstream, startFakeServer } from './fake-upstreams/fake-server.ts';
import { fastRetry, itSurvivesUpstreamFaults } from './fake-upstreams/fault-cases.ts';

const since = new Date('2025-03-01T00:00:00Z');
const at = (minutes: number) => new Date(since.getTime() + minutes * 60_000);
const appId = '1459969523';
const source: ReviewSourceRef = { platform: 'appstore', id: appId, country: 'gb', language: null };

const praise: AppStoreReviewFixture = {
  id: '11873459201',
  authorName: 'Tilly the tester',
  authorId: '208734512',
  title: 'Finally, alerts that matter',
  content: 'Earshot caught a thread about us within minutes.\nSetup guide: https://earshot.example/start.',
  rating: 5,
  updated: at(300),
};
const complaint: AppStoreReviewFixture = {
  id: '11873459177',
  authorName: 'grumpy_pm',
  authorId: '99120345',
  title: 'Crashes on launch',
  content: 'Since 4.2 it closes right away.',
  rating: 2,
  updated: at(60),
};

const fakes: FakeUpstream[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.close()));
});

async function connectorWith(fixtures: AppStoreFixtures) {
  const fake = await startFakeAppStore(fixtures);
  fakes.push(fake);
  return { fake, connector: createAppStoreConnector({ EARSHOT_UPSTREAM_APPSTORE: fake.url }, { retry: fastRetry }) };
}

describe('App Store connector', () => {
  it('reads the storefront feed of the source, most recent first', async () => {
    const { fake, connector } = await connectorWith({ [appId]: { gb: [praise] } });
    await connector.reviews(source, since);
    expect(fake.requests.map((request) => request.path)).toEqual([`/gb/rss/customerreviews/id=${appId}/sortby=mostrecent/json`]);
  });

  it('reads the first page at the address Apple publishes the feed at, which names no page', async () => {
    // Written from the feed's published address alone: nothing answers `page=1/`.
    const fake = await startFakeServer((request) => {
      if (request.path !== `/gb/rss/customerreviews/id=${appId}/sortby=mostrecent/json`) return null;
      return { body: { feed: { author: { name: { label: 'iTunes Store' } }, entry: appStoreEntry(praise, appId, 'gb') } } };
    });
    fakes.push(fake);
    const posts = await createAppStoreConnector({ EARSHOT_UPSTREAM_APPSTORE: fake.url }, { retry: fastRetry }).reviews(source, since);
    expect(posts.map((post) => [post.externalId, post.rating, post.author.name])).toEqual([[praise.id, 5, praise.authorName]]);
  });

  it('maps reviews to normalized posts with their rating', async () => {
    const { connector } = await connectorWith({ [appId]: { gb: [complaint, praise] } });
    expect(await connector.reviews(source, since)).toEqual([
      {
        platform: 'appstore',
        externalId: '11873459201',
        url: `https://apps.apple.com/gb/app/id${appId}?see-all=reviews#review-11873459201`,
        text: 'Finally, alerts that matter\n\nEarshot caught a thread about us within minutes.\nSetup guide: https://earshot.example/start.',
        title: 'Finally, alerts that matter',
        publishedAt: at(300),
        replyTo: null,
        links: ['https://earshot.example/start'],
        author: {
          platformId: '208734512',
          name: 'Tilly the tester',
          handle: 'Tilly the tester',
          url: 'https://itunes.apple.com/gb/reviews/id208734512',
          avatarUrl: null,
          followers: null,
        },
        rating: 5,
        language: null,
      },
      {
        platform: 'appstore',
        externalId: '11873459177',
        url: `https://apps.apple.com/gb/app/id${appId}?see-all=reviews#review-11873459177`,
        text: 'Crashes on launch\n\nSince 4.2 it closes right away.',
        title: 'Crashes on launch',
        publishedAt: at(60),
        replyTo: null,
        links: [],
        author: {
          platformId: '99120345',
          name: 'grumpy_pm',
          handle: 'grumpy_pm',
          url: 'https://itunes.apple.com/gb/reviews/id99120345',
          avatarUrl: null,
          followers: null,
        },
        rating: 2,
        language: null,
      },
    ] satisfies NormalizedPost[]);
  });

  it('reads a single review sent as an object, and an app without reviews', async () => {
    const { connector } = await connectorWith({ [appId]: { gb: [praise] } });
    expect((await connector.reviews(source, since)).map((post) => post.externalId)).toEqual([praise.id]);
    expect(await connector.reviews({ ...source, id: '1000000001' }, since)).toEqual([]);
  });

  it('pages until it reaches reviews older than since', async () => {
    const reviews = Array.from({ length: 130 }, (_, n): AppStoreReviewFixture => ({
      ...praise, id: String(20_000_000 + n), updated: at(1000 - 10 * n),
    }));
    const { fake, connector } = await connectorWith({ [appId]: { gb: reviews } });
    const posts = await connector.reviews(source, since);
    expect(posts).toHaveLength(100);
    expect(posts.map((post) => post.externalId)).toEqual(reviews.slice(0, 100).map((review) => review.id));
    expect(fake.requests.map((request) => request.path.split('/')[4])).toEqual([`id=${appId}`, 'page=2', 'page=3']);
  });

  it('stops at the last page the feed names', async () => {
    const reviews = Array.from({ length: 60 }, (_, n): AppStoreReviewFixture => ({ ...praise, id: String(30_000_000 + n), updated: at(1000 - n) }));
    const { fake, connector } = await connectorWith({ [appId]: { gb: reviews } });
    expect(await connector.reviews(source, since)).toHaveLength(60);
    expect(fake.requests).toHaveLength(2);
  });

  describe('when Apple fails', () => {
    itSurvivesUpstreamFaults(async () => {
      const { fake, connector } = await connectorWith({ [appId]: { gb: [praise] } });
      return { fake, call: () => connector.reviews(source, since) };
    });
  });

  describe('sourceFromUrl', () => {
    const connector = createAppStoreConnector({});

    it('takes the app id and the storefront of the link', () => {
      expect(connector.sourceFromUrl('https://apps.apple.com/gb/app/earshot-mentions/id1459969523?platform=iphone')).toEqual({
        platform: 'appstore', id: '1459969523', country: 'gb', language: null, url: 'https://apps.apple.com/gb/app/id1459969523',
      });
    });

    it('defaults to the us storefront when the link names none', () => {
      expect(connector.sourceFromUrl('https://apps.apple.com/app/id1459969523')).toEqual({
        platform: 'appstore', id: '1459969523', country: 'us', language: null, url: 'https://apps.apple.com/us/app/id1459969523',
      });
    });

    it('knows itunes.apple.com links and storefronts in capitals', () => {
      expect(connector.sourceFromUrl('https://itunes.apple.com/DE/app/earshot/id1459969523')).toMatchObject({ id: '1459969523', country: 'de' });
    });

    it('is null for other links', () => {
      expect(connector.sourceFromUrl('https://apps.apple.com/us/developer/earshot/id1459969500')).toBeNull();
      expect(connector.sourceFromUrl('https://play.google.com/store/apps/details?id=com.earshot')).toBeNull();
      expect(connector.sourceFromUrl('not a link')).toBeNull();
    });

    it('gives the review page of a source', () => {
      expect(connector.pageUrl({ platform: 'appstore', id: '1459969523', country: null, language: null })).toBe('https://apps.apple.com/us/app/id1459969523');
    });
  });
});
