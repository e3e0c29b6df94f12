import { createHash } from 'node:crypto';
import { type FakeResponse, type FakeServerOptions, type FakeUpstream, startFakeServer } from './fake-server.ts';

export interface FeedItemFixture {
  id: string;
  url: string;
  title: string;
  /** The item's body as HTML. */
  html: string;
  /** Absent for an undated item. */
  publishedAt?: Date;
  author?: { name: string; url?: string; email?: string; avatar?: string };
}

export interface FeedFixture {
  title: string;
  siteUrl: string;
  /** The feed's own address, as feeds declare it. */
  feedUrl: string;
  language?: string;
  items: FeedItemFixture[];
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** An RSS 2.0 channel as WordPress writes one: escaped HTML descriptions, `dc:creator`, an `atom:link` to itself. */
export function rss2Document(feed: FeedFixture): string {
  const items = feed.items.map((item) => [
    '    <item>',
    `      <title>${escapeXml(item.title)}</title>`,
    `      <link>${escapeXml(item.url)}</link>`,
    ...(item.author?.email ? [`      <author>${escapeXml(`${item.author.email} (${item.author.name})`)}</author>`] : []),
    ...(item.author && !item.author.email ? [`      <dc:creator><![CDATA[${item.author.name}]]></dc:creator>`] : []),
    ...(item.publishedAt ? [`      <pubDate>${item.publishedAt.toUTCString().replace('GMT', '+0000')}</pubDate>`] : []),
    '      <category><![CDATA[Product]]></category>',
    `      <guid isPermaLink="false">${escapeXml(item.id)}</guid>`,
    `      <description>${escapeXml(item.html)}</description>`,
    '    </item>',
  ].join('\n'));
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:sy="http://purl.org/rss/1.0/modules/syndication/">',
    '  <channel>',
    `    <title>${escapeXml(feed.title)}</title>`,
    `    <atom:link href="${escapeXml(feed.feedUrl)}" rel="self" type="application/rss+xml" />`,
    `    <link>${escapeXml(feed.siteUrl)}</link>`,
    '    <description>News from the team</description>',
    `    <lastBuildDate>${new Date('2025-03-02T12:00:00Z').toUTCString()}</lastBuildDate>`,
    `    <language>${feed.language ?? 'en-US'}</language>`,
    '    <sy:updatePeriod>hourly</sy:updatePeriod>',
    '    <generator>https://wordpress.org/?v=6.7.2</generator>',
    ...items,
    '  </channel>',
    '</rss>',
  ].join('\n');
}

/** An Atom feed with `type="html"` content, authors with profile links, and relative entry links. */
export function atomDocument(feed: FeedFixture): string {
  const entries = feed.items.map((item) => [
    '  <entry>',
    `    <title type="html">${escapeXml(item.title)}</title>`,
    `    <link rel="alternate" type="text/html" href="${escapeXml(new URL(item.url).pathname)}"/>`,
    `    <id>${escapeXml(item.id)}</id>`,
    ...(item.publishedAt ? [`    <published>${item.publishedAt.toISOString()}</published>`, `    <updated>${item.publishedAt.toISOString()}</updated>`] : []),
    ...(item.author ? [`    <author><name>${escapeXml(item.author.name)}</name>${item.author.url ? `<uri>${escapeXml(item.author.url)}</uri>` : ''}</author>`] : []),
    `    <content type="html" xml:base="${escapeXml(item.url)}">${escapeXml(item.html)}</content>`,
    '  </entry>',
  ].join('\n'));
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${feed.language ?? 'en'}">`,
    `  <title>${escapeXml(feed.title)}</title>`,
    `  <link href="${escapeXml(feed.feedUrl)}" rel="self"/>`,
    `  <link href="${escapeXml(feed.siteUrl)}"/>`,
    '  <updated>2025-03-02T12:00:00Z</updated>',
    `  <id>${escapeXml(feed.siteUrl)}</id>`,
    ...entries,
    '</feed>',
  ].join('\n');
}

/** A JSON Feed 1.1 document. */
export function jsonFeedDocument(feed: FeedFixture): string {
  return JSON.stringify({
    version: 'https://jsonfeed.org/version/1.1',
    title: feed.title,
    home_page_url: feed.siteUrl,
    feed_url: feed.feedUrl,
    language: feed.language ?? 'en',
    items: feed.items.map((item) => ({
      id: item.id,
      url: item.url,
      title: item.title,
      content_html: item.html,
      ...(item.publishedAt ? { date_published: item.publishedAt.toISOString() } : {}),
      ...(item.author ? { authors: [{ name: item.author.name, url: item.author.url, avatar: item.author.avatar }] } : {}),
    })),
  }, null, 2);
}

/** A blog page whose head advertises feeds, the way sites do for autodiscovery. */
export function pageAdvertising(feeds: Array<{ href: string; type: string; title: string }>): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '  <meta charset="utf-8">',
    '  <title>Earshot blog</title>',
    '  <link rel="stylesheet" href="/style.css">',
    '  <link rel="alternate" type="application/json" href="/wp-json/wp/v2/pages/7">',
    ...feeds.map((feed) => `  <link rel="alternate" type="${feed.type}" title="${escapeXml(feed.title)}" href="${escapeXml(feed.href)}">`),
    '</head>',
    '<body><h1>Earshot blog</h1><p>Welcome.</p></body>',
    '</html>',
  ].join('\n');
}

export type FeedHostRoute =
  | { feed: string; contentType: string; lastModified?: Date }
  | { page: string }
  | { redirect: string; status?: 301 | 302 | 307 | 308 };

export interface FakeFeedHost extends FakeUpstream {
  /** Paths and what they serve; change them between reads to publish. */
  routes: Record<string, FeedHostRoute>;
}

const entityTag = (body: string) => `"${createHash('sha1').update(body).digest('hex').slice(0, 16)}"`;

/**
 * A web host serving feeds at their own paths, pages advertising them and
 * redirects. Feeds carry an `ETag` (and `Last-Modified` when given) and
 * answer 304 to a matching `If-None-Match` or a not-older `If-Modified-Since`.
 */
export async function startFakeFeedHost(routes: Record<string, FeedHostRoute>, options: FakeServerOptions = {}): Promise<FakeFeedHost> {
  const fake = await startFakeServer((request): FakeResponse | null => {
    const route = routes[request.path];
    if (request.method !== 'GET' || !route) return null;
    if ('redirect' in route) return { status: route.status ?? 301, headers: { location: route.redirect }, body: '' };
    if ('page' in route) return { headers: { 'content-type': 'text/html; charset=UTF-8' }, body: route.page };
    const etag = entityTag(route.feed);
    const headers: Record<string, string> = { 'content-type': route.contentType, etag };
    if (route.lastModified) headers['last-modified'] = route.lastModified.toUTCString();
    const ifNoneMatch = request.headers['if-none-match'];
    const ifModifiedSince = request.headers['if-modified-since'];
    const unchanged = ifNoneMatch !== undefined
      ? ifNoneMatch === etag
      : ifModifiedSince !== undefined && !!route.lastModified && route.lastModified.getTime() <= Date.parse(ifModifiedSince);
    return unchanged ? { status: 304, headers, body: '' } : { headers, body: route.feed };
  }, options);
  return { ...fake, routes };
}
