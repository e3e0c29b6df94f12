import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAppStore } from './fake-upstreams/appstore.ts';
import type { FakeUpstream } from './fake-upstreams/fake-server.ts';
import { allMentionsOf, eventually, startTestEarshot, type TestEarshot } from './harness.ts';

let earshot: TestEarshot;
let appStore: FakeUpstream;
let key: string;

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);
const review = (id: string, content: string, days: number) => ({
  id,
  authorName: `reviewer${id}`,
  authorId: `9${id}`,
  title: 'Review',
  content,
  rating: 4,
  updated: daysAgo(days),
});

beforeAll(async () => {
  appStore = await startFakeAppStore({
    '1234567890': {
      us: [review('1', 'Works well for our whole team every day', 2), review('2', 'Asked for a refund after the update', 3), review('3', 'Old review', 45)],
      gb: [review('1', 'Works well for our whole team every day', 2), review('4', 'Brilliant on the iPad too', 4)],
    },
  });
  earshot = await startTestEarshot({ env: { EARSHOT_UPSTREAM_APPSTORE: appStore.url }, pollIntervalSeconds: 1 });
  key = (await earshot.createWorkspace('Acme')).apiKey;
});
afterAll(async () => {
  await earshot?.stop();
  await appStore?.close();
});

describe('reviews of a keyword\'s own sources (spec 1.4, 2.3)', () => {
  it('collects 30 days of reviews from every storefront once each, without needing the term, and still applies excluded terms', async () => {
    const keyword = await earshot.rest('POST', '/v1/keywords', {
      key,
      body: {
        term: 'Acme',
        platforms: [],
        matching: { excludedTerms: ['refund'] },
        reviewSources: [{ url: 'https://apps.apple.com/us/app/acme/id1234567890', countries: ['us', 'gb'] }],
      },
    });
    expect(keyword.status).toBe(201);
    expect(keyword.body.reviewSources).toEqual([
      { platform: 'appstore', id: '1234567890', url: expect.stringContaining('id1234567890'), countries: ['us', 'gb'], language: null, connectedAt: expect.any(String) },
    ]);
    const mentions = await eventually(() => allMentionsOf(earshot, key, keyword.body.id), (found) => found.length >= 2);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const settled = await allMentionsOf(earshot, key, keyword.body.id);
    expect(settled.map((m: { post: { text: string } }) => m.post.text).sort()).toEqual(
      ['Brilliant on the iPad too', 'Works well for our whole team every day'].map((text) => expect.stringContaining(text)),
    );
    expect(mentions.every((m: { post: { platform: string } }) => m.post.platform === 'appstore')).toBe(true);
  });
});

describe('review sources replaced by PATCH (spec 2.3, 4.2)', () => {
  it("defaults countries to the link's storefront else us, looks back over a country added, and keeps the reviews when [] disconnects", async () => {
    const fromLink = await earshot.rest('POST', '/v1/keywords', {
      key,
      body: { term: 'Acme link', platforms: [], reviewSources: [{ url: 'https://apps.apple.com/gb/app/acme/id1234567890' }] },
    });
    expect(fromLink.body.reviewSources.map((source: { countries: string[] }) => source.countries)).toEqual([['gb']]);

    const keyword = await earshot.rest('POST', '/v1/keywords', {
      key,
      body: { term: 'Acme sources', platforms: [], reviewSources: [{ platform: 'appstore', id: '1234567890' }] },
    });
    expect(keyword.body.reviewSources.map((source: { countries: string[] }) => source.countries)).toEqual([['us']]);
    const texts = async () => (await allMentionsOf(earshot, key, keyword.body.id)).map((m: { post: { text: string } }) => m.post.text).sort();
    await eventually(texts, (found) => found.length >= 2);

    const widened = await earshot.rest('PATCH', `/v1/keywords/${keyword.body.id}`, {
      key,
      body: { reviewSources: [{ platform: 'appstore', id: '1234567890', countries: ['us', 'gb'] }] },
    });
    expect(widened.status).toBe(200);
    await eventually(texts, (found) => found.length >= 3);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const all = ['Asked for a refund after the update', 'Brilliant on the iPad too', 'Works well for our whole team every day'].map((text) => expect.stringContaining(text));
    expect(await texts()).toEqual(all);

    const disconnected = await earshot.rest('PATCH', `/v1/keywords/${keyword.body.id}`, { key, body: { reviewSources: [] } });
    expect(disconnected.status).toBe(200);
    expect(disconnected.body.reviewSources).toEqual([]);
    expect(disconnected.body.polling.map((entry: { platform: string }) => entry.platform)).not.toContain('appstore');
    expect(await texts()).toEqual(all);
  });
  // Adding a storefront looked back over every storefront of the keyword: the ones it kept brought reviews from before, here one its rules had excluded then.
  it('looks back over the storefront just added only', async () => {
    const keyword = await earshot.rest('POST', '/v1/keywords', {
      key,
      body: { term: 'Acme storefronts', platforms: [], matching: { excludedTerms: ['refund'] }, reviewSources: [{ platform: 'appstore', id: '1234567890', countries: ['us'] }] },
    });
    const texts = async () => (await allMentionsOf(earshot, key, keyword.body.id)).map((m: { post: { text: string } }) => m.post.text).sort();
    await eventually(texts, (found) => found.length >= 1);
    expect((await earshot.rest('PATCH', `/v1/keywords/${keyword.body.id}`, { key, body: { matching: { excludedTerms: [] } } })).status).toBe(200);

    const widened = await earshot.rest('PATCH', `/v1/keywords/${keyword.body.id}`, {
      key,
      body: { reviewSources: [{ platform: 'appstore', id: '1234567890', countries: ['us', 'gb'] }] },
    });
    expect(widened.status).toBe(200);
    await eventually(texts, (found) => found.length >= 2);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await texts()).toEqual(['Brilliant on the iPad too', 'Works well for our whole team every day'].map((text) => expect.stringContaining(text)));
  });
});
