import { afterEach, describe, expect, it } from 'vitest';
import type { ReviewSourceRef } from '../jobs/connectors/connector.ts';
import { createGoogleMapsConnector, placeIdFromFeatureId } from '../jobs/connectors/googlemaps.ts';
import type { NormalizedPost } from '../vocabulary/normalized-post.ts';
import { UpstreamConfigurationError, UpstreamError } from '../runtime/upstream-http.ts';
import { type FakeUpstream, startFakeServer } from './fake-upstreams/fake-server.ts';
import { fastRetry, itSurvivesUpstreamFaults } from './fake-upstreams/fault-cases.ts';
import { type PlaceFixture, type PlaceReviewFixture, startFakeGoogleMaps } from './fake-upstreams/googlemaps.ts';

const since = new Date('2025-03-01T00:00:00Z');
const at = (minutes: number) => new Date(since.getTime() + minutes * 60_000);
const apiKey = 'AIzaSyFakeKeyForTests';
const placeId = 'ChIJN1t_tDeuEmsRUsoyG83frY4';
const cid = '10281119596374313554';
const source: ReviewSourceRef = { platform: 'googlemaps', id: placeId, country: null, language: null };

const translated: PlaceReviewFixture = {
  id: 'ChZDSUhNMG9nS0VJQ0FnSURIMXJyV2ZREAE',
  rating: 5,
  text: 'Friendly staff, and they track what customers say about them: https://earshot.example',
  originalText: { text: 'Personal muy amable, y siguen lo que dicen los clientes: https://earshot.example', languageCode: 'es' },
  authorName: 'Lucía Fernández',
  contributorId: '104857362918273645123',
  publishTime: at(90),
};
const old: PlaceReviewFixture = {
  id: 'ChdDSUhNMG9nS0VJQ0FnSUNIbDVUYXZRRRAB',
  rating: 3,
  text: 'Fine, nothing special.',
  authorName: 'Sam K',
  contributorId: '117263548192837465012',
  photoUri: 'https://lh3.googleusercontent.com/a/ACg8ocSamK=s128-c0x00000000-cc-rp-mo',
  publishTime: at(-600),
};
const recent: PlaceReviewFixture = {
  id: 'ChZDSUhNMG9nS0VJQ0FnTUR3OEpYZUZREAE',
  rating: 1,
  text: 'Waited forty minutes.',
  authorName: 'Dee',
  contributorId: '100200300400500600700',
  photoUri: 'https://lh3.googleusercontent.com/a/ACg8ocDee=s128-c0x00000000-cc-rp-mo',
  publishTime: at(400),
};
const place: PlaceFixture = { placeId, cid, displayName: 'Earshot Café', reviews: [translated, old, recent] };

const fakes: FakeUpstream[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.close()));
});

async function connectorWith(places: PlaceFixture[], legacyOnly = false) {
  const fake = await startFakeGoogleMaps({ places, apiKey, legacyOnly });
  fakes.push(fake);
  return { fake, connector: createGoogleMapsConnector({ EARSHOT_UPSTREAM_GOOGLEMAPS: fake.url, EARSHOT_GOOGLE_MAPS_API_KEY: apiKey }, { retry: fastRetry }) };
}

describe('Google Maps connector', () => {
  it('asks Place Details (New) for reviews, name and maps link with the key', async () => {
    const { fake, connector } = await connectorWith([place]);
    await connector.reviews(source, since);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0].path).toBe(`/v1/places/${placeId}`);
    expect(fake.requests[0].headers['x-goog-api-key']).toBe(apiKey);
    expect(fake.requests[0].headers['x-goog-fieldmask']).toBe('reviews,displayName,googleMapsUri');
  });

  it('maps the reviews newer than since, newest first, as written', async () => {
    const { connector } = await connectorWith([place]);
    const reviewUri = (id: string) => `https://www.google.com/maps/reviews/data=!4m6!14m5!1m4!2m3!1s${id}!2m1!1s0x0:0x8eaddfcd1b32ca52`;
    expect(await connector.reviews(source, since)).toEqual([
      {
        platform: 'googlemaps',
        externalId: `places/${placeId}/reviews/${recent.id}`,
        url: reviewUri(recent.id),
        text: 'Waited forty minutes.',
        publishedAt: at(400),
        replyTo: null,
        links: [],
        author: {
          platformId: '100200300400500600700',
          name: 'Dee',
          handle: 'Dee',
          url: 'https://www.google.com/maps/contrib/100200300400500600700/reviews',
          avatarUrl: 'https://lh3.googleusercontent.com/a/ACg8ocDee=s128-c0x00000000-cc-rp-mo',
          followers: null,
        },
        rating: 1,
        language: 'en',
      },
      {
        platform: 'googlemaps',
        externalId: `places/${placeId}/reviews/${translated.id}`,
        url: reviewUri(translated.id),
        text: 'Personal muy amable, y siguen lo que dicen los clientes: https://earshot.example',
        publishedAt: at(90),
        replyTo: null,
        links: ['https://earshot.example'],
        author: {
          platformId: '104857362918273645123',
          name: 'Lucía Fernández',
          handle: 'Lucía Fernández',
          url: 'https://www.google.com/maps/contrib/104857362918273645123/reviews',
          avatarUrl: 'https://lh3.googleusercontent.com/a-/ALV-UjX104857362918273645123=s128-c0x00000000-cc-rp-mo',
          followers: null,
        },
        rating: 5,
        language: 'es',
      },
    ] satisfies NormalizedPost[]);
  });

  it('resolves a cid source to its Place ID once, with the legacy Place Details look-up', async () => {
    const { fake, connector } = await connectorWith([place]);
    const byCid: ReviewSourceRef = { ...source, id: `cid:${cid}` };
    const posts = await connector.reviews(byCid, since);
    await connector.reviews(byCid, since);
    expect(posts.map((post) => post.externalId)).toEqual([`places/${placeId}/reviews/${recent.id}`, `places/${placeId}/reviews/${translated.id}`]);
    expect(fake.requests.map((request) => request.path)).toEqual(['/maps/api/place/details/json', `/v1/places/${placeId}`, `/v1/places/${placeId}`]);
    expect(Object.fromEntries(fake.requests[0].query)).toEqual({ cid, fields: 'place_id', key: apiKey });
  });

  it('reads a source written as a bare cid the same way', async () => {
    const { connector } = await connectorWith([place]);
    expect(await connector.reviews({ ...source, id: cid }, since)).toEqual(await connector.reviews(source, since));
  });

  it('fails plainly for a cid Google does not know', async () => {
    const { connector } = await connectorWith([place]);
    const failure = await connector.reviews({ ...source, id: 'cid:123' }, since).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UpstreamError);
    expect((failure as Error).message).toBe('googlemaps: cid 123 resolves to no place: NOT_FOUND');
  });

  describe('on a server with only the legacy Places API', () => {
    it('reads the newest reviews of legacy Place Details, as written', async () => {
      const { fake, connector } = await connectorWith([place], true);
      const posts = await connector.reviews(source, since);
      expect(fake.requests.map((request) => request.path)).toEqual([`/v1/places/${placeId}`, '/maps/api/place/details/json']);
      expect(Object.fromEntries(fake.requests[1].query)).toEqual({
        place_id: placeId, fields: 'reviews,name,url', reviews_sort: 'newest', reviews_no_translations: 'true', key: apiKey,
      });
      // Author, text as written, time, rating and language as Places API (New) gives them; the link is the place's.
      const { connector: current } = await connectorWith([place]);
      const withoutIdAndLink = (all: NormalizedPost[]) => all.map(({ externalId, url, ...post }) => post);
      expect(withoutIdAndLink(posts)).toEqual(withoutIdAndLink(await current.reviews(source, since)));
      expect(posts.map((post) => [post.text, post.url])).toEqual([
        ['Waited forty minutes.', `https://maps.google.com/?cid=${cid}`],
        ['Personal muy amable, y siguen lo que dicen los clientes: https://earshot.example', `https://maps.google.com/?cid=${cid}`],
      ]);
    });

    it('names a review the same on every poll, and each review apart', async () => {
      const { connector } = await connectorWith([place], true);
      const ids = (await connector.reviews(source, since)).map((post) => post.externalId);
      expect(new Set(ids).size).toBe(2);
      ids.forEach((id) => expect(id).toMatch(new RegExp(`^places/${placeId}/reviews/[A-Za-z0-9_-]+$`)));
      expect((await connector.reviews(source, since)).map((post) => post.externalId)).toEqual(ids);
    });

    it('asks in the source language', async () => {
      const { fake, connector } = await connectorWith([place], true);
      await connector.reviews({ ...source, language: 'es' }, since);
      expect(fake.requests[1].query.get('language')).toBe('es');
    });

    it('fails plainly for a place Google does not know', async () => {
      const { connector } = await connectorWith([place], true);
      const failure = await connector.reviews({ ...source, id: 'ChIJunknownPlaceId00000' }, since).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(UpstreamError);
      expect((failure as Error).message).toBe('googlemaps: place ChIJunknownPlaceId00000 is unknown: NOT_FOUND');
    });
  });

  it('keeps the 404 of a server that serves neither Places API', async () => {
    const fake = await startFakeGoogleMaps({ places: [], apiKey, legacyOnly: true });
    fakes.push(fake);
    const connector = createGoogleMapsConnector({ EARSHOT_UPSTREAM_GOOGLEMAPS: `${fake.url}/elsewhere`, EARSHOT_GOOGLE_MAPS_API_KEY: apiKey }, { retry: fastRetry });
    const failure = await connector.reviews(source, since).catch((error: unknown) => error);
    expect(failure).toMatchObject({ status: 404 });
    expect(fake.requests.map((request) => request.path)).toEqual([`/elsewhere/v1/places/${placeId}`, '/elsewhere/maps/api/place/details/json']);
  });

  // Only the legacy API's refusal (404, 400) means the server serves neither: its 503 is a failure of its own, which a later poll may get past.
  it('tells the 5xx of legacy Place Details rather than the 404 of Places API (New)', async () => {
    const fake = await startFakeServer((request) => (request.path.startsWith('/v1/places/') ? null : { status: 503, body: { error: 'unavailable' } }));
    fakes.push(fake);
    const connector = createGoogleMapsConnector({ EARSHOT_UPSTREAM_GOOGLEMAPS: fake.url, EARSHOT_GOOGLE_MAPS_API_KEY: apiKey }, { retry: fastRetry });
    const failure = await connector.reviews(source, since).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UpstreamError);
    expect(failure).toMatchObject({ status: 503 });
    expect(fake.requests.map((request) => request.path)).toEqual([`/v1/places/${placeId}`, ...Array(fastRetry.attempts).fill('/maps/api/place/details/json')]);
  });

  it('needs its API key', async () => {
    const failure = await createGoogleMapsConnector({}).reviews(source, since).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UpstreamConfigurationError);
    expect(failure).toMatchObject({ variable: 'EARSHOT_GOOGLE_MAPS_API_KEY' });
  });

  describe('when Google fails', () => {
    itSurvivesUpstreamFaults(async () => {
      const { fake, connector } = await connectorWith([place]);
      return { fake, call: () => connector.reviews(source, since) };
    });
  });

  describe('sourceFromUrl', () => {
    const connector = createGoogleMapsConnector({});
    const byId = (id: string, url: string) => ({ platform: 'googlemaps', id, country: null, language: null, url });
    const placePage = `https://www.google.com/maps/place/?q=place_id:${placeId}`;

    it('takes a bare Place ID', () => {
      expect(connector.sourceFromUrl(placeId)).toEqual(byId(placeId, placePage));
    });

    it('takes the Place ID of a maps link', () => {
      expect(connector.sourceFromUrl(`https://www.google.com/maps/search/?api=1&query=Earshot%20Caf%C3%A9&query_place_id=${placeId}`)).toEqual(byId(placeId, placePage));
      expect(connector.sourceFromUrl(`https://www.google.com/maps/place/?q=place_id:${placeId}`)).toEqual(byId(placeId, placePage));
    });

    it('derives the Place ID from the feature id of a full maps link', () => {
      expect(placeIdFromFeatureId('0x6b12ae37b47f5b37:0x8eaddfcd1b32ca52')).toBe(placeId);
      const link = 'https://www.google.com/maps/place/Google+Sydney/@-33.866489,151.1958,17z/data=!3m1!4b1!4m6!3m5!1s0x6b12ae37b47f5b37:0x8eaddfcd1b32ca52!8m2!3d-33.866489!4d151.1958!16s%2Fg%2F1tdg6r9v';
      expect(connector.sourceFromUrl(link)).toEqual(byId(placeId, placePage));
    });

    it('keeps a cid link as cid:{number}', () => {
      const cidPage = `https://maps.google.com/?cid=${cid}`;
      expect(connector.sourceFromUrl(`https://maps.google.com/?cid=${cid}`)).toEqual(byId(`cid:${cid}`, cidPage));
      expect(connector.sourceFromUrl(`https://www.google.co.uk/maps?cid=${cid}&hl=en`)).toEqual(byId(`cid:${cid}`, cidPage));
    });

    it('gives the page of a source named by a bare cid', () => {
      expect(connector.pageUrl({ ...source, id: cid })).toBe(`https://maps.google.com/?cid=${cid}`);
    });

    it('is null for other links and for text that is no Place ID', () => {
      expect(connector.sourceFromUrl(cid)).toBeNull();
      expect(connector.sourceFromUrl('earshot-example-company-page')).toBeNull();
      expect(connector.sourceFromUrl('https://www.google.com/search?q=earshot')).toBeNull();
      expect(connector.sourceFromUrl('https://www.google.com/maps/@-33.86,151.19,15z')).toBeNull();
      expect(connector.sourceFromUrl('https://www.trustpilot.com/review/earshot.example')).toBeNull();
    });
  });
});
