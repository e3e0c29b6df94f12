import { afterEach, describe, expect, it } from 'vitest';
import type { NormalizedPost } from '../vocabulary/normalized-post.ts';
import { PrivateAddressError, type HostLookup } from '../runtime/public-address.ts';
import { createRssConnector, NotAFeedError } from '../jobs/connectors/rss.ts';
import { UpstreamError } from '../runtime/upstream-http.ts';
import { startFakeServer } from './fake-upstreams/fake-server.ts';
import { fastRetry, itSurvivesUpstreamFaults } from './fake-upstreams/fault-cases.ts';
import {
  atomDocument, type FakeFeedHost, type FeedFixture, type FeedHostRoute, jsonFeedDocument, pageAdvertising, rss2Document, startFakeFeedHost,
} from './fake-upstreams/rss.ts';

const allowPrivate = { EARSHOT_ALLOW_PRIVATE_URLS: '1' };
const seenAt = new Date('2025-03-05T08:00:00Z');

const launch = {
  id: 'https://blog.earshot.example/?p=412',
  url: 'https://blog.earshot.example/2025/03/launch/',
  title: 'Earshot 2.0 &amp; what changed',
  html: '<p>Reviews from <a href="https://apps.apple.com/us/app/id1459969523">the App Store</a> now arrive with ratings.</p><p>Read the <a href="/docs/reviews">docs</a> or https://earshot.example/changelog.</p>',
  publishedAt: new Date('2025-03-03T09:30:00Z'),
  author: { name: 'Ada Byrne', url: 'https://blog.earshot.example/author/ada/' },
};
const digest = {
  id: 'https://blog.earshot.example/?p=398',
  url: 'https://blog.earshot.example/2025/02/digest/',
  title: 'February digest',
  html: '<p>Ten things we shipped.</p>',
  publishedAt: new Date('2025-02-27T16:00:00Z'),
};

const fixture = (host: string): FeedFixture => ({
  title: 'The Earshot Blog',
  siteUrl: 'https://blog.earshot.example/',
  feedUrl: `${host}/feed/`,
  items: [digest, launch],
});

const hosts: FakeFeedHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

async function feedHost(routes: (base: string) => Record<string, FeedHostRoute>) {
  const table: Record<string, FeedHostRoute> = {};
  const host = await startFakeFeedHost(table);
  Object.assign(table, routes(host.url));
  hosts.push(host);
  return host;
}

const connector = (env: NodeJS.ProcessEnv = allowPrivate, lookup?: HostLookup) => createRssConnector(env, { retry: fastRetry, now: () => seenAt, lookup });

/** What a feed names on another site than its own host is its own: qualified by its address, so no other feed's followers see it. */
const offHost = (feedUrl: string, reference: string) => `${feedUrl} ${reference}`;
const blogAuthor = (feedUrl: string) => ({
  platformId: offHost(feedUrl, 'https://blog.earshot.example/author/ada/'),
  name: 'Ada Byrne',
  handle: 'Ada Byrne',
  url: 'https://blog.earshot.example/author/ada/',
  avatarUrl: null,
  followers: null,
});
const feedAsAuthor = (feedUrl: string) => ({
  platformId: feedUrl,
  name: 'The Earshot Blog',
  handle: new URL(feedUrl).host,
  url: 'https://blog.earshot.example/',
  avatarUrl: null,
  followers: null,
});
const launchPost = (feedUrl: string, author: NormalizedPost['author'], title = 'Earshot 2.0 & what changed'): NormalizedPost => ({
  platform: 'rss',
  externalId: offHost(feedUrl, 'https://blog.earshot.example/?p=412'),
  url: 'https://blog.earshot.example/2025/03/launch/',
  text: `${title}\n\nReviews from the App Store now arrive with ratings.\n\nRead the docs or https://earshot.example/changelog.`,
  title,
  publishedAt: new Date('2025-03-03T09:30:00Z'),
  replyTo: null,
  links: ['https://apps.apple.com/us/app/id1459969523', 'https://blog.earshot.example/docs/reviews', 'https://earshot.example/changelog'],
  author,
  language: 'en',
});
const digestPost = (feedUrl: string, author: NormalizedPost['author']): NormalizedPost => ({
  platform: 'rss',
  externalId: offHost(feedUrl, 'https://blog.earshot.example/?p=398'),
  url: 'https://blog.earshot.example/2025/02/digest/',
  text: 'February digest\n\nTen things we shipped.',
  title: 'February digest',
  publishedAt: new Date('2025-02-27T16:00:00Z'),
  replyTo: null,
  links: [],
  author,
  language: 'en',
});

describe('RSS connector', () => {
  it('reads an RSS 2.0 feed: items newest first, the feed speaking for items without an author', async () => {
    const host = await feedHost((base) => ({ '/feed/': { feed: rss2Document({ ...fixture(base), items: [digest, { ...launch, author: { name: 'Ada Byrne' } }] }), contentType: 'application/rss+xml; charset=UTF-8' } }));
    const feedUrl = `${host.url}/feed/`;
    const result = await connector().read(feedUrl);
    const adaOnTheBlog = { platformId: `${new URL(host.url).host}/Ada Byrne`, name: 'Ada Byrne', handle: 'Ada Byrne', url: 'https://blog.earshot.example/', avatarUrl: null, followers: null };
    expect(result).toEqual({
      status: 'fetched',
      url: feedUrl,
      title: 'The Earshot Blog',
      posts: [launchPost(feedUrl, adaOnTheBlog), digestPost(feedUrl, feedAsAuthor(feedUrl))],
      validators: { etag: expect.stringMatching(/^"[0-9a-f]{16}"$/), lastModified: null },
    });
    expect(host.requests[0].headers.accept).toMatch(/application\/rss\+xml/);
  });

  it('names the author of an RSS item written as "e-mail (name)"', async () => {
    const host = await feedHost((base) => ({ '/feed/': { feed: rss2Document({ ...fixture(base), items: [{ ...launch, author: { name: 'Ada Byrne', email: 'ada@earshot.example' } }] }), contentType: 'application/rss+xml' } }));
    const result = await connector().read(`${host.url}/feed/`);
    expect(result.status === 'fetched' && result.posts[0].author.name).toBe('Ada Byrne');
  });

  it('reads an Atom feed, resolving relative entry links', async () => {
    const host = await feedHost((base) => ({ '/atom.xml': { feed: atomDocument({ ...fixture(base), items: [launch, digest] }), contentType: 'application/atom+xml' } }));
    const feedUrl = `${host.url}/atom.xml`;
    const result = await connector().read(feedUrl);
    const onHost = (path: string) => new URL(path, host.url).href;
    expect(result).toEqual({
      status: 'fetched',
      url: feedUrl,
      title: 'The Earshot Blog',
      posts: [
        { ...launchPost(feedUrl, blogAuthor(feedUrl)), url: onHost('/2025/03/launch/'), links: ['https://apps.apple.com/us/app/id1459969523', onHost('/docs/reviews'), 'https://earshot.example/changelog'] },
        { ...digestPost(feedUrl, feedAsAuthor(feedUrl)), url: onHost('/2025/02/digest/') },
      ],
      validators: { etag: expect.any(String), lastModified: null },
    });
  });

  it('reads Atom xhtml content as markup', async () => {
    const atom = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>Notes</title><id>urn:notes</id><updated>2025-03-01T00:00:00Z</updated>
<entry><title>Shipping</title><id>urn:notes:1</id><link href="https://notes.example/1"/><updated>2025-03-01T10:00:00Z</updated>
<content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>We use <a href="https://earshot.example">Earshot</a> daily.</p></div></content></entry></feed>`;
    const host = await feedHost(() => ({ '/notes.atom': { feed: atom, contentType: 'application/atom+xml' } }));
    const result = await connector().read(`${host.url}/notes.atom`);
    expect(result.status === 'fetched' && result.posts.map(({ text, links }) => ({ text, links }))).toEqual([
      { text: 'Shipping\n\nWe use Earshot daily.', links: ['https://earshot.example'] },
    ]);
  });

  it('reads a JSON Feed, with author avatars', async () => {
    const withAvatar = { ...launch, author: { ...launch.author, avatar: 'https://blog.earshot.example/ada.png' } };
    const host = await feedHost((base) => ({ '/feed.json': { feed: jsonFeedDocument({ ...fixture(base), items: [digest, withAvatar] }), contentType: 'application/feed+json' } }));
    const feedUrl = `${host.url}/feed.json`;
    const result = await connector().read(feedUrl);
    expect(result).toEqual({
      status: 'fetched',
      url: feedUrl,
      title: 'The Earshot Blog',
      posts: [
        // JSON Feed titles are plain text, so an entity stays as written.
        launchPost(feedUrl, { ...blogAuthor(feedUrl), avatarUrl: 'https://blog.earshot.example/ada.png' }, 'Earshot 2.0 &amp; what changed'),
        digestPost(feedUrl, feedAsAuthor(feedUrl)),
      ],
      validators: { etag: expect.any(String), lastModified: null },
    });
  });

  it("keeps the ids and author links on the feed's own host as they are: one post and one author however many follow the feed", async () => {
    const host = await feedHost((base) => ({
      '/atom.xml': {
        feed: atomDocument({ ...fixture(base), items: [{ ...launch, id: `${base}/?p=412`, author: { name: 'Ada Byrne', url: `${base}/author/ada/` } }] }),
        contentType: 'application/atom+xml',
      },
    }));
    const result = await connector().read(`${host.url}/atom.xml`);
    expect(result.status === 'fetched' && result.posts.map(({ externalId, author }) => ({ externalId, author: author.platformId }))).toEqual([
      { externalId: `${host.url}/?p=412`, author: `${host.url}/author/ada/` },
    ]);
  });

  it('dates an undated item when it is first seen', async () => {
    const host = await feedHost((base) => ({ '/feed/': { feed: rss2Document({ ...fixture(base), items: [{ ...digest, publishedAt: undefined }] }), contentType: 'application/rss+xml' } }));
    const result = await connector().read(`${host.url}/feed/`);
    expect(result.status === 'fetched' && result.posts[0].publishedAt).toEqual(seenAt);
  });

  it('finds the feed a page advertises, resolving its relative address', async () => {
    const host = await feedHost((base) => ({
      '/blog/': { page: pageAdvertising([{ type: 'application/atom+xml', title: 'Earshot blog (Atom)', href: '../feeds/atom.xml' }, { type: 'application/rss+xml', title: 'RSS', href: '/feed/' }]) },
      '/feeds/atom.xml': { feed: atomDocument(fixture(base)), contentType: 'application/atom+xml' },
    }));
    const result = await connector().read(`${host.url}/blog/`);
    expect(result).toMatchObject({ status: 'fetched', url: `${host.url}/feeds/atom.xml`, title: 'The Earshot Blog' });
    expect(host.requests.map((request) => request.path)).toEqual(['/blog/', '/feeds/atom.xml']);
  });

  it('refuses a page that advertises no feed', async () => {
    const host = await feedHost(() => ({ '/about': { page: pageAdvertising([]) } }));
    await expect(connector().read(`${host.url}/about`)).rejects.toBeInstanceOf(NotAFeedError);
  });

  it('follows redirects and reports the final feed address', async () => {
    const host = await feedHost((base) => ({
      '/rss': { redirect: '/feed', status: 301 },
      '/feed': { redirect: `${base}/feed/`, status: 302 },
      '/feed/': { feed: rss2Document(fixture(base)), contentType: 'application/rss+xml' },
    }));
    const result = await connector().read(`${host.url}/rss`);
    expect(result).toMatchObject({ status: 'fetched', url: `${host.url}/feed/` });
    expect(host.requests.map((request) => request.path)).toEqual(['/rss', '/feed', '/feed/']);
  });

  it('gives up on a redirect loop', async () => {
    const host = await feedHost(() => ({ '/a': { redirect: '/b' }, '/b': { redirect: '/a' } }));
    const failure = await connector().read(`${host.url}/a`).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UpstreamError);
    expect(host.requests).toHaveLength(6);
  });

  it('asks with the validators of the last read and says when nothing changed', async () => {
    const lastModified = new Date('2025-03-03T09:30:00Z');
    const host = await feedHost((base) => ({ '/feed/': { feed: rss2Document(fixture(base)), contentType: 'application/rss+xml', lastModified } }));
    const feedUrl = `${host.url}/feed/`;
    const first = await connector().read(feedUrl);
    expect(first.validators).toEqual({ etag: expect.stringMatching(/^".+"$/), lastModified: lastModified.toUTCString() });

    const second = await connector().read(feedUrl, first.validators);
    expect(second).toEqual({ status: 'not-modified', url: feedUrl, validators: first.validators });
    expect(host.requests[1].headers['if-none-match']).toBe(first.validators.etag);
    expect(host.requests[1].headers['if-modified-since']).toBe(lastModified.toUTCString());

    host.routes['/feed/'] = { feed: rss2Document({ ...fixture(host.url), items: [launch] }), contentType: 'application/rss+xml', lastModified: new Date('2025-03-04T00:00:00Z') };
    const third = await connector().read(feedUrl, first.validators);
    expect(third.status).toBe('fetched');
    expect(third.validators.etag).not.toBe(first.validators.etag);
  });

  it('keeps the validators it asked with when a 304 does not repeat them', async () => {
    const bare304 = await startFakeServer(() => ({ status: 304, body: '' }));
    const validators = { etag: 'W/"v7"', lastModified: 'Mon, 03 Mar 2025 09:30:00 GMT' };
    try {
      expect(await connector().read(`${bare304.url}/feed/`, validators)).toEqual({ status: 'not-modified', url: `${bare304.url}/feed/`, validators });
    } finally {
      await bare304.close();
    }
  });

  it('refuses a feed on a loopback address unless EARSHOT_ALLOW_PRIVATE_URLS=1', async () => {
    const host = await feedHost((base) => ({ '/feed/': { feed: rss2Document(fixture(base)), contentType: 'application/rss+xml' } }));
    await expect(connector({}).read(`${host.url}/feed/`)).rejects.toBeInstanceOf(PrivateAddressError);
    expect(host.requests).toEqual([]);
    await expect(connector(allowPrivate).read(`${host.url}/feed/`)).resolves.toMatchObject({ status: 'fetched' });
  });

  it('refuses a redirect into a private address', async () => {
    const host = await feedHost((base) => ({
      '/moved': { redirect: `${base}/feed/` },
      '/feed/': { feed: rss2Document(fixture(base)), contentType: 'application/rss+xml' },
    }));
    // "localhost" passes as public here, so only the redirect's 127.0.0.1 target can be refused.
    const localhostLooksPublic: HostLookup = async () => [{ address: '93.184.216.34', family: 4 }];
    const start = `http://localhost:${new URL(host.url).port}/moved`;
    await expect(connector({}, localhostLooksPublic).read(start)).rejects.toBeInstanceOf(PrivateAddressError);
    expect(host.requests.map((request) => request.path)).toEqual(['/moved']);
  });

  it('reports an answer that is no feed', async () => {
    const host = await feedHost(() => ({ '/data.json': { feed: '{"items": []}', contentType: 'application/json' } }));
    await expect(connector().read(`${host.url}/data.json`)).rejects.toBeInstanceOf(NotAFeedError);
    expect(host.requests).toHaveLength(fastRetry.attempts!);
  });

  describe('when the feed host fails', () => {
    itSurvivesUpstreamFaults(async () => {
      const host = await feedHost((base) => ({ '/feed/': { feed: rss2Document(fixture(base)), contentType: 'application/rss+xml' } }));
      return { fake: host, call: () => connector().read(`${host.url}/feed/`) };
    });
  });
});
