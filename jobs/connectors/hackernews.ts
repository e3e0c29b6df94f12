/**
 * Hacker News through the Algolia HN Search API (https://hn.algolia.com/api).
 *
 * Environment:
 * - `EARSHOT_UPSTREAM_HACKERNEWS`: base address, default `https://hn.algolia.com`.
 * No credential: the API is public.
 */
import { z } from 'zod';
import type { ConnectorOptions, SearchConnector, SearchQuery } from './connector.ts';
import type { NormalizedPost } from '../../vocabulary/normalized-post.ts';
import { htmlToText, titledText, linksInHtml, uniqueLinks } from './post-text.ts';
import { pageSize, searchText, unixSeconds } from './search-query.ts';
import { getUpstreamJson, upstreamBase } from '../../runtime/upstream-http.ts';
import { parseUpstreamShape, upstreamItems } from './upstream-shape.ts';
import { pathWithFallback } from './optional-call.ts';

/**
 * A story or comment hit of `search_by_date`: the fields Earshot reads.
 * Algolia always sends `_tags` and `created_at_i`; a proxy or recording that
 * drops them still maps (the kind from the text fields, the time from
 * `created_at`).
 */
const hitShape = z.preprocess(
  (hit) => {
    if (!hit || typeof hit !== 'object') return hit;
    const raw = hit as Record<string, unknown>;
    return {
      ...raw,
      _tags: raw._tags ?? (raw.comment_text != null && raw.title == null ? ['comment'] : ['story']),
      created_at_i: raw.created_at_i ?? (typeof raw.created_at === 'string' ? Math.floor(Date.parse(raw.created_at) / 1000) : undefined),
    };
  },
  z.object({
    objectID: z.union([z.string(), z.number().transform(String)]),
    created_at_i: z.number(),
    author: z.string(),
    _tags: z.array(z.string()),
    title: z.string().nullish(),
    url: z.string().nullish(),
    story_text: z.string().nullish(),
    comment_text: z.string().nullish(),
    parent_id: z.union([z.number(), z.string()]).nullish(),
  }),
);

const searchResponse = z.object({ hits: upstreamItems(hitShape) });

export type AlgoliaHackerNewsHit = z.output<typeof hitShape>;

const hitsPerPageMaximum = 1000;

const itemUrl = (id: string | number) => `https://news.ycombinator.com/item?id=${id}`;

export function createHackerNewsConnector(env: NodeJS.ProcessEnv = process.env, options: ConnectorOptions = {}): SearchConnector {
  const base = upstreamBase('hackernews', 'https://hn.algolia.com', env, '/api/v1');
  // `search` takes the same parameters and answers the same hits, by relevance: the pages' time filters still bound it.
  const searchPath = pathWithFallback('/api/v1/search_by_date', '/api/v1/search');

  const searchByDate = (params: Record<string, string>) => searchPath(async (path) => {
    const url = new URL(`${base}${path}`);
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    return parseUpstreamShape('hackernews', searchResponse, await getUpstreamJson<unknown>({ platform: 'hackernews', url, ...options.retry }), options.logger);
  });

  return {
    platform: 'hackernews',

    /**
     * Algolia serves at most 1,000 hits per query however it is paged, so a
     * busy term would stop short paging one query by `page=`. Each page
     * instead asks for items no newer than the oldest second seen; the cursor
     * carries that second, the ids already served from it (dropped when they
     * come again) and a page number only used while a whole page falls in
     * that one second.
     */
    async search(query: SearchQuery) {
      const hitsPerPage = pageSize(query, hitsPerPageMaximum);
      const boundary = query.cursor ? parseCursor(query.cursor) : null;
      const params: Record<string, string> = {
        query: searchText(query),
        tags: '(story,comment)',
        numericFilters: `created_at_i>${unixSeconds(query.since)}`,
        hitsPerPage: String(hitsPerPage),
      };
      if (boundary) params.numericFilters += `,created_at_i<=${boundary.second}`;
      if (boundary?.page) params.page = String(boundary.page);
      const { hits } = await searchByDate(params);
      const servedBefore = (hit: AlgoliaHackerNewsHit) => hit.created_at_i === boundary?.second && boundary.ids.includes(hit.objectID);
      const oldest = hits.at(-1)?.created_at_i;
      let nextCursor: string | null = null;
      if (hits.length >= hitsPerPage && oldest !== undefined) {
        const idsAtOldest = hits.filter((hit) => hit.created_at_i === oldest).map((hit) => hit.objectID);
        nextCursor = oldest === boundary?.second
          ? formatCursor({ second: oldest, page: boundary.page + 1, ids: [...boundary.ids, ...idsAtOldest] })
          : formatCursor({ second: oldest, page: 0, ids: idsAtOldest });
      }
      return { posts: hits.filter((hit) => !servedBefore(hit)).map(toPost), nextCursor };
    },

    /** The comments of a story's thread, at any depth, newest first. */
    async comments(post, since, limit) {
      const result = await searchByDate({
        tags: `comment,story_${post.externalId}`,
        numericFilters: `created_at_i>${unixSeconds(since)}`,
        hitsPerPage: String(Math.min(Math.max(limit, 1), hitsPerPageMaximum)),
      });
      return result.hits.map(toPost);
    },
  };
}

interface TimeCursor {
  second: number;
  page: number;
  ids: string[];
}

function formatCursor(cursor: TimeCursor): string {
  return `${cursor.second}:${cursor.page}:${[...new Set(cursor.ids)].join(',')}`;
}

function parseCursor(cursor: string): TimeCursor {
  const [second, page, ids = ''] = cursor.split(':');
  return { second: Number(second), page: Number(page) || 0, ids: ids.split(',').filter(Boolean) };
}

function toPost(hit: AlgoliaHackerNewsHit): NormalizedPost {
  const isComment = hit._tags.includes('comment');
  const bodyHtml = (isComment ? hit.comment_text : hit.story_text) ?? '';
  return {
    platform: 'hackernews',
    externalId: hit.objectID,
    url: itemUrl(hit.objectID),
    ...titledText(isComment ? null : hit.title, htmlToText(bodyHtml)),
    publishedAt: new Date(hit.created_at_i * 1000),
    replyTo: isComment && hit.parent_id != null ? itemUrl(hit.parent_id) : null,
    links: uniqueLinks(isComment ? [] : [hit.url], linksInHtml(bodyHtml)),
    author: {
      platformId: hit.author,
      name: hit.author,
      handle: hit.author,
      url: `https://news.ycombinator.com/user?id=${encodeURIComponent(hit.author)}`,
      avatarUrl: null,
      followers: null,
    },
  };
}
