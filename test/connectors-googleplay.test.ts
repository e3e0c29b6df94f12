import { afterEach, describe, expect, it } from 'vitest';
import type { ReviewSourceRef } from '../jobs/connectors/connector.ts';
import { createGooglePlayConnector } from '../jobs/connectors/googleplay.ts';
import type { NormalizedPost } from '../vocabulary/normalized-post.ts';
import { UpstreamConfigurationError } from '../runtime/upstream-http.ts';
import type { FakeUpstream } from './fake-upstreams/fake-server.ts';
import { fastRetry, itSurvivesUpstreamFaults } from './fake-upstreams/fault-cases.ts';
import { type GooglePlayFakeOptions, type GooglePlayReviewFixture, startFakeGooglePlay } from './fake-upstreams/googleplay.ts';

const since = new Date('2025-03-01T00:00:00Z');
const at = (minutes: number) => new Date(since.getTime() + minutes * 60_000);
const packageName = 'com.earshot.mentions';
const source: ReviewSourceRef = { platform: 'googleplay', id: packageName, country: 'de', language: 'de' };

const titled: GooglePlayReviewFixture = {
  reviewId: 'gp:AOqpTOHq1x2y3z',
  authorName: 'Jonas Weber',
  text: 'Sehr nützlich\tFindet Erwähnungen schneller als alles andere. Mehr unter https://earshot.example/de',
  starRating: 5,
  lastModified: at(240),
  reviewerLanguage: 'de_DE',
  developerReply: { text: 'Danke, Jonas!', lastModified: at(260) },
};
const untitled: GooglePlayReviewFixture = {
  reviewId: 'gp:AOqpTOFz9y8x7w',
  authorName: '',
  text: 'Stürzt beim Öffnen ab.',
  starRating: 1,
  lastModified: at(30),
  reviewerLanguage: 'de',
};

const fakes: FakeUpstream[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.close()));
});

async function connectorWith(options: GooglePlayFakeOptions, env: NodeJS.ProcessEnv = {}) {
  const fake = await startFakeGooglePlay(options);
  fakes.push(fake);
  return { fake, connector: createGooglePlayConnector({ EARSHOT_UPSTREAM_GOOGLEPLAY: fake.url, ...env }, { retry: fastRetry }) };
}

describe('Google Play connector (reviews provider)', () => {
  it('asks the provider for the package in the source language and storefront, with the API key', async () => {
    const { fake, connector } = await connectorWith({ apps: { [packageName]: [titled] }, apiKey: 'gp-secret' }, { EARSHOT_GOOGLEPLAY_API_KEY: 'gp-secret' });
    await connector.reviews(source, since);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0].path).toBe(`/v1/apps/${packageName}/reviews`);
    expect(Object.fromEntries(fake.requests[0].query)).toEqual({ hl: 'de', gl: 'de', maxResults: '100' });
    expect(fake.requests[0].headers.authorization).toBe('Bearer gp-secret');
  });

  it('maps reviews, splitting a tab-joined title from the body', async () => {
    const { connector } = await connectorWith({ apps: { [packageName]: [untitled, titled] } });
    const reviewUrl = (id: string) => `https://play.google.com/store/apps/details?id=${packageName}&hl=de&gl=de&reviewId=${encodeURIComponent(id)}`;
    expect(await connector.reviews(source, since)).toEqual([
      {
        platform: 'googleplay',
        externalId: 'gp:AOqpTOHq1x2y3z',
        url: reviewUrl('gp:AOqpTOHq1x2y3z'),
        text: 'Sehr nützlich\n\nFindet Erwähnungen schneller als alles andere. Mehr unter https://earshot.example/de',
        title: 'Sehr nützlich',
        publishedAt: at(240),
        replyTo: null,
        links: ['https://earshot.example/de'],
        author: { platformId: 'Jonas Weber', name: 'Jonas Weber', handle: 'Jonas Weber', url: reviewUrl('gp:AOqpTOHq1x2y3z'), avatarUrl: null, followers: null },
        rating: 5,
        language: 'de',
      },
      {
        platform: 'googleplay',
        externalId: 'gp:AOqpTOFz9y8x7w',
        url: reviewUrl('gp:AOqpTOFz9y8x7w'),
        text: 'Stürzt beim Öffnen ab.',
        title: null,
        publishedAt: at(30),
        replyTo: null,
        links: [],
        author: { platformId: 'A Google user', name: 'A Google user', handle: 'A Google user', url: reviewUrl('gp:AOqpTOFz9y8x7w'), avatarUrl: null, followers: null },
        rating: 1,
        language: 'de',
      },
    ] satisfies NormalizedPost[]);
  });

  it('follows page tokens until it reaches reviews older than since', async () => {
    const reviews = Array.from({ length: 12 }, (_, n): GooglePlayReviewFixture => ({ ...untitled, reviewId: `gp:r${n}`, lastModified: at(100 - 10 * n) }));
    const { fake, connector } = await connectorWith({ apps: { [packageName]: reviews }, pageSize: 4 });
    const posts = await connector.reviews(source, since);
    expect(posts.map((post) => post.externalId)).toEqual(['gp:r0', 'gp:r1', 'gp:r2', 'gp:r3', 'gp:r4', 'gp:r5', 'gp:r6', 'gp:r7', 'gp:r8', 'gp:r9']);
    expect(fake.requests.map((request) => request.query.get('token'))).toEqual([null, '4', '8']);
  });

  describe('on a server with only the Developer API', () => {
    it('reads reviews.list at its own path, without a storefront, page by page', async () => {
      const reviews = Array.from({ length: 6 }, (_, n): GooglePlayReviewFixture => ({ ...untitled, reviewId: `gp:r${n}`, lastModified: at(100 - 30 * n) }));
      const { fake, connector } = await connectorWith({ apps: { [packageName]: [titled, ...reviews] }, pageSize: 3, developerApi: true });
      const posts = await connector.reviews(source, since);
      expect(posts.map((post) => post.externalId)).toEqual(['gp:AOqpTOHq1x2y3z', 'gp:r0', 'gp:r1', 'gp:r2', 'gp:r3']);
      const developerPath = `/androidpublisher/v3/applications/${packageName}/reviews`;
      expect(fake.requests.map((request) => request.path)).toEqual([`/v1/apps/${packageName}/reviews`, developerPath, developerPath]);
      expect(Object.fromEntries(fake.requests[1].query)).toEqual({ maxResults: '100', translationLanguage: 'de' });
      expect(fake.requests[2].query.get('token')).toBe('3');
    });

    it('maps a review as the provider contract does, as written rather than translated', async () => {
      const { fake, connector: developer } = await connectorWith({ apps: { [packageName]: [untitled, titled] }, developerApi: true });
      const { connector: provider } = await connectorWith({ apps: { [packageName]: [untitled, titled] } });
      const inEnglish: ReviewSourceRef = { ...source, language: 'en' };
      expect(await developer.reviews(inEnglish, since)).toEqual(await provider.reviews(inEnglish, since));
      expect(fake.requests[1].query.get('translationLanguage')).toBe('en');
    });

    it('keeps the provider\'s 404 for a package neither knows', async () => {
      const { fake, connector } = await connectorWith({ apps: {}, developerApi: true });
      const failure = await connector.reviews(source, since).catch((error: unknown) => error);
      expect(failure).toMatchObject({ status: 404 });
      expect(fake.requests).toHaveLength(2);
    });
  });

  it('reports a provider that is not configured, without calling anything', async () => {
    const connector = createGooglePlayConnector({}, { retry: fastRetry });
    const failure = await connector.reviews(source, since).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UpstreamConfigurationError);
    expect(failure).toMatchObject({ platform: 'googleplay', variable: 'EARSHOT_UPSTREAM_GOOGLEPLAY' });
  });

  describe('when the provider fails', () => {
    itSurvivesUpstreamFaults(async () => {
      const { fake, connector } = await connectorWith({ apps: { [packageName]: [titled] } });
      return { fake, call: () => connector.reviews(source, since) };
    });
  });

  describe('sourceFromUrl', () => {
    const connector = createGooglePlayConnector({});

    it('takes the package, language and storefront of the link', () => {
      expect(connector.sourceFromUrl('https://play.google.com/store/apps/details?id=com.earshot.mentions&hl=pt-BR&gl=BR')).toEqual({
        platform: 'googleplay',
        id: 'com.earshot.mentions',
        country: 'br',
        language: 'pt-BR',
        url: 'https://play.google.com/store/apps/details?id=com.earshot.mentions&hl=pt-BR&gl=br',
      });
    });

    it('defaults to English and the us storefront', () => {
      expect(connector.sourceFromUrl('https://play.google.com/store/apps/details?id=com.earshot.mentions')).toEqual({
        platform: 'googleplay',
        id: 'com.earshot.mentions',
        country: 'us',
        language: 'en',
        url: 'https://play.google.com/store/apps/details?id=com.earshot.mentions&hl=en&gl=us',
      });
    });

    it('is null for other links', () => {
      expect(connector.sourceFromUrl('https://play.google.com/store/apps/developer?id=Earshot')).toBeNull();
      expect(connector.sourceFromUrl('https://play.google.com/store/apps/details?id=not a package')).toBeNull();
      expect(connector.sourceFromUrl('https://apps.apple.com/us/app/id1459969523')).toBeNull();
    });

    it('gives the review page of a source', () => {
      expect(connector.pageUrl({ platform: 'googleplay', id: packageName, country: null, language: null })).toBe(
        `https://play.google.com/store/apps/details?id=${packageName}&hl=en&gl=us`,
      );
    });
  });
});
