import { afterEach, describe, expect, it } from 'vitest';
import { createInstagramConnector } from '../jobs/connectors/instagram.ts';
import { createLinkedInConnector } from '../jobs/connectors/linkedin.ts';
import type { NormalizedPost } from '../vocabulary/normalized-post.ts';
import { createTikTokConnector } from '../jobs/connectors/tiktok.ts';
import { UpstreamConfigurationError, UpstreamError } from '../runtime/upstream-http.ts';
import { type FakeUpstream, startFakeServer } from './fake-upstreams/fake-server.ts';
import { fastRetry, itSurvivesUpstreamFaults } from './fake-upstreams/fault-cases.ts';
import { type ProviderPostFixture, providerItem, startFakeProviderSearch } from './fake-upstreams/provider-search.ts';

const since = new Date('2025-03-01T00:00:00Z');
const at = (minutes: number) => new Date(since.getTime() + minutes * 60_000);

const post: ProviderPostFixture = {
  id: 'urn:li:activity:7302837465019283746',
  url: 'https://www.linkedin.com/feed/update/urn:li:activity:7302837465019283746/',
  text: 'We moved our social listening to Earshot this quarter. Write-up: https://blog.example.com/earshot',
  publishedAt: at(45),
  author: {
    id: 'ACoAAB1x2y3',
    name: 'Nora Lindqvist',
    handle: 'noralindqvist',
    url: 'https://www.linkedin.com/in/noralindqvist/',
    avatarUrl: 'https://media.licdn.com/dms/image/v2/nora.jpg',
    followers: 5120,
  },
  links: ['https://blog.example.com/earshot'],
  language: 'en',
};
const reply: ProviderPostFixture = {
  id: 'urn:li:comment:(urn:li:activity:7302837465019283746,7302840000000000000)',
  url: 'https://www.linkedin.com/feed/update/urn:li:activity:7302837465019283746/?commentUrn=urn%3Ali%3Acomment%3A7302840000000000000',
  text: 'How does Earshot price LinkedIn?',
  publishedAt: at(90),
  author: { id: 'ACoAAC4d5e6', name: 'Omar', handle: 'omar-b', url: 'https://www.linkedin.com/in/omar-b/', avatarUrl: null, followers: null },
  replyTo: 'https://www.linkedin.com/feed/update/urn:li:activity:7302837465019283746/',
};

const fakes: FakeUpstream[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.close()));
});

async function linkedInWith(items: ProviderPostFixture[], apiKey?: string) {
  const fake = await startFakeProviderSearch({ items, apiKey });
  fakes.push(fake);
  const env = { EARSHOT_UPSTREAM_LINKEDIN: `${fake.url}/`, ...(apiKey ? { EARSHOT_LINKEDIN_API_KEY: apiKey } : {}) };
  return { fake, connector: createLinkedInConnector(env, { retry: fastRetry }) };
}

describe('search-provider connectors (LinkedIn, TikTok, Instagram)', () => {
  it('asks the provider with the term, since, limit and bearer key', async () => {
    const { fake, connector } = await linkedInWith([post], 'li-provider-key');
    await connector.search({ term: 'social listening', exactPhrase: true, since, limit: 500 });
    expect(fake.requests[0].path).toBe('/v1/search');
    expect(Object.fromEntries(fake.requests[0].query)).toEqual({ q: '"social listening"', since: '2025-03-01T00:00:00.000Z', limit: '100' });
    expect(fake.requests[0].headers.authorization).toBe('Bearer li-provider-key');
  });

  it('maps provider items whole', async () => {
    const { connector } = await linkedInWith([post, reply]);
    expect(await connector.search({ term: 'earshot', exactPhrase: false, since })).toEqual({
      nextCursor: null,
      posts: [
        {
          platform: 'linkedin',
          externalId: reply.id,
          url: reply.url,
          text: 'How does Earshot price LinkedIn?',
          publishedAt: at(90),
          replyTo: 'https://www.linkedin.com/feed/update/urn:li:activity:7302837465019283746/',
          links: [],
          author: { platformId: 'ACoAAC4d5e6', name: 'Omar', handle: 'omar-b', url: 'https://www.linkedin.com/in/omar-b/', avatarUrl: null, followers: null },
          language: null,
        },
        {
          platform: 'linkedin',
          externalId: post.id,
          url: post.url,
          text: post.text,
          publishedAt: at(45),
          replyTo: null,
          links: ['https://blog.example.com/earshot'],
          author: {
            platformId: 'ACoAAB1x2y3',
            name: 'Nora Lindqvist',
            handle: 'noralindqvist',
            url: 'https://www.linkedin.com/in/noralindqvist/',
            avatarUrl: 'https://media.licdn.com/dms/image/v2/nora.jpg',
            followers: 5120,
          },
          language: 'en',
        },
      ] satisfies NormalizedPost[],
    });
  });

  it('pages with the provider cursor', async () => {
    const items = Array.from({ length: 5 }, (_, n) => ({ ...post, id: `p${n}`, publishedAt: at(100 - n) }));
    const { fake, connector } = await linkedInWith(items);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await connector.search({ term: 'earshot', exactPhrase: false, since, limit: 2, cursor });
      seen.push(...page.posts.map((item) => item.externalId));
      cursor = page.nextCursor;
    } while (cursor && seen.length < 20);
    expect(seen).toEqual(['p0', 'p1', 'p2', 'p3', 'p4']);
    expect(fake.requests.map((request) => request.query.get('cursor'))).toEqual([null, expect.any(String), expect.any(String)]);
  });

  it('rejects an answer that breaks the contract, naming the field', async () => {
    const fake = await startFakeServer(() => ({ body: { items: [{ ...providerItem(post), publishedAt: 'yesterday' }], nextCursor: null } }));
    fakes.push(fake);
    const connector = createTikTokConnector({ EARSHOT_UPSTREAM_TIKTOK: fake.url }, { retry: fastRetry });
    const failure = await connector.search({ term: 'earshot', exactPhrase: false, since }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UpstreamError);
    expect((failure as Error).message).toMatch(/^tiktok: unexpected response: items\.0\.publishedAt: /);
  });

  it('reports each platform not configured without its provider base', async () => {
    for (const [create, variable] of [
      [createLinkedInConnector, 'EARSHOT_UPSTREAM_LINKEDIN'],
      [createTikTokConnector, 'EARSHOT_UPSTREAM_TIKTOK'],
      [createInstagramConnector, 'EARSHOT_UPSTREAM_INSTAGRAM'],
    ] as const) {
      const failure = await create({}).search({ term: 'earshot', exactPhrase: false, since }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(UpstreamConfigurationError);
      expect(failure).toMatchObject({ variable });
      expect((failure as Error).message).toMatch(/no open search API/);
    }
  });

  it('gives TikTok and Instagram posts their own platform', async () => {
    const fake = await startFakeProviderSearch({ items: [post] });
    fakes.push(fake);
    const query = { term: 'earshot', exactPhrase: false, since };
    const tiktok = await createTikTokConnector({ EARSHOT_UPSTREAM_TIKTOK: fake.url }).search(query);
    const instagram = await createInstagramConnector({ EARSHOT_UPSTREAM_INSTAGRAM: fake.url }).search(query);
    expect(tiktok.posts.map((item) => item.platform)).toEqual(['tiktok']);
    expect(instagram.posts.map((item) => item.platform)).toEqual(['instagram']);
  });

  it('fails on a wrong key like any non-retryable answer', async () => {
    const { fake } = await linkedInWith([post], 'right-key');
    const failure = await createLinkedInConnector({ EARSHOT_UPSTREAM_LINKEDIN: fake.url, EARSHOT_LINKEDIN_API_KEY: 'wrong' }, { retry: fastRetry })
      .search({ term: 'earshot', exactPhrase: false, since })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UpstreamError);
    expect(failure).toMatchObject({ status: 401 });
    expect(fake.requests).toHaveLength(1);
  });

  describe('when the provider fails', () => {
    itSurvivesUpstreamFaults(async () => {
      const { fake, connector } = await linkedInWith([post]);
      return { fake, call: () => connector.search({ term: 'earshot', exactPhrase: false, since }) };
    });
  });
});
