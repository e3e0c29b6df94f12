import { afterEach, describe, expect, it } from 'vitest';
import { createBlueskyConnector } from '../jobs/connectors/bluesky.ts';
import { createDevToConnector } from '../jobs/connectors/devto.ts';
import { createHackerNewsConnector } from '../jobs/connectors/hackernews.ts';
import { createNewsConnector } from '../jobs/connectors/news.ts';
import { createStackOverflowConnector } from '../jobs/connectors/stackoverflow.ts';
import { createXConnector } from '../jobs/connectors/x.ts';
import { createYouTubeConnector } from '../jobs/connectors/youtube.ts';
import { createGoogleMapsConnector } from '../jobs/connectors/googlemaps.ts';
import { createTrustpilotConnector } from '../jobs/connectors/trustpilot.ts';
import type { SearchConnectorFactory } from '../jobs/connectors/connector.ts';
import { stripeSettings } from '../subgraphs/billing/stripe-checkout.ts';
import { slackApp, slackInstallUrl } from '../subgraphs/team/slack-api.ts';
import { type FakeUpstream, startFakeServer } from './fake-upstreams/fake-server.ts';
import { fastRetry } from './fake-upstreams/fault-cases.ts';

const fakes: FakeUpstream[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.close()));
});

// API references write these roots into the base address; the connectors put them first on every call.
const cases: [string, SearchConnectorFactory, string, string, Record<string, string>][] = [
  ['hackernews', createHackerNewsConnector, '/api/v1', '/api/v1/search_by_date', {}],
  ['stackoverflow', createStackOverflowConnector, '/2.3', '/2.3/search/advanced', {}],
  ['youtube', createYouTubeConnector, '/youtube/v3', '/youtube/v3/search', { EARSHOT_YOUTUBE_API_KEY: 'k' }],
  ['x', createXConnector, '/2', '/2/tweets/search/recent', { EARSHOT_X_BEARER_TOKEN: 't' }],
  ['bluesky', createBlueskyConnector, '/xrpc', '/xrpc/app.bsky.feed.searchPosts', {}],
  ['devto', createDevToConnector, '/api', '/api/articles/latest', {}],
  ['news', createNewsConnector, '/rss', '/rss/search', {}],
];

describe('a base address that already holds the API root', () => {
  it.each(cases)('%s: takes the API root off the end of the base instead of doubling it', async (platform, create, root, path, env) => {
    const fake = await startFakeServer(() => null);
    fakes.push(fake);
    const connector = create({ [`EARSHOT_UPSTREAM_${platform.toUpperCase()}`]: `${fake.url}${root}/`, ...env }, { retry: fastRetry });
    await connector.search({ term: 'earshot', exactPhrase: false, since: new Date(Date.now() - 86_400_000) }).catch(() => null);
    expect(fake.requests[0].path).toBe(path);
  });
});

describe('a base address with the API root of a review platform or an outbound service', () => {
  const since = new Date(Date.now() - 86_400_000);

  it('trustpilot: takes /v1 off the end of the base', async () => {
    const fake = await startFakeServer(() => null);
    fakes.push(fake);
    const connector = createTrustpilotConnector({ EARSHOT_UPSTREAM_TRUSTPILOT: `${fake.url}/v1/`, EARSHOT_TRUSTPILOT_API_KEY: 'k' }, { retry: fastRetry });
    await connector.reviews({ platform: 'trustpilot', id: 'earshot.dev', country: null, language: null }, since).catch(() => null);
    expect(fake.requests[0].path).toBe('/v1/business-units/find');
  });

  it('googlemaps: takes /v1 off the Places base, and the legacy look-up keeps its own path', async () => {
    const fake = await startFakeServer(() => null);
    fakes.push(fake);
    const connector = createGoogleMapsConnector({ EARSHOT_UPSTREAM_GOOGLEMAPS: `${fake.url}/v1`, EARSHOT_GOOGLE_MAPS_API_KEY: 'k' }, { retry: fastRetry });
    await connector.reviews({ platform: 'googlemaps', id: 'ChIJN1t_tDeuEmsRUsoyG83frY4', country: null, language: null }, since).catch(() => null);
    await connector.reviews({ platform: 'googlemaps', id: 'cid:10281119596374313554', country: null, language: null }, since).catch(() => null);
    // The fake answers 404, so the place id's read falls back to legacy Place Details before the cid look-up.
    expect(fake.requests.map((request) => request.path)).toEqual([
      '/v1/places/ChIJN1t_tDeuEmsRUsoyG83frY4',
      '/maps/api/place/details/json',
      '/maps/api/place/details/json',
    ]);
  });

  it('stripe: takes /v1 off the end of the base', () => {
    expect(stripeSettings({ EARSHOT_STRIPE_SECRET_KEY: 'sk_test', EARSHOT_UPSTREAM_STRIPE: 'http://127.0.0.1:9000/stripe/v1/' })!.apiBase).toBe('http://127.0.0.1:9000/stripe');
  });

  it('slack: takes /api off the end of the base, so the install page and the Web API share it', () => {
    const app = slackApp({ EARSHOT_SLACK_CLIENT_ID: 'c', EARSHOT_SLACK_CLIENT_SECRET: 's', EARSHOT_SLACK_SIGNING_SECRET: 'g', EARSHOT_UPSTREAM_SLACK: 'http://127.0.0.1:9000/api' })!;
    expect(new URL(slackInstallUrl(app, 'state')).pathname).toBe('/oauth/v2/authorize');
  });
});
