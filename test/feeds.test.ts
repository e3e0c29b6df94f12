import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer, type FakeUpstream } from './fake-upstreams/fake-server.ts';
import { atomDocument, type FakeFeedHost, type FeedItemFixture, pageAdvertising, rss2Document, startFakeFeedHost } from './fake-upstreams/rss.ts';
import { startTestEarshot, type TestEarshot, eventually, allMentionsOf, patiently } from './harness.ts';

let earshot: TestEarshot;
let host: FakeFeedHost;
let failing: FakeUpstream;
let rateLimited: FakeUpstream;
let key: string;

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);


beforeAll(async () => {
  host = await startFakeFeedHost({});
  const items = Array.from({ length: 14 }, (_, i) => ({
    id: `post-${i}`,
    url: `${host.url}/posts/${i}`,
    title: i === 3 ? 'Release notes' : `Why we picked Earshot, part ${i}`,
    html: `<p>Notes number ${i}.</p>`,
    publishedAt: daysAgo(i + 1),
  }));
  items.push({ id: 'post-old', url: `${host.url}/posts/old`, title: 'Earshot, the early days', html: '<p>Old.</p>', publishedAt: daysAgo(40) });
  host.routes['/feed.xml'] = {
    feed: rss2Document({ title: 'Acme engineering', siteUrl: host.url, feedUrl: `${host.url}/feed.xml`, items }),
    contentType: 'application/rss+xml',
  };
  host.routes['/blog'] = { page: pageAdvertising([{ href: '/feed.xml', type: 'application/rss+xml', title: 'Acme engineering' }]) };
  host.routes['/moved'] = { redirect: '/blog' };
  failing = await startFakeServer(() => ({ status: 503, body: 'down' }));
  rateLimited = await startFakeServer(() => ({ status: 429, headers: { 'retry-after': '3' }, body: '' }));
  earshot = await startTestEarshot({ env: { EARSHOT_ALLOW_PRIVATE_URLS: '1' }, pollIntervalSeconds: 1 });
  key = (await earshot.createWorkspace('Acme')).apiKey;
});
afterAll(async () => {
  await earshot?.stop();
  await host?.close();
  await failing?.close();
  await rateLimited?.close();
});

describe('feeds on a keyword (spec 2.1, 4.2)', () => {
  it('checks a feed during the PATCH, follows redirects and discovery, and brings its newest 10 matching items of 30 days', async () => {
    const keyword = await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'Earshot', platforms: [] } });
    const patched = await earshot.rest('PATCH', `/v1/keywords/${keyword.body.id}`, { key, body: { feeds: [{ url: `${host.url}/moved` }] } });
    expect(patched.status).toBe(200);
    expect(patched.body.feeds).toEqual([{ url: `${host.url}/feed.xml`, title: 'Acme engineering', connectedAt: expect.any(String) }]);

    const all = () => allMentionsOf(earshot, key, keyword.body.id);
    const mentions = await eventually(all, (found) => found.length >= 10);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const settled = await all();
    expect(settled).toHaveLength(10);
    expect(settled.map((m: { post: { url: string } }) => m.post.url).sort()).toEqual(
      [0, 1, 2, 4, 5, 6, 7, 8, 9, 10].map((i) => `${host.url}/posts/${i}`).sort(),
    );
    expect(mentions.every((m: { post: { platform: string } }) => m.post.platform === 'rss')).toBe(true);
  });

  it('answers 502 upstream_unavailable for a failing site and 400 for a page without a feed or an address answering 404, changing nothing', async () => {
    const keyword = await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'Acme feeds', platforms: [] } });
    host.routes['/plain'] = { page: '<!DOCTYPE html><html><head><title>x</title></head><body>no feed</body></html>' };
    const down = await earshot.rest('PATCH', `/v1/keywords/${keyword.body.id}`, { key, body: { feeds: [{ url: `${failing.url}/feed` }] } });
    expect(down.status).toBe(502);
    expect(down.body.error).toMatchObject({ code: 'upstream_unavailable', field: 'feeds.0.url' });
    const notFeed = await earshot.rest('PATCH', `/v1/keywords/${keyword.body.id}`, { key, body: { feeds: [{ url: `${host.url}/plain` }] } });
    expect(notFeed.status).toBe(400);
    expect(notFeed.body.error).toMatchObject({ code: 'validation_error', field: 'feeds.0.url' });
    // A 404 is no feed at that address, the caller's to fix, not a site to retry.
    const missing = await earshot.rest('PATCH', `/v1/keywords/${keyword.body.id}`, { key, body: { feeds: [{ url: `${host.url}/feed.xml` }, { url: `${host.url}/missing.xml` }] } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'validation_error', field: 'feeds.1.url' });
    expect(missing.body.error.message).toContain('404');
    const after = await earshot.rest('GET', `/v1/keywords/${keyword.body.id}`, { key });
    expect(after.body.feeds).toEqual([]);
  });

  // The check read a feed as a polling job does, three tries of 10 s: a site that never answered held the write past the request deadline, a 503.
  it('answers 502 upstream_unavailable within the request deadline for a site that does not answer', async () => {
    const silent = await startFakeServer(() => new Promise<null>(() => {}));
    try {
      const keyword = await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'Silent feeds', platforms: [] } });
      const started = Date.now();
      // Three silent sites, read one after another, added up past the deadline too.
      const feeds = [`${host.url}/feed.xml`, `${silent.url}/a.xml`, `${silent.url}/b.xml`, `${silent.url}/c.xml`].map((url) => ({ url }));
      const stalled = await earshot.rest('PATCH', `/v1/keywords/${keyword.body.id}`, { key, body: { feeds } });
      expect(Date.now() - started).toBeLessThan(4_500);
      expect([stalled.status, stalled.body.error]).toEqual([502, expect.objectContaining({ code: 'upstream_unavailable', field: 'feeds.1.url' })]);
      expect((await earshot.rest('GET', `/v1/keywords/${keyword.body.id}`, { key })).body.feeds).toEqual([]);
    } finally {
      await silent.close();
    }
  });

  it('answers 502 at once, with the wait asked, for a feed whose site asks to come back later, instead of waiting into the request deadline', async () => {
    const keyword = await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'Acme waits', platforms: [] } });
    const started = Date.now();
    const limited = await earshot.rest('PATCH', `/v1/keywords/${keyword.body.id}`, { key, body: { feeds: [{ url: `${rateLimited.url}/feed.xml` }] } });
    expect(limited.status).toBe(502);
    expect(limited.body.error).toMatchObject({ code: 'upstream_unavailable', field: 'feeds.0.url' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  // A feed's ETag was saved as it was read, before its items were stored: when a later feed of the poll failed, the next poll got 304 and the items were lost.
  it("keeps a feed's new items when another feed of the keyword fails in the same poll", async () => {
    const second = await startFakeFeedHost({});
    try {
      const feedOf = (title: string, siteUrl: string, items: { id: string; title: string; publishedAt: Date }[]) =>
        rss2Document({ title, siteUrl, feedUrl: `${siteUrl}/feed.xml`, items: items.map((item) => ({ ...item, url: `${siteUrl}/posts/${item.id}`, html: `<p>${item.title}</p>` })) });
      host.routes['/first.xml'] = { feed: feedOf('First', host.url, []), contentType: 'application/rss+xml' };
      second.routes['/second.xml'] = { feed: feedOf('Second', second.url, []), contentType: 'application/rss+xml' };
      const keyword = await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'Kept feeds', platforms: [] } });
      const patched = await earshot.rest('PATCH', `/v1/keywords/${keyword.body.id}`, {
        key,
        body: { feeds: [{ url: `${host.url}/first.xml` }, { url: `${second.url}/second.xml` }] },
      });
      expect(patched.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 1500));

      second.failNext('server-error', 1000);
      const firstAsked = host.requests.length;
      host.routes['/first.xml'] = {
        feed: feedOf('First', host.url, [{ id: 'fresh', title: 'Kept feeds, a new post', publishedAt: new Date() }]),
        contentType: 'application/rss+xml',
      };
      // Two polls read the first feed while the second fails: the first of them read its new item.
      const firstReads = () => Promise.resolve(host.requests.slice(firstAsked).filter((request) => request.path === '/first.xml').length);
      await eventually(firstReads, (count) => count >= 2, 30_000);
      second.recover();
      const found = await eventually(() => allMentionsOf(earshot, key, keyword.body.id), (mentions) => mentions.length > 0, 20_000);
      expect(found.map((mention: { post: { url: string } }) => mention.post.url)).toEqual([`${host.url}/posts/fresh`]);
    } finally {
      await second.close();
    }
  });

  // Adding a feed looked back over every feed of the keyword: after a rename, the feeds it kept brought their items from before the rename.
  it('looks back over the feed just added only: a renamed keyword gets nothing its kept feeds published before the rename', async () => {
    const renamedKey = (await earshot.createWorkspace('Renamed')).apiKey;
    host.routes['/added.xml'] = {
      feed: rss2Document({
        title: 'Added',
        siteUrl: host.url,
        feedUrl: `${host.url}/added.xml`,
        items: [{ id: 'added-1', url: `${host.url}/added/1`, title: 'Earshot in the added feed', html: '<p>Added.</p>', publishedAt: daysAgo(2) }],
      }),
      contentType: 'application/rss+xml',
    };
    const keyword = await earshot.rest('POST', '/v1/keywords', { key: renamedKey, body: { term: 'Plinkett', platforms: [], feeds: [{ url: `${host.url}/feed.xml` }] } });
    expect(keyword.status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await earshot.rest('PATCH', `/v1/keywords/${keyword.body.id}`, { key: renamedKey, body: { term: 'Earshot' } })).status).toBe(200);
    const added = await earshot.rest('PATCH', `/v1/keywords/${keyword.body.id}`, {
      key: renamedKey,
      body: { feeds: [{ url: `${host.url}/feed.xml` }, { url: `${host.url}/added.xml` }] },
    });
    expect(added.status).toBe(200);

    const all = () => allMentionsOf(earshot, renamedKey, keyword.body.id);
    await eventually(all, (found) => found.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await all()).map((mention: { post: { url: string } }) => mention.post.url)).toEqual([`${host.url}/added/1`]);
  });

  // Feed items were matched against the keyword's own rules alone: the workspace's excluded terms let them through.
  it("drops a feed item the workspace filters exclude, as every post's", async () => {
    const filteredKey = (await earshot.createWorkspace('Filtered')).apiKey;
    expect((await earshot.rest('PATCH', '/v1/filters', { key: filteredKey, body: { excludedTerms: ['giveaway'] } })).status).toBe(200);
    host.routes['/filtered.xml'] = {
      feed: rss2Document({
        title: 'Filtered',
        siteUrl: host.url,
        feedUrl: `${host.url}/filtered.xml`,
        items: [
          { id: 'giveaway', url: `${host.url}/filtered/giveaway`, title: 'Earshot giveaway, enter now', html: '<p>Win.</p>', publishedAt: daysAgo(1) },
          { id: 'review', url: `${host.url}/filtered/review`, title: 'Earshot, a review', html: '<p>Fine.</p>', publishedAt: daysAgo(2) },
        ],
      }),
      contentType: 'application/rss+xml',
    };
    const keyword = await earshot.rest('POST', '/v1/keywords', { key: filteredKey, body: { term: 'Earshot', platforms: [], feeds: [{ url: `${host.url}/filtered.xml` }] } });
    expect(keyword.status).toBe(201);
    const all = () => allMentionsOf(earshot, filteredKey, keyword.body.id);
    await eventually(all, (found) => found.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await all()).map((mention: { post: { url: string } }) => mention.post.url)).toEqual([`${host.url}/filtered/review`]);
  });

  it("never lets one workspace's feed rewrite the posts and authors another's mentions show: an entry id or author link another site names is that feed's own", async () => {
    const site = await startFakeFeedHost({});
    const forger = await startFakeFeedHost({});
    try {
      const entry = (html: string, author: string): FeedItemFixture => ({
        id: `${site.url}/posts/launch`,
        url: `${site.url}/posts/launch`,
        title: 'Zebrafeed launch',
        html,
        publishedAt: daysAgo(1),
        author: { name: author, url: `${site.url}/about` },
      });
      const feedAt = (host: FakeFeedHost, item: FeedItemFixture) => ({
        feed: atomDocument({ title: 'News', siteUrl: host.url, feedUrl: `${host.url}/atom.xml`, items: [item] }),
        contentType: 'application/atom+xml',
      });
      site.routes['/atom.xml'] = feedAt(site, entry('<p>Zebrafeed 2.0 ships today with offline sync.</p>', 'Bea Writer'));
      forger.routes['/atom.xml'] = feedAt(forger, entry('<p>Zebrafeed is shutting down, move your data to evil.example now.</p>', 'Zebrafeed Security Team'));
      const follow = async (apiKey: string, host: FakeFeedHost) => {
        // Asked again after a 503 of a loaded machine, the keyword may be there already (409): it is the workspace's only one.
        await patiently(() => earshot.rest('POST', '/v1/keywords', { key: apiKey, body: { term: 'Zebrafeed', platforms: [], feeds: [{ url: `${host.url}/atom.xml` }] } }));
        const [keyword] = (await patiently(() => earshot.rest('GET', '/v1/keywords', { key: apiKey }))).body.data;
        expect(keyword.feeds).toEqual([expect.objectContaining({ url: `${host.url}/atom.xml` })]);
        const [mention] = await eventually(() => allMentionsOf(earshot, apiKey, keyword.id), (found) => found.length === 1);
        return mention;
      };
      const victim = (await earshot.createWorkspace('Feed reader')).apiKey;
      const theirs = await follow(victim, site);
      const ours = await follow((await earshot.createWorkspace('Feed forger')).apiKey, forger);

      expect(ours.post.text).toContain('shutting down');
      expect(ours.author.name).toBe('Zebrafeed Security Team');
      const after = (await earshot.rest('GET', `/v1/mentions/${theirs.id}`, { key: victim })).body;
      expect({ text: after.post.text, author: after.author }).toEqual({ text: theirs.post.text, author: theirs.author });
      expect(after.post.text).toContain('offline sync');
      expect(after.author.name).toBe('Bea Writer');
    } finally {
      await site.close();
      await forger.close();
    }
  });

  it('refuses a feed on a private address unless private URLs are allowed', async () => {
    const strict = await startTestEarshot({ env: {} });
    try {
      const strictKey = (await strict.createWorkspace('Strict')).apiKey;
      const keyword = await strict.rest('POST', '/v1/keywords', { key: strictKey, body: { term: 'Earshot', platforms: [] } });
      const refused = await strict.rest('PATCH', `/v1/keywords/${keyword.body.id}`, { key: strictKey, body: { feeds: [{ url: `${host.url}/feed.xml` }] } });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({ code: 'validation_error', field: 'feeds.0.url' });
    } finally {
      await strict.stop();
    }
  });
});
