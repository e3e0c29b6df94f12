import { afterEach, describe, expect, it } from 'vitest';
import { createBlueskyConnector } from '../jobs/connectors/bluesky.ts';
import { createDevToConnector } from '../jobs/connectors/devto.ts';
import { createHackerNewsConnector } from '../jobs/connectors/hackernews.ts';
import { createStackOverflowConnector } from '../jobs/connectors/stackoverflow.ts';
import { createXConnector } from '../jobs/connectors/x.ts';
import { createYouTubeConnector } from '../jobs/connectors/youtube.ts';
import type { SearchConnectorFactory } from '../jobs/connectors/connector.ts';
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
];

describe('a base address that already holds the API root', () => {
  it.each(cases)('%s: takes %s off the end of the base instead of doubling it', async (platform, create, root, path, env) => {
    const fake = await startFakeServer(() => null);
    fakes.push(fake);
    const connector = create({ [`EARSHOT_UPSTREAM_${platform.toUpperCase()}`]: `${fake.url}${root}/`, ...env }, { retry: fastRetry });
    await connector.search({ term: 'earshot', exactPhrase: false, since: new Date(Date.now() - 86_400_000) }).catch(() => null);
    expect(fake.requests[0].path).toBe(path);
  });
});
