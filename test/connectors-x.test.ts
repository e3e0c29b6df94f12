import { afterEach, describe, expect, it } from 'vitest';
import type { NormalizedPost } from '../vocabulary/normalized-post.ts';
import { UpstreamConfigurationError, UpstreamError } from '../runtime/upstream-http.ts';
import { createXConnector } from '../jobs/connectors/x.ts';
import { type FakeServerOptions, type FakeUpstream, startFakeServer } from './fake-upstreams/fake-server.ts';
import { fastRetry, itSurvivesUpstreamFaults } from './fake-upstreams/fault-cases.ts';
import { startFakeX, type XTweet, type XUser, xTweet, xUser } from './fake-upstreams/x.ts';

const now = Math.floor(Date.now() / 1000) * 1000;
const hoursAgo = (hours: number) => new Date(now - hours * 3_600_000);
const since = hoursAgo(48);

const maker = xUser({ id: '1450000000000000001', username: 'shipfast', name: 'Ship Fast 🚀', followers: 15_300, website: 'https://shipfast.example/' });
const critic = xUser({ id: '1450000000000000002', username: 'critic', name: 'A Critic', followers: 12 });
const launch = xTweet({
  id: '1890000000000000001',
  author: maker,
  text: 'Earshot & friends: alerts <fast> https://t.co/AbCdEf123 https://t.co/PhOtO999',
  links: [
    { url: 'https://t.co/AbCdEf123', expanded: 'https://earshot.example/launch' },
    { url: 'https://t.co/PhOtO999', expanded: 'https://x.com/shipfast/status/1890000000000000001/photo/1', media: true },
  ],
  createdAt: hoursAgo(3),
  lang: 'en',
});
const reply = xTweet({ id: '1890000000000000002', author: critic, text: '@shipfast is Earshot GDPR-ready?', createdAt: hoursAgo(2), replyToId: launch.id, lang: 'und' });

const fakes: FakeUpstream[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.close()));
});

async function connectorWith(tweets: XTweet[], users: XUser[], env: Record<string, string> = { EARSHOT_X_BEARER_TOKEN: 'x-test-token' }, options: FakeServerOptions = {}) {
  const fake = await startFakeX({ tweets, users }, options);
  fakes.push(fake);
  return { fake, connector: createXConnector({ EARSHOT_UPSTREAM_X: fake.url, ...env }, { retry: fastRetry }) };
}

describe('X connector', () => {
  it('asks recent search with the bearer token, without reposts, for the fields and expansions it maps', async () => {
    const { fake, connector } = await connectorWith([launch], [maker]);
    await connector.search({ term: 'earshot', exactPhrase: true, since, limit: 5 });
    expect(fake.requests[0].path).toBe('/2/tweets/search/recent');
    expect(fake.requests[0].headers.authorization).toBe('Bearer x-test-token');
    expect(Object.fromEntries(fake.requests[0].query)).toEqual({
      query: '"earshot" -is:retweet',
      max_results: '10',
      start_time: since.toISOString().replace('.000Z', 'Z'),
      'tweet.fields': 'created_at,author_id,entities,conversation_id,referenced_tweets,lang,note_tweet',
      expansions: 'author_id',
      'user.fields': 'username,name,profile_image_url,public_metrics,entities',
    });
  });

  it('keeps start_time within the seven days recent search allows', async () => {
    const { fake, connector } = await connectorWith([launch], [maker]);
    const page = await connector.search({ term: 'earshot', exactPhrase: false, since: hoursAgo(24 * 30) });
    expect(page.posts).toHaveLength(1);
    expect(Date.parse(fake.requests[0].query.get('start_time')!)).toBeGreaterThan(Date.now() - 7 * 86_400_000);
  });

  it('maps posts: real link addresses in text and links, media left out, author reach, reply, language', async () => {
    const { connector } = await connectorWith([launch, reply], [maker, critic]);
    expect(await connector.search({ term: 'earshot', exactPhrase: false, since })).toEqual({
      nextCursor: null,
      posts: [
        {
          platform: 'x',
          externalId: '1890000000000000002',
          url: 'https://x.com/critic/status/1890000000000000002',
          text: '@shipfast is Earshot GDPR-ready?',
          publishedAt: hoursAgo(2),
          replyTo: 'https://x.com/i/web/status/1890000000000000001',
          links: [],
          author: { platformId: '1450000000000000002', name: 'A Critic', handle: 'critic', url: 'https://x.com/critic', avatarUrl: 'https://pbs.twimg.com/profile_images/1450000000000000002/avatar_normal.jpg', followers: 12, links: [] },
          language: null,
        },
        {
          platform: 'x',
          externalId: '1890000000000000001',
          url: 'https://x.com/shipfast/status/1890000000000000001',
          text: 'Earshot & friends: alerts <fast> https://earshot.example/launch',
          publishedAt: hoursAgo(3),
          replyTo: null,
          links: ['https://earshot.example/launch'],
          author: { platformId: '1450000000000000001', name: 'Ship Fast 🚀', handle: 'shipfast', url: 'https://x.com/shipfast', avatarUrl: 'https://pbs.twimg.com/profile_images/1450000000000000001/avatar_normal.jpg', followers: 15_300, links: ['https://shipfast.example/'] },
          language: 'en',
        },
      ] satisfies NormalizedPost[],
    });
  });

  it('takes the whole text of a long post from note_tweet', async () => {
    const longText = `Earshot long read ${'words '.repeat(60)}https://t.co/LoNg0001`;
    const long = xTweet({ id: '1890000000000000003', author: maker, text: `${longText.slice(0, 270)}…`, longText, links: [{ url: 'https://t.co/LoNg0001', expanded: 'https://earshot.example/long' }], createdAt: hoursAgo(1) });
    const { connector } = await connectorWith([long], [maker]);
    const [post] = (await connector.search({ term: 'earshot', exactPhrase: false, since })).posts;
    expect(post.text).toBe(longText.replace('https://t.co/LoNg0001', 'https://earshot.example/long').trim());
    expect(post.links).toEqual(['https://earshot.example/long']);
  });

  it('keeps a post whose author the answer does not include, and takes nulls and a missing meta', async () => {
    const fake = await startFakeServer((request) => request.path === '/2/tweets/search/recent'
      ? { body: { data: [{ id: '1790000000000000001', text: 'earshot is neat', author_id: '2244994945', created_at: hoursAgo(1).toISOString(), lang: null, entities: null }] } }
      : null);
    fakes.push(fake);
    const page = await createXConnector({ EARSHOT_UPSTREAM_X: fake.url, EARSHOT_X_BEARER_TOKEN: 't' }, { retry: fastRetry }).search({ term: 'earshot', exactPhrase: false, since });
    expect(page).toEqual({
      nextCursor: null,
      posts: [{
        platform: 'x',
        externalId: '1790000000000000001',
        url: 'https://x.com/i/web/status/1790000000000000001',
        text: 'earshot is neat',
        publishedAt: hoursAgo(1),
        replyTo: null,
        links: [],
        author: { platformId: '2244994945', name: '2244994945', handle: '2244994945', url: 'https://x.com/i/user/2244994945', avatarUrl: null, followers: null },
        language: null,
      }],
    });
  });

  it('reads a created_at without an offset as UTC, and keeps the other posts of a page with one lacking its text', async () => {
    const stamp = hoursAgo(1).toISOString().replace(/\.\d{3}Z$/, '');
    const fake = await startFakeServer((request) => request.path === '/2/tweets/search/recent'
      ? { body: { data: [
        { id: '1790000000000000002', author_id: '2244994945', created_at: hoursAgo(2).toISOString() },
        { id: '1790000000000000003', text: 'earshot at a local time', author_id: '2244994945', created_at: stamp },
      ] } }
      : null);
    fakes.push(fake);
    const page = await createXConnector({ EARSHOT_UPSTREAM_X: fake.url, EARSHOT_X_BEARER_TOKEN: 't' }, { retry: fastRetry }).search({ term: 'earshot', exactPhrase: false, since });
    expect(page.posts.map((post) => [post.externalId, post.publishedAt.toISOString()])).toEqual([['1790000000000000003', `${stamp}.000Z`]]);
  });

  it('follows next_token', async () => {
    const tweets = Array.from({ length: 12 }, (_, n) => xTweet({ id: `18900000000000001${String(n).padStart(2, '0')}`, author: maker, text: `earshot ${n}`, createdAt: hoursAgo(n + 1) }));
    const { fake, connector } = await connectorWith(tweets, [maker]);
    const first = await connector.search({ term: 'earshot', exactPhrase: false, since, limit: 10 });
    const second = await connector.search({ term: 'earshot', exactPhrase: false, since, limit: 10, cursor: first.nextCursor });
    expect([first.posts.length, second.posts.length, second.nextCursor]).toEqual([10, 2, null]);
    expect(fake.requests[1].query.get('next_token')).toBe(first.nextCursor);
    expect(new Set([...first.posts, ...second.posts].map((post) => post.externalId)).size).toBe(12);
  });

  it('refuses to run without EARSHOT_X_BEARER_TOKEN, calling nothing', async () => {
    const { fake, connector } = await connectorWith([launch], [maker], {});
    const failure = await connector.search({ term: 'earshot', exactPhrase: false, since }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UpstreamConfigurationError);
    expect(failure).toMatchObject({ platform: 'x', variable: 'EARSHOT_X_BEARER_TOKEN' });
    expect(fake.requests).toHaveLength(0);
  });

  it('gives up at once on a rate-limit window far from its reset, with the wait', async () => {
    const { fake, connector } = await connectorWith([launch], [maker], undefined, { retryAfterSeconds: 600 });
    fake.failNext('rate-limit');
    const failure = await connector.search({ term: 'earshot', exactPhrase: false, since }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UpstreamError);
    expect(failure).toMatchObject({ status: 429 });
    expect((failure as UpstreamError).retryAfterSeconds).toBeGreaterThan(590);
    expect(fake.requests).toHaveLength(1);
  });

  itSurvivesUpstreamFaults(async () => {
    const { fake, connector } = await connectorWith([launch, reply], [maker, critic]);
    return { fake, call: () => connector.search({ term: 'earshot', exactPhrase: false, since }) };
  });
});
