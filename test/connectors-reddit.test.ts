import { afterEach, describe, expect, it } from 'vitest';
import type { NormalizedPost } from '../vocabulary/normalized-post.ts';
import { createRedditConnector } from '../jobs/connectors/reddit.ts';
import { type FakeUpstream, startFakeServer } from './fake-upstreams/fake-server.ts';
import { fastRetry, itSurvivesUpstreamFaults } from './fake-upstreams/fault-cases.ts';
import { type FakeRedditFixtures, redditComment, redditPost, startFakeReddit } from './fake-upstreams/reddit.ts';

const now = Math.floor(Date.now() / 1000) * 1000;
const hoursAgo = (hours: number) => new Date(now - hours * 3_600_000);
const since = hoursAgo(24 * 30);

const selfPost = redditPost({
  id: '1abcde',
  subreddit: 'SaaS',
  title: 'Is Earshot worth it for a two-person team?',
  selftext: 'We compared it with [Brand24](https://brand24.com/pricing) & a homegrown script (see https://github.com/acme/mentions).',
  author: 'TinyFounder',
  authorId: 't2_9xyz',
  createdAt: hoursAgo(5),
});
const linkPost = redditPost({
  id: '1abcdf',
  subreddit: 'programming',
  title: 'Earshot open-sources its matcher',
  url: 'https://earshot.example/blog/matcher',
  author: 'newsbot',
  createdAt: hoursAgo(10),
});

const fakes: FakeUpstream[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.close()));
});

async function connectorWith(fixtures: FakeRedditFixtures, credentials: Record<string, string> = {}) {
  const fake = await startFakeReddit(fixtures);
  fakes.push(fake);
  const env = { EARSHOT_UPSTREAM_REDDIT: fake.url, EARSHOT_UPSTREAM_REDDIT_AUTH: fake.url, ...credentials };
  return { fake, connector: createRedditConnector(env, { retry: fastRetry }) };
}

describe('Reddit connector', () => {
  it('searches newest first over the narrowest window reaching since, raw JSON, without OAuth when no client is set', async () => {
    const { fake, connector } = await connectorWith({ posts: [selfPost] });
    await connector.search({ term: 'earshot', exactPhrase: false, since, limit: 100 });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0].path).toBe('/search.json');
    expect(Object.fromEntries(fake.requests[0].query)).toEqual({ q: 'earshot', sort: 'new', t: 'month', limit: '100', raw_json: '1' });
    expect(fake.requests[0].headers.authorization).toBeUndefined();
    expect(fake.requests[0].headers['user-agent']).toBe('web:earshot:0.0.1 (mention tracking)');

    await connector.search({ term: 'earshot', exactPhrase: true, since: hoursAgo(20) });
    expect(fake.requests[1].query.get('t')).toBe('day');
    expect(fake.requests[1].query.get('q')).toBe('"earshot"');
  });

  it('maps self and link posts with their subreddit', async () => {
    const { connector } = await connectorWith({ posts: [selfPost, linkPost] });
    const page = await connector.search({ term: 'earshot', exactPhrase: false, since });
    expect(page).toEqual({
      nextCursor: null,
      posts: [
        {
          platform: 'reddit',
          externalId: 't3_1abcde',
          url: 'https://www.reddit.com/r/SaaS/comments/1abcde/is_earshot_worth_it_for_a_two_person_team/',
          text: 'Is Earshot worth it for a two-person team?\n\nWe compared it with [Brand24](https://brand24.com/pricing) & a homegrown script (see https://github.com/acme/mentions).',
          title: 'Is Earshot worth it for a two-person team?',
          publishedAt: hoursAgo(5),
          replyTo: null,
          links: ['https://brand24.com/pricing', 'https://github.com/acme/mentions'],
          author: { platformId: 't2_9xyz', name: 'TinyFounder', handle: 'TinyFounder', url: 'https://www.reddit.com/user/TinyFounder', avatarUrl: null, followers: null },
          subreddit: 'saas',
        },
        {
          platform: 'reddit',
          externalId: 't3_1abcdf',
          url: 'https://www.reddit.com/r/programming/comments/1abcdf/earshot_open_sources_its_matcher/',
          text: 'Earshot open-sources its matcher',
          title: 'Earshot open-sources its matcher',
          publishedAt: hoursAgo(10),
          replyTo: null,
          links: ['https://earshot.example/blog/matcher'],
          author: { platformId: 't2_newsbot', name: 'newsbot', handle: 'newsbot', url: 'https://www.reddit.com/user/newsbot', avatarUrl: null, followers: null },
          subreddit: 'programming',
        },
      ] satisfies NormalizedPost[],
    });
  });

  it('maps a listing without kinds whose optional fields are null, its text escaped as without raw_json', async () => {
    const created = hoursAgo(2);
    const fake = await startFakeServer((request) => request.path === '/search.json'
      ? { body: { data: { after: null, children: [{ data: {
        id: 'abc12', title: 'Anyone using earshot &amp; alerts?', selftext: null, author: 'frank', author_fullname: null, subreddit: 'programming',
        permalink: '/r/programming/comments/abc12/anyone_using/', url: 'https://earshot.example/', url_overridden_by_dest: null, is_self: false, created_utc: created.getTime() / 1000,
      } }] } } }
      : null);
    fakes.push(fake);
    const page = await createRedditConnector({ EARSHOT_UPSTREAM_REDDIT: fake.url }, { retry: fastRetry }).search({ term: 'earshot', exactPhrase: false, since });
    expect(page.posts.map((post) => [post.externalId, post.url, post.text, post.publishedAt, post.links, post.author.platformId])).toEqual([
      ['t3_abc12', 'https://www.reddit.com/r/programming/comments/abc12/anyone_using/', 'Anyone using earshot & alerts?', created, ['https://earshot.example/'], 'frank'],
    ]);
  });

  it('follows `after` until the listing ends, and stops at since', async () => {
    const posts = Array.from({ length: 5 }, (_, n) => redditPost({ id: `p${n}`, subreddit: 'test', title: `Earshot ${n}`, selftext: 'x', createdAt: hoursAgo(n + 1) }));
    const old = redditPost({ id: 'old', subreddit: 'test', title: 'Earshot, long ago', createdAt: hoursAgo(24 * 29) });
    const { fake, connector } = await connectorWith({ posts: [...posts, old] });
    const seen: string[] = [];
    let cursor: string | null = null;
    let calls = 0;
    do {
      const page = await connector.search({ term: 'earshot', exactPhrase: false, since, limit: 2, cursor });
      seen.push(...page.posts.map((post) => post.externalId));
      cursor = page.nextCursor;
    } while (cursor && ++calls < 10);
    expect(seen).toEqual(['t3_p0', 't3_p1', 't3_p2', 't3_p3', 't3_p4', 't3_old']);
    expect(fake.requests.map((request) => request.query.get('after'))).toEqual([null, 't3_p1', 't3_p3']);

    const recent = await connector.search({ term: 'earshot', exactPhrase: false, since: hoursAgo(2.5), limit: 3 });
    expect(recent.posts.map((post) => post.externalId)).toEqual(['t3_p0', 't3_p1']);
    expect(recent.nextCursor).toBeNull();
  });

  it('gets a client-credentials token, sends it, and renews it when revoked', async () => {
    const client = { id: 'app-id', secret: 'app-secret' };
    const { fake, connector } = await connectorWith({ posts: [selfPost], client }, { EARSHOT_REDDIT_CLIENT_ID: client.id, EARSHOT_REDDIT_CLIENT_SECRET: client.secret });
    expect((await connector.search({ term: 'earshot', exactPhrase: false, since })).posts).toHaveLength(1);
    await connector.search({ term: 'earshot', exactPhrase: false, since });
    fake.revokeTokens();
    expect((await connector.search({ term: 'earshot', exactPhrase: false, since })).posts).toHaveLength(1);
    expect(fake.requests.map((request) => `${request.method} ${request.path} ${request.headers.authorization}`)).toEqual([
      `POST /api/v1/access_token Basic ${Buffer.from('app-id:app-secret').toString('base64')}`,
      'GET /search.json bearer fake-token-1',
      'GET /search.json bearer fake-token-1',
      'GET /search.json bearer fake-token-1',
      `POST /api/v1/access_token Basic ${Buffer.from('app-id:app-secret').toString('base64')}`,
      'GET /search.json bearer fake-token-2',
    ]);
    expect(fake.requests[0].body).toBe('grant_type=client_credentials');
  });

  it('reads a comment tree flattened, newest first, since a time, at most the limit', async () => {
    const deep = redditComment({ id: 'c4', post: selfPost, parentId: 't1_c3', body: 'Source?', createdAt: hoursAgo(1) });
    const reply = redditComment({ id: 'c3', post: selfPost, parentId: 't1_c1', body: 'Agreed, Earshot is cheaper: https://earshot.example/pricing', author: 'Replier', createdAt: hoursAgo(2), replies: [deep] });
    const comments = {
      [selfPost.id]: [
        redditComment({ id: 'c1', post: selfPost, body: 'We use it daily', createdAt: hoursAgo(4), replies: [reply] }),
        redditComment({ id: 'c2', post: selfPost, body: 'Too old to read again', createdAt: hoursAgo(4.9) }),
      ],
    };
    const { fake, connector } = await connectorWith({ posts: [selfPost], comments });
    const read = await connector.comments!({ externalId: 't3_1abcde', url: 'https://www.reddit.com/r/SaaS/comments/1abcde/x/' }, hoursAgo(4.5), 2);
    expect(fake.requests[0].path).toBe('/comments/1abcde.json');
    expect(Object.fromEntries(fake.requests[0].query)).toEqual({ sort: 'new', limit: '2', raw_json: '1' });
    const postUrl = 'https://www.reddit.com/r/SaaS/comments/1abcde/is_earshot_worth_it_for_a_two_person_team/';
    expect(read).toEqual([
      {
        platform: 'reddit',
        externalId: 't1_c4',
        url: `${postUrl}c4/`,
        text: 'Source?',
        publishedAt: hoursAgo(1),
        replyTo: `${postUrl}c3/`,
        links: [],
        author: { platformId: 't2_automoderator', name: 'automoderator', handle: 'automoderator', url: 'https://www.reddit.com/user/automoderator', avatarUrl: null, followers: null },
        subreddit: 'saas',
      },
      {
        platform: 'reddit',
        externalId: 't1_c3',
        url: `${postUrl}c3/`,
        text: 'Agreed, Earshot is cheaper: https://earshot.example/pricing',
        publishedAt: hoursAgo(2),
        replyTo: `${postUrl}c1/`,
        links: ['https://earshot.example/pricing'],
        author: { platformId: 't2_replier', name: 'Replier', handle: 'Replier', url: 'https://www.reddit.com/user/Replier', avatarUrl: null, followers: null },
        subreddit: 'saas',
      },
    ] satisfies NormalizedPost[]);
  });

  itSurvivesUpstreamFaults(async () => {
    const { fake, connector } = await connectorWith({ posts: [selfPost, linkPost] });
    return { fake, call: () => connector.search({ term: 'earshot', exactPhrase: false, since }) };
  });
});
