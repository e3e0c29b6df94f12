/**
 * News articles through Google News search RSS:
 * `GET {base}/rss/search?q={term}&hl=en-US&gl=US&ceid=US:en`, an RSS 2.0
 * channel whose items name their publication in `<source url>`.
 *
 * The feed has no paging and no date filter beyond search operators, so one
 * call is the whole answer; items before `since` are dropped here.
 *
 * Environment:
 * - `EARSHOT_UPSTREAM_NEWS`: base address, default `https://news.google.com`.
 * No credential: the feed is public.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { ConnectorOptions, SearchConnector, SearchQuery } from './connector.ts';
import { parseFeedDocument, type FeedEntry } from './feed-document.ts';
import { primaryLanguage } from './language-tag.ts';
import type { NormalizedPost } from '../../vocabulary/normalized-post.ts';
import { linksInHtml, titledText } from './post-text.ts';
import { pageSize, searchText } from './search-query.ts';
import { requestUpstream, upstreamBase, UpstreamError } from '../../runtime/upstream-http.ts';

const itemsMaximum = 100;

export function createNewsConnector(env: NodeJS.ProcessEnv = process.env, options: ConnectorOptions = {}): SearchConnector {
  const base = upstreamBase('news', 'https://news.google.com', env, '/rss');

  return {
    platform: 'news',

    async search(query: SearchQuery) {
      const url = new URL(`${base}/rss/search`);
      url.searchParams.set('q', searchText(query));
      url.searchParams.set('hl', 'en-US');
      url.searchParams.set('gl', 'US');
      url.searchParams.set('ceid', 'US:en');
      const document = await readFeedWithRetry(url, options);
      const posts = document.entries
        .map((entry) => toPost(entry, document.language))
        .filter((post): post is NormalizedPost => post !== null && post.publishedAt > query.since)
        .sort((a, b) => b.publishedAt.getTime() - a.publishedAt.getTime())
        .slice(0, pageSize(query, itemsMaximum));
      return { posts, nextCursor: null };
    },
  };
}

async function readFeedWithRetry(url: URL, options: ConnectorOptions) {
  const attempts = options.retry?.attempts ?? 3;
  for (let attempt = 1; ; attempt++) {
    const response = await requestUpstream({ platform: 'news', url, headers: { accept: 'application/rss+xml' }, ...options.retry });
    if (response.status < 200 || response.status >= 300) {
      throw new UpstreamError('news', `HTTP ${response.status}: ${response.text.slice(0, 200)}`, response.status);
    }
    const document = parseFeedDocument(response.text, url.href);
    if (document) return document;
    // A garbled body is a passing fault like a 5xx: ask again.
    if (attempt >= attempts) throw new UpstreamError('news', 'malformed RSS body', response.status);
    await sleep((options.retry?.backoffMs ?? 500) * 2 ** (attempt - 1));
  }
}

/** Google News titles end with " - {publication}", which the author already carries. */
function headline(title: string, publication: string): string {
  const suffix = ` - ${publication}`;
  return title.endsWith(suffix) ? title.slice(0, -suffix.length) : title;
}

function toPost(entry: FeedEntry, feedLanguage: string | null): NormalizedPost | null {
  if (!entry.link || !entry.publishedAt || !entry.title) return null;
  const publication = entry.source?.name ?? new URL(entry.link).host;
  const publicationUrl = entry.source?.url ?? new URL(entry.link).origin;
  return {
    platform: 'news',
    externalId: entry.id ?? entry.link,
    url: entry.link,
    ...titledText(headline(entry.title, publication), null),
    publishedAt: entry.publishedAt,
    replyTo: null,
    links: linksInHtml(entry.bodyHtml ?? '', entry.link),
    author: {
      platformId: new URL(publicationUrl).host,
      name: publication,
      handle: new URL(publicationUrl).host,
      url: publicationUrl,
      avatarUrl: null,
      followers: null,
    },
    language: primaryLanguage(entry.language ?? feedLanguage),
  };
}
