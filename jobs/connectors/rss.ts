/**
 * RSS 2.0, RSS 1.0, Atom and JSON Feed, read at the feed's own address (not a
 * platform base): spec 2.1 `feeds`, 4.2.
 *
 * - A page that advertises a feed (`<link rel="alternate" …>`) is followed to
 *   that feed; redirects are followed hop by hop and the result names the
 *   final feed address, which is what a keyword stores (spec 2.1 `url`).
 * - Conditional GET: the caller hands back the validators of its last read
 *   and gets `not-modified` on 304.
 * - Every hop must be a public address (ARCHITECTURE "private addresses").
 *
 * Environment:
 * - `EARSHOT_ALLOW_PRIVATE_URLS=1`: read feeds on loopback and private ranges.
 */
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ConnectorOptions } from './connector.ts';
import { advertisedFeeds, looksLikeHtml } from './feed-discovery.ts';
import { parseFeedDocument, type FeedDocument, type FeedEntry } from './feed-document.ts';
import { primaryLanguage } from './language-tag.ts';
import type { NormalizedAuthor, NormalizedPost } from '../../vocabulary/normalized-post.ts';
import { htmlToText, titledText, linksInHtml } from './post-text.ts';
import { assertPublicHttpUrl, PrivateAddressError, type HostLookup } from '../../runtime/public-address.ts';
import { requestUpstream, UpstreamError, type UpstreamResponse } from '../../runtime/upstream-http.ts';

/** What a server said to identify the version it sent; sent back to ask "anything new?". */
export interface FeedValidators {
  etag: string | null;
  lastModified: string | null;
}

export type FeedReadResult =
  | { status: 'fetched'; url: string; title: string | null; posts: NormalizedPost[]; validators: FeedValidators }
  | { status: 'not-modified'; url: string; validators: FeedValidators };

/** The address answers, but with neither a feed nor a page advertising one. Retrying will not help. */
export class NotAFeedError extends Error {
  constructor(readonly url: string, reason: string) {
    super(`${url}: ${reason}`);
  }
}

export interface RssConnectorOptions extends ConnectorOptions {
  /** Host resolution for the private-address rule; tests resolve names without DNS. */
  lookup?: HostLookup;
  /** When an undated item is first seen; default the clock. */
  now?: () => Date;
}

export interface FeedConnector {
  platform: 'rss';
  /** `validators` are those of the previous read of `url`, when there was one. */
  read(url: string, validators?: FeedValidators | null): Promise<FeedReadResult>;
}

const redirectStatuses = new Set([301, 302, 303, 307, 308]);
const maxRedirects = 5;
const accept = 'application/rss+xml, application/atom+xml, application/feed+json, application/xml;q=0.9, text/xml;q=0.9, text/html;q=0.8, */*;q=0.5';

export function createRssConnector(env: NodeJS.ProcessEnv = process.env, options: RssConnectorOptions = {}): FeedConnector {
  const attempts = options.retry?.attempts ?? 3;
  const backoffMs = options.retry?.backoffMs ?? 500;
  const now = options.now ?? (() => new Date());

  async function assertPublic(url: string) {
    try {
      await assertPublicHttpUrl(url, { env, lookup: options.lookup });
    } catch (error) {
      if (error instanceof PrivateAddressError) throw error;
      throw new UpstreamError('rss', `cannot resolve ${new URL(url).hostname}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** GET with redirects taken one at a time, so a redirect cannot lead into a private network. */
  async function getFollowingRedirects(url: string, validators: FeedValidators | null): Promise<{ url: string; response: UpstreamResponse }> {
    const headers: Record<string, string> = { accept };
    if (validators?.etag) headers['if-none-match'] = validators.etag;
    if (validators?.lastModified) headers['if-modified-since'] = validators.lastModified;
    let current = url;
    for (let hop = 0; ; hop++) {
      await assertPublic(current);
      const response = await requestUpstream({ platform: 'rss', url: current, headers, redirect: 'manual', ...options.retry });
      const location = response.headers.get('location');
      if (!redirectStatuses.has(response.status) || !location) return { url: current, response };
      if (hop >= maxRedirects) throw new UpstreamError('rss', `more than ${maxRedirects} redirects from ${url}`, response.status);
      if (!URL.canParse(location, current)) throw new UpstreamError('rss', `redirect to an invalid address from ${current}`, response.status);
      current = new URL(location, current).href;
    }
  }

  return {
    platform: 'rss',

    async read(url, validators = null) {
      if (!URL.canParse(url)) throw new NotAFeedError(url, 'not a valid address');
      let target = new URL(url).href;
      let sentValidators = validators;
      let discoveredFrom: string | null = null;
      for (let unreadable = 0; ;) {
        const { url: finalUrl, response } = await getFollowingRedirects(target, sentValidators);
        const received: FeedValidators = { etag: response.headers.get('etag'), lastModified: response.headers.get('last-modified') };
        if (response.status === 304) {
          // A 304 need not repeat the validators; the ones asked with still stand.
          const kept = { etag: received.etag ?? sentValidators?.etag ?? null, lastModified: received.lastModified ?? sentValidators?.lastModified ?? null };
          return { status: 'not-modified', url: finalUrl, validators: kept };
        }
        if (response.status < 200 || response.status >= 300) {
          throw new UpstreamError('rss', `HTTP ${response.status} from ${finalUrl}`, response.status);
        }
        if (looksLikeHtml(response.text, response.headers.get('content-type'))) {
          const [advertised] = discoveredFrom ? [] : advertisedFeeds(response.text, finalUrl);
          if (!advertised) throw new NotAFeedError(url, discoveredFrom ? `the feed ${discoveredFrom} advertises is a web page` : 'the page advertises no RSS, Atom or JSON feed');
          discoveredFrom = finalUrl;
          target = advertised;
          // Validators belong to the address they were read from, not to the feed found on it.
          sentValidators = null;
          continue;
        }
        const document = parseFeedDocument(response.text, finalUrl);
        if (document) {
          return { status: 'fetched', url: finalUrl, title: document.title, posts: toPosts(document, finalUrl, now()), validators: received };
        }
        // A cut-off or garbled body is usually a passing fault, like a 5xx; a lasting one is no feed.
        if (++unreadable >= attempts) throw new NotAFeedError(finalUrl, 'the response is not an RSS, Atom or JSON feed');
        await sleep(backoffMs * 2 ** (unreadable - 1));
      }
    },
  };
}

function toPosts(document: FeedDocument, feedUrl: string, seenAt: Date): NormalizedPost[] {
  return document.entries
    .map((entry) => toPost(entry, document, feedUrl, seenAt))
    .sort((a, b) => b.publishedAt.getTime() - a.publishedAt.getTime());
}

function toPost(entry: FeedEntry, document: FeedDocument, feedUrl: string, seenAt: Date): NormalizedPost {
  const body = entry.bodyHtml ?? '';
  const { title, text } = titledText(entry.title, htmlToText(body));
  const url = entry.link ?? document.siteUrl ?? feedUrl;
  return {
    platform: 'rss',
    externalId: entry.id ?? entry.link ? feedKey(entry.id ?? entry.link!, feedUrl) : createHash('sha256').update(`${feedUrl}\n${text}`).digest('hex').slice(0, 32),
    url,
    text,
    title,
    publishedAt: entry.publishedAt ?? seenAt,
    replyTo: null,
    links: linksInHtml(body, url),
    author: authorOf(entry, document, feedUrl),
    language: primaryLanguage(entry.language ?? document.language),
  };
}

/**
 * The key an entry id or an author's link stores a post or an author under.
 * Posts and authors are stored once for every workspace, and a stored one
 * takes the text and names of its latest read; but a feed says what it
 * likes, so any workspace's feed could name an entry or an author link of
 * another site and rewrite what that site's followers see. A feed speaks as
 * itself only for addresses on its own host (its final address, after
 * redirects); anything else it names is its own, qualified by its address.
 */
function feedKey(reference: string, feedUrl: string): string {
  const onFeedHost = URL.canParse(reference) && new URL(reference).host === new URL(feedUrl).host;
  return onFeedHost ? reference : `${feedUrl} ${reference}`;
}

/** The entry's author, else the feed's, else the feed itself speaking under its title. */
function authorOf(entry: FeedEntry, document: FeedDocument, feedUrl: string): NormalizedAuthor {
  const host = new URL(feedUrl).host;
  const person = entry.author ?? document.author;
  if (person) {
    return {
      // Names are unique only within a site, so a name without a profile link is qualified by the feed's host.
      platformId: person.url ? feedKey(person.url, feedUrl) : `${host}/${person.name}`,
      name: person.name,
      handle: person.name,
      url: person.url ?? document.siteUrl ?? feedUrl,
      avatarUrl: person.avatarUrl,
      followers: null,
    };
  }
  return {
    platformId: feedUrl,
    name: document.title ?? host,
    handle: host,
    url: document.siteUrl ?? feedUrl,
    avatarUrl: null,
    followers: null,
  };
}
