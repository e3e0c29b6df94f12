import { afterEach, describe, expect, it } from 'vitest';
import type { ReviewSourceRef } from '../jobs/connectors/connector.ts';
import type { NormalizedPost } from '../vocabulary/normalized-post.ts';
import { createTrustpilotConnector } from '../jobs/connectors/trustpilot.ts';
import { UpstreamConfigurationError, UpstreamError } from '../runtime/upstream-http.ts';
import { type FakeUpstream, startFakeServer } from './fake-upstreams/fake-server.ts';
import { fastRetry, itSurvivesUpstreamFaults } from './fake-upstreams/fault-cases.ts';
import { startFakeTrustpilot, type TrustpilotBusinessFixture, type TrustpilotReviewFixture, trustpilotReview } from './fake-upstreams/trustpilot.ts';

const since = new Date('2025-03-01T00:00:00Z');
const at = (minutes: number) => new Date(since.getTime() + minutes * 60_000);
const apiKey = 'tp-key-123';
const source: ReviewSourceRef = { platform: 'trustpilot', id: 'earshot.example', country: null, language: null };

const happy: TrustpilotReviewFixture = {
  id: '67c1a2b3d4e5f60718293a4b',
  consumerId: '5d8b7c6a5f4e3d2c1b0a9988',
  consumerName: 'Priya S.',
  stars: 5,
  title: 'Our support team loves it',
  text: 'We answer complaints before they spread. Docs: https://earshot.example/docs',
  createdAt: at(500),
};
const unhappy: TrustpilotReviewFixture = {
  id: '67c1a2b3d4e5f60718293a4a',
  consumerId: '5d8b7c6a5f4e3d2c1b0a7766',
  consumerName: 'Marc',
  stars: 2,
  title: 'Billing surprise',
  text: 'Le solde a baissé plus vite que prévu.',
  language: 'fr',
  createdAt: at(20),
};
const business = (reviews: TrustpilotReviewFixture[]): TrustpilotBusinessFixture => ({
  id: '4bdd5a7e00006400050a1b2c', domain: 'earshot.example', displayName: 'Earshot', reviews,
});

const fakes: FakeUpstream[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.close()));
});

async function fakeWith(reviews: TrustpilotReviewFixture[]) {
  const fake = await startFakeTrustpilot({ businesses: [business(reviews)], apiKey });
  fakes.push(fake);
  return fake;
}

const connectorFor = (fake: FakeUpstream) =>
  createTrustpilotConnector({ EARSHOT_UPSTREAM_TRUSTPILOT: fake.url, EARSHOT_TRUSTPILOT_API_KEY: apiKey }, { retry: fastRetry });

describe('Trustpilot connector', () => {
  it('finds the business unit by domain once, then lists its reviews newest first', async () => {
    const fake = await fakeWith([happy]);
    const connector = connectorFor(fake);
    await connector.reviews(source, since);
    await connector.reviews(source, since);
    expect(fake.requests.map((request) => `${request.path}?${request.query}`)).toEqual([
      '/v1/business-units/find?name=earshot.example',
      '/v1/business-units/4bdd5a7e00006400050a1b2c/reviews?orderBy=createdat.desc&perPage=100&page=1',
      '/v1/business-units/4bdd5a7e00006400050a1b2c/reviews?orderBy=createdat.desc&perPage=100&page=1',
    ]);
    expect(fake.requests.every((request) => request.headers.apikey === apiKey)).toBe(true);
  });

  it('maps reviews to normalized posts', async () => {
    const connector = connectorFor(await fakeWith([unhappy, happy]));
    expect(await connector.reviews(source, since)).toEqual([
      {
        platform: 'trustpilot',
        externalId: '67c1a2b3d4e5f60718293a4b',
        url: 'https://www.trustpilot.com/reviews/67c1a2b3d4e5f60718293a4b',
        text: 'Our support team loves it\n\nWe answer complaints before they spread. Docs: https://earshot.example/docs',
        title: 'Our support team loves it',
        publishedAt: at(500),
        replyTo: null,
        links: ['https://earshot.example/docs'],
        author: {
          platformId: '5d8b7c6a5f4e3d2c1b0a9988',
          name: 'Priya S.',
          handle: 'Priya S.',
          url: 'https://www.trustpilot.com/users/5d8b7c6a5f4e3d2c1b0a9988',
          avatarUrl: null,
          followers: null,
        },
        rating: 5,
        language: 'en',
      },
      {
        platform: 'trustpilot',
        externalId: '67c1a2b3d4e5f60718293a4a',
        url: 'https://www.trustpilot.com/reviews/67c1a2b3d4e5f60718293a4a',
        text: 'Billing surprise\n\nLe solde a baissé plus vite que prévu.',
        title: 'Billing surprise',
        publishedAt: at(20),
        replyTo: null,
        links: [],
        author: {
          platformId: '5d8b7c6a5f4e3d2c1b0a7766',
          name: 'Marc',
          handle: 'Marc',
          url: 'https://www.trustpilot.com/users/5d8b7c6a5f4e3d2c1b0a7766',
          avatarUrl: null,
          followers: null,
        },
        rating: 2,
        language: 'fr',
      },
    ] satisfies NormalizedPost[]);
  });

  it('keeps the reviews of a page that parse and reads a createdAt without an offset as UTC', async () => {
    const fake = await startFakeServer((request) => {
      if (request.path === '/v1/business-units/find') return { body: { id: '4bdd5a7e00006400050a1b2c' } };
      if (request.path.endsWith('/reviews')) {
        return { body: { reviews: [
          { id: '67c1a2b3d4e5f60718293a4c', stars: 4, createdAt: at(600).toISOString() },
          { ...trustpilotReview(happy, business([happy])), createdAt: '2025-03-01T08:20:00' },
        ] } };
      }
      return null;
    });
    fakes.push(fake);
    const posts = await connectorFor(fake).reviews(source, since);
    expect(posts.map((post) => [post.externalId, post.publishedAt.toISOString()])).toEqual([[happy.id, '2025-03-01T08:20:00.000Z']]);
  });

  it('pages while there is a next page and the reviews are newer than since', async () => {
    const reviews = Array.from({ length: 250 }, (_, n): TrustpilotReviewFixture => ({ ...happy, id: `r${String(n).padStart(3, '0')}`, createdAt: at(2000 - 10 * n) }));
    const fake = await fakeWith(reviews);
    const posts = await connectorFor(fake).reviews(source, since);
    expect(posts).toHaveLength(200);
    expect(posts.at(-1)!.externalId).toBe('r199');
    expect(fake.requests.slice(1).map((request) => request.query.get('page'))).toEqual(['1', '2', '3']);

    const few = await fakeWith(reviews.slice(0, 150));
    expect(await connectorFor(few).reviews(source, since)).toHaveLength(150);
    expect(few.requests.slice(1).map((request) => request.query.get('page'))).toEqual(['1', '2']);
  });

  it('pages on a full page when the answer has no next-page link', async () => {
    // Written from Trustpilot's reference, whose response shows page links only as `<Description of the relation>`.
    const reviews = Array.from({ length: 150 }, (_, n) => trustpilotReview({ ...happy, id: `r${String(n).padStart(3, '0')}`, createdAt: at(2000 - 10 * n) }, business([happy])));
    const fake = await startFakeServer((request) => {
      if (request.path === '/v1/business-units/find') return { body: { id: '4bdd5a7e00006400050a1b2c', displayName: 'Earshot', name: { identifying: 'earshot.example', referring: ['earshot.example'] } } };
      if (!request.path.endsWith('/reviews')) return null;
      const page = Number(request.query.get('page') ?? 1);
      const perPage = Number(request.query.get('perPage') ?? 20);
      return { body: { links: [], reviews: reviews.slice((page - 1) * perPage, page * perPage) } };
    });
    fakes.push(fake);
    expect(await connectorFor(fake).reviews(source, since)).toHaveLength(150);
    expect(fake.requests.slice(1).map((request) => request.query.get('page'))).toEqual(['1', '2']);
  });

  it('names the domain when Trustpilot knows no such business', async () => {
    const connector = connectorFor(await fakeWith([happy]));
    const failure = await connector.reviews({ ...source, id: 'unknown.example' }, since).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UpstreamError);
    expect(failure).toMatchObject({ status: 404, message: 'trustpilot: no Trustpilot business unit for unknown.example' });
  });

  it('needs its API key', async () => {
    const fake = await fakeWith([happy]);
    const failure = await createTrustpilotConnector({ EARSHOT_UPSTREAM_TRUSTPILOT: fake.url }).reviews(source, since).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UpstreamConfigurationError);
    expect(failure).toMatchObject({ variable: 'EARSHOT_TRUSTPILOT_API_KEY' });
    expect(fake.requests).toEqual([]);
  });

  describe('when Trustpilot fails', () => {
    itSurvivesUpstreamFaults(async () => {
      const fake = await fakeWith([happy]);
      // A fresh connector per call, so every call looks the business unit up as the first one did.
      return { fake, call: () => connectorFor(fake).reviews(source, since) };
    });
  });

  describe('sourceFromUrl', () => {
    const connector = createTrustpilotConnector({});

    it('takes the company domain of a review page', () => {
      expect(connector.sourceFromUrl('https://www.trustpilot.com/review/earshot.example?page=2')).toEqual({
        platform: 'trustpilot', id: 'earshot.example', country: null, language: null, url: 'https://www.trustpilot.com/review/earshot.example',
      });
    });

    it('knows country sites and bare trustpilot.com', () => {
      expect(connector.sourceFromUrl('https://uk.trustpilot.com/review/www.Earshot.example')).toMatchObject({ id: 'www.earshot.example', country: null });
      expect(connector.sourceFromUrl('https://de.trustpilot.com/review/earshot.example/')).toMatchObject({ id: 'earshot.example' });
      expect(connector.sourceFromUrl('https://trustpilot.com/review/earshot.example')).toMatchObject({ id: 'earshot.example' });
    });

    it('is null for other links', () => {
      expect(connector.sourceFromUrl('https://www.trustpilot.com/categories/software')).toBeNull();
      expect(connector.sourceFromUrl('https://trustpilot.com.evil.example/review/earshot.example')).toBeNull();
    });

    it('gives the review page of a source', () => {
      expect(connector.pageUrl(source)).toBe('https://www.trustpilot.com/review/earshot.example');
    });
  });
});
