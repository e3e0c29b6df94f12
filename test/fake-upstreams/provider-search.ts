import { type FakeServerOptions, type FakeUpstream, matchesSearch, startFakeServer } from './fake-server.ts';

export interface ProviderPostFixture {
  id: string;
  url: string;
  text: string;
  publishedAt: Date;
  author: { id: string; name: string; handle: string; url: string; avatarUrl: string | null; followers: number | null };
  replyTo?: string | null;
  links?: string[];
  language?: string | null;
}

export interface ProviderSearchFakeOptions extends FakeServerOptions {
  items: ProviderPostFixture[];
  /** When set, requests must carry `Authorization: Bearer {apiKey}`. */
  apiKey?: string;
}

/** An item as the provider contract of provider-search.ts sends it. */
export function providerItem(post: ProviderPostFixture) {
  return {
    id: post.id,
    url: post.url,
    text: post.text,
    publishedAt: post.publishedAt.toISOString(),
    author: post.author,
    replyTo: post.replyTo ?? null,
    links: post.links ?? [],
    ...(post.language !== undefined ? { language: post.language } : {}),
  };
}

/**
 * A search provider answering Earshot's provider contract (LinkedIn, TikTok,
 * Instagram): `GET /v1/search` with `q`, `since`, `limit` (1 to 100) and an
 * opaque `cursor`, newest first.
 */
export function startFakeProviderSearch(options: ProviderSearchFakeOptions): Promise<FakeUpstream> {
  return startFakeServer((request) => {
    if (request.method !== 'GET' || request.path !== '/v1/search') return null;
    if (options.apiKey && request.headers.authorization !== `Bearer ${options.apiKey}`) {
      return { status: 401, body: { error: 'invalid_token' } };
    }
    const { query } = request;
    const q = query.get('q') ?? '';
    const since = Date.parse(query.get('since') ?? '');
    const limit = Number(query.get('limit') ?? 25);
    if (!q || Number.isNaN(since) || !(limit >= 1 && limit <= 100)) {
      return { status: 400, body: { error: 'q, an ISO since and a limit of 1 to 100 are required' } };
    }
    const cursor = query.get('cursor');
    const start = cursor ? Number(Buffer.from(cursor, 'base64url').toString('utf8').replace(/^offset:/, '')) : 0;
    const found = options.items
      .filter((post) => post.publishedAt.getTime() > since && matchesSearch(post.text, q))
      .sort((a, b) => b.publishedAt.getTime() - a.publishedAt.getTime());
    const page = found.slice(start, start + limit);
    const more = start + limit < found.length;
    return {
      body: {
        items: page.map(providerItem),
        nextCursor: more ? Buffer.from(`offset:${start + limit}`).toString('base64url') : null,
      },
    };
  }, options);
}
