import { afterEach, describe, expect, it } from 'vitest';
import { createBlueskyConnector } from '../jobs/connectors/bluesky.ts';
import type { BlueskyPostView } from '../jobs/connectors/bluesky.ts';
import type { NormalizedPost } from '../vocabulary/normalized-post.ts';
import { blueskyPost, startFakeBluesky } from './fake-upstreams/bluesky.ts';
import { type FakeUpstream, startFakeServer } from './fake-upstreams/fake-server.ts';
import { fastRetry, itSurvivesUpstreamFaults } from './fake-upstreams/fault-cases.ts';

const since = new Date('2025-03-01T00:00:00.000Z');
const at = (minutes: number) => new Date(since.getTime() + minutes * 60_000);

const alice = { did: 'did:plc:alice4xyz', handle: 'alice.bsky.social', displayName: 'Alice ☀️', avatar: 'https://cdn.bsky.app/img/avatar/plain/did:plc:alice4xyz/bafkreiavatar@jpeg' };
const bob = { did: 'did:plc:bob7abc', handle: 'handle.invalid' };

const launch = blueskyPost({
  author: alice,
  rkey: '3lkabc2def21x',
  text: 'Trying Earshot — café-grade alerts 🎉 earshot.example/docs/getting-… and github.com/acme/earshot',
  links: [
    { text: 'earshot.example/docs/getting-…', uri: 'https://earshot.example/docs/getting-started' },
    { text: 'github.com/acme/earshot', uri: 'https://github.com/acme/earshot' },
  ],
  card: { uri: 'https://earshot.example/', title: 'Earshot', description: 'Mention tracking' },
  createdAt: at(60),
  langs: ['en'],
});
const reply = blueskyPost({ author: bob, rkey: '3lkabc2def22y', text: 'Earshot found my post in seconds https://bob.example/why', createdAt: at(90), langs: ['de'], replyTo: launch });

const fakes: FakeUpstream[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.close()));
});

async function connectorWith(posts: BlueskyPostView[]) {
  const fake = await startFakeBluesky({ posts });
  fakes.push(fake);
  return { fake, connector: createBlueskyConnector({ EARSHOT_UPSTREAM_BLUESKY: fake.url }, { retry: fastRetry }) };
}

const launchPost: NormalizedPost = {
  platform: 'bluesky',
  externalId: 'at://did:plc:alice4xyz/app.bsky.feed.post/3lkabc2def21x',
  url: 'https://bsky.app/profile/alice.bsky.social/post/3lkabc2def21x',
  text: 'Trying Earshot — café-grade alerts 🎉 earshot.example/docs/getting-… and github.com/acme/earshot',
  publishedAt: at(60),
  replyTo: null,
  links: ['https://earshot.example/docs/getting-started', 'https://github.com/acme/earshot', 'https://earshot.example/'],
  author: { platformId: 'did:plc:alice4xyz', name: 'Alice ☀️', handle: 'alice.bsky.social', url: 'https://bsky.app/profile/alice.bsky.social', avatarUrl: alice.avatar, followers: null, links: [] },
  language: 'en',
};

describe('Bluesky connector', () => {
  it('calls searchPosts for the latest posts since the look-back', async () => {
    const { fake, connector } = await connectorWith([launch]);
    await connector.search({ term: 'earshot alerts', exactPhrase: true, since, limit: 500 });
    expect(fake.requests[0].path).toBe('/xrpc/app.bsky.feed.searchPosts');
    expect(Object.fromEntries(fake.requests[0].query)).toEqual({ q: '"earshot alerts"', sort: 'latest', since: '2025-03-01T00:00:00.000Z', limit: '100' });
  });

  it('maps posts with facet links in written order, the link card, language and the replied-to post', async () => {
    const { connector } = await connectorWith([launch, reply]);
    const page = await connector.search({ term: 'earshot', exactPhrase: false, since });
    expect(page).toEqual({
      nextCursor: null,
      posts: [
        {
          platform: 'bluesky',
          externalId: 'at://did:plc:bob7abc/app.bsky.feed.post/3lkabc2def22y',
          url: 'https://bsky.app/profile/did:plc:bob7abc/post/3lkabc2def22y',
          text: 'Earshot found my post in seconds https://bob.example/why',
          publishedAt: at(90),
          replyTo: 'https://bsky.app/profile/did:plc:alice4xyz/post/3lkabc2def21x',
          links: ['https://bob.example/why'],
          author: { platformId: 'did:plc:bob7abc', name: 'did:plc:bob7abc', handle: 'did:plc:bob7abc', url: 'https://bsky.app/profile/did:plc:bob7abc', avatarUrl: null, followers: null },
          language: 'de',
        },
        launchPost,
      ] satisfies NormalizedPost[],
    });
  });

  it('maps post views whose optional fields are null or absent (no cid, indexedAt, displayName, avatar, langs, facets)', async () => {
    const fake = await startFakeServer((request) => request.path === '/xrpc/app.bsky.feed.searchPosts'
      ? { body: { cursor: null, posts: [{
        uri: 'at://did:plc:carol/app.bsky.feed.post/3kabc',
        author: { did: 'did:plc:carol', handle: 'carol.example.com', displayName: null, avatar: null },
        record: { $type: 'app.bsky.feed.post', text: 'Loving earshot', createdAt: '2025-03-01T00:30:00.000Z', langs: null, facets: null, reply: null, embed: null },
      }] } }
      : null);
    fakes.push(fake);
    const page = await createBlueskyConnector({ EARSHOT_UPSTREAM_BLUESKY: fake.url }, { retry: fastRetry }).search({ term: 'earshot', exactPhrase: false, since });
    expect(page).toEqual({
      nextCursor: null,
      posts: [{
        platform: 'bluesky',
        externalId: 'at://did:plc:carol/app.bsky.feed.post/3kabc',
        url: 'https://bsky.app/profile/carol.example.com/post/3kabc',
        text: 'Loving earshot',
        publishedAt: at(30),
        replyTo: null,
        links: [],
        author: { platformId: 'did:plc:carol', name: 'carol.example.com', handle: 'carol.example.com', url: 'https://bsky.app/profile/carol.example.com', avatarUrl: null, followers: null, links: ['https://carol.example.com'] },
        language: null,
      }],
    });
  });

  it('follows the cursor until the AppView has no more', async () => {
    const posts = Array.from({ length: 5 }, (_, n) => blueskyPost({ author: alice, rkey: `3lk${n}`, text: `earshot ${n}`, createdAt: at(100 - n) }));
    const { fake, connector } = await connectorWith(posts);
    const first = await connector.search({ term: 'earshot', exactPhrase: false, since, limit: 3 });
    const second = await connector.search({ term: 'earshot', exactPhrase: false, since, limit: 3, cursor: first.nextCursor });
    expect(first.posts.map((post) => post.externalId.split('/').at(-1))).toEqual(['3lk0', '3lk1', '3lk2']);
    expect(second.posts.map((post) => post.externalId.split('/').at(-1))).toEqual(['3lk3', '3lk4']);
    expect(second.nextCursor).toBeNull();
    expect(fake.requests[1].query.get('cursor')).toBe(first.nextCursor);
  });

  it('reads replies of a thread at every depth, newest first, since a time', async () => {
    const deeper = blueskyPost({ author: alice, rkey: '3lkabc2def23z', text: 'Thanks Bob!', createdAt: at(120), replyTo: reply });
    const early = blueskyPost({ author: alice, rkey: '3lkabc2def20w', text: 'first', createdAt: at(61), replyTo: launch });
    const { fake, connector } = await connectorWith([launch, reply, deeper, early]);
    const comments = await connector.comments!({ externalId: launchPost.externalId, url: launchPost.url }, at(70), 10);
    expect(fake.requests[0].path).toBe('/xrpc/app.bsky.feed.getPostThread');
    expect(Object.fromEntries(fake.requests[0].query)).toEqual({ uri: launchPost.externalId, depth: '1000', parentHeight: '0' });
    expect(comments.map((comment) => [comment.url, comment.replyTo])).toEqual([
      ['https://bsky.app/profile/alice.bsky.social/post/3lkabc2def23z', 'https://bsky.app/profile/did:plc:bob7abc/post/3lkabc2def22y'],
      ['https://bsky.app/profile/did:plc:bob7abc/post/3lkabc2def22y', 'https://bsky.app/profile/alice.bsky.social/post/3lkabc2def21x'],
    ]);
    expect(await connector.comments!({ externalId: launchPost.externalId, url: launchPost.url }, at(70), 1)).toHaveLength(1);
  });

  itSurvivesUpstreamFaults(async () => {
    const { fake, connector } = await connectorWith([launch, reply]);
    return { fake, call: () => connector.search({ term: 'earshot', exactPhrase: false, since }) };
  });
});
