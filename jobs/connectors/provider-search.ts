/**
 * The search-provider contract for platforms without an open search API
 * (LinkedIn, TikTok, Instagram). THIS IS EARSHOT'S OWN CONTRACT, NOT THE
 * PLATFORM'S API: an operator points `EARSHOT_UPSTREAM_<PLATFORM>` at a data
 * provider (or an adapter in front of one) that answers it.
 *
 *   GET {base}/v1/search?q={q}&since={ISO 8601}&limit={1..100}[&cursor={cursor}]
 *   Authorization: Bearer {EARSHOT_<PLATFORM>_API_KEY}   (sent when set)
 *
 *   q       the term; a double-quoted q asks for the exact phrase
 *   since   nothing published at or before this instant
 *   limit   items wanted in this page
 *   cursor  `nextCursor` of the previous page
 *
 *   200 {
 *     "items": [{
 *       "id": "7191234567890123456",                     platform id of the post
 *       "url": "https://…",                              the post's public address
 *       "text": "…",                                     plain text, title and body joined
 *       "publishedAt": "2024-05-01T09:14:02Z",
 *       "author": { "id": "…", "name": "…", "handle": "…", "url": "https://…",
 *                   "avatarUrl": "https://…" | null, "followers": 1234 | null },
 *       "replyTo": "https://…" | null,                   address of the post answered
 *       "links": ["https://…"],                          links in the post, written order
 *       "language": "en" | null                          optional
 *     }],
 *     "nextCursor": "…" | null                           null: nothing older
 *   }
 *
 * Items come newest first. Other statuses follow HTTP meaning (429 with
 * `Retry-After`, 5xx are retried).
 *
 * Environment (PLATFORM = LINKEDIN, TIKTOK or INSTAGRAM):
 * - `EARSHOT_UPSTREAM_<PLATFORM>`: the provider's base address. Required;
 *   without it every search fails with `UpstreamConfigurationError`.
 * - `EARSHOT_<PLATFORM>_API_KEY`: bearer token for the provider, optional.
 */
import { z } from 'zod';
import type { ConnectorOptions, SearchConnector, SearchQuery } from './connector.ts';
import { primaryLanguage } from './language-tag.ts';
import type { NormalizedPost } from '../../vocabulary/normalized-post.ts';
import { pageSize, searchText } from './search-query.ts';
import { getUpstreamJson, UpstreamConfigurationError } from '../../runtime/upstream-http.ts';
import { parseUpstreamShape } from './upstream-shape.ts';

export type ProviderSearchPlatform = 'linkedin' | 'tiktok' | 'instagram';

const platformNames: Record<ProviderSearchPlatform, string> = { linkedin: 'LinkedIn', tiktok: 'TikTok', instagram: 'Instagram' };

const itemsMaximum = 100;

const providerItem = z.object({
  id: z.union([z.string().min(1), z.number()]).transform(String),
  url: z.url(),
  text: z.string(),
  publishedAt: z.iso.datetime({ offset: true }),
  author: z.object({
    id: z.union([z.string().min(1), z.number()]).transform(String),
    name: z.string(),
    handle: z.string(),
    url: z.string(),
    avatarUrl: z.string().nullish(),
    followers: z.number().int().nonnegative().nullish(),
  }),
  replyTo: z.string().nullish(),
  links: z.array(z.string()).nullish(),
  language: z.string().nullish(),
});

const providerPage = z.object({
  items: z.array(providerItem),
  nextCursor: z.string().min(1).nullish(),
});

type ProviderItem = z.infer<typeof providerItem>;

export function createProviderSearchConnector(
  platform: ProviderSearchPlatform,
  env: NodeJS.ProcessEnv = process.env,
  options: ConnectorOptions = {},
): SearchConnector {
  const baseVariable = `EARSHOT_UPSTREAM_${platform.toUpperCase()}`;
  const base = env[baseVariable]?.replace(/\/+$/, '');
  const apiKey = env[`EARSHOT_${platform.toUpperCase()}_API_KEY`];
  const unconfigured = base
    ? undefined
    : new UpstreamConfigurationError(platform, baseVariable, `${platformNames[platform]} has no open search API; point it at a search provider that answers the contract in jobs/connectors/provider-search.ts`);

  return {
    platform,
    unconfigured,

    async search(query: SearchQuery) {
      if (!base) throw unconfigured;
      const url = new URL(`${base}/v1/search`);
      url.searchParams.set('q', searchText(query));
      url.searchParams.set('since', query.since.toISOString());
      url.searchParams.set('limit', String(pageSize(query, itemsMaximum)));
      if (query.cursor) url.searchParams.set('cursor', query.cursor);
      const body = await getUpstreamJson<unknown>({
        platform,
        url,
        headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
        ...options.retry,
      });
      const page = parseUpstreamShape(platform, providerPage, body);
      const posts = page.items.map((item) => toPost(platform, item));
      const fresh = posts.filter((post) => post.publishedAt > query.since);
      // A provider that ignores `since` would otherwise be paged back forever.
      const reachedSince = fresh.length < posts.length;
      return { posts: fresh, nextCursor: reachedSince ? null : page.nextCursor ?? null };
    },
  };
}

function toPost(platform: ProviderSearchPlatform, item: ProviderItem): NormalizedPost {
  return {
    platform,
    externalId: item.id,
    url: item.url,
    text: item.text,
    publishedAt: new Date(item.publishedAt),
    replyTo: item.replyTo ?? null,
    links: item.links ?? [],
    author: {
      platformId: item.author.id,
      name: item.author.name,
      handle: item.author.handle,
      url: item.author.url,
      avatarUrl: item.author.avatarUrl ?? null,
      followers: item.author.followers ?? null,
    },
    language: primaryLanguage(item.language),
  };
}
