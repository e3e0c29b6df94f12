import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { decodeHtmlEntities, htmlToText } from './post-text.ts';

/**
 * RSS 2.0 (and RSS 1.0), Atom and JSON Feed documents read into one neutral
 * shape. Links are made absolute against the feed's address; bodies stay HTML
 * (plain-text bodies are escaped into HTML) so one text and link extraction
 * serves every format.
 */

export interface FeedEntry {
  /** RSS `guid`, Atom `id`, JSON Feed `id`. */
  id: string | null;
  link: string | null;
  title: string | null;
  bodyHtml: string | null;
  publishedAt: Date | null;
  author: FeedPerson | null;
  /** RSS `<source url>`: the publication an aggregator item comes from. */
  source: { name: string; url: string | null } | null;
  language: string | null;
}

export interface FeedPerson {
  name: string;
  url: string | null;
  avatarUrl: string | null;
}

export interface FeedDocument {
  format: 'rss' | 'atom' | 'json';
  title: string | null;
  /** The site the feed belongs to. */
  siteUrl: string | null;
  author: FeedPerson | null;
  language: string | null;
  entries: FeedEntry[];
}

type XmlNode = Record<string, unknown>;

const xmlParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  isArray: (name) => ['item', 'entry', 'link', 'author', 'dc:creator'].includes(name),
  // Atom bodies arrive raw so xhtml content keeps its markup and spacing.
  stopNodes: ['feed.entry.content', 'feed.entry.summary'],
});

function firstOf(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : value;
}

function textOf(value: unknown): string | null {
  const node = firstOf(value);
  const text = typeof node === 'string' ? node : node && typeof node === 'object' ? (node as XmlNode)['#text'] : undefined;
  return typeof text === 'string' && text.trim() ? text.trim() : null;
}

function attributeOf(value: unknown, name: string): string | null {
  const node = firstOf(value);
  const attribute = node && typeof node === 'object' ? (node as XmlNode)[`@_${name}`] : undefined;
  return typeof attribute === 'string' && attribute.trim() ? attribute.trim() : null;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** An absolute link stays as written, as post-text.ts keeps links; a relative one is resolved against the feed. */
function absolute(href: string | null, base: string): string | null {
  if (!href) return null;
  if (/^https?:\/\/[^\s]+$/i.test(href)) return href;
  try {
    const url = new URL(href, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

function dateOf(...candidates: Array<string | null | undefined>): Date | null {
  for (const candidate of candidates) {
    const time = candidate ? Date.parse(candidate) : NaN;
    if (!Number.isNaN(time)) return new Date(time);
  }
  return null;
}

/** RSS `author` is an e-mail address, conventionally `jane@example.com (Jane Doe)`. */
function rssAuthorName(value: string | null): string | null {
  const named = value && /\(([^)]+)\)\s*$/.exec(value);
  return named ? named[1].trim() : value;
}

function rssChannel(channel: XmlNode, items: XmlNode[], feedUrl: string): FeedDocument {
  const siteUrl = absolute(textOf(channel.link), feedUrl);
  return {
    format: 'rss',
    title: textOf(channel.title),
    siteUrl,
    author: null,
    language: textOf(channel.language) ?? textOf(channel['dc:language']),
    entries: items.map((item) => {
      const guid = textOf(item.guid);
      const guidIsLink = attributeOf(item.guid, 'isPermaLink') !== 'false';
      const link = absolute(textOf(item.link), feedUrl) ?? (guidIsLink ? absolute(guid, feedUrl) : null);
      const authorName = textOf(item['dc:creator']) ?? rssAuthorName(textOf(item.author));
      const sourceName = textOf(item.source);
      const body = textOf(item['content:encoded']) ?? textOf(item.description);
      const title = textOf(item.title);
      return {
        id: guid ?? attributeOf(item, 'rdf:about') ?? link,
        link,
        title: title && htmlToText(title),
        bodyHtml: body,
        publishedAt: dateOf(textOf(item.pubDate), textOf(item['dc:date'])),
        author: authorName ? { name: authorName, url: null, avatarUrl: null } : null,
        source: sourceName ? { name: sourceName, url: absolute(attributeOf(item.source, 'url'), feedUrl) } : null,
        language: textOf(item['dc:language']),
      };
    }),
  };
}

function atomLink(links: unknown, feedUrl: string): string | null {
  const list = (Array.isArray(links) ? links : [links]).filter((link): link is XmlNode => !!link && typeof link === 'object');
  const alternate = list.find((link) => (attributeOf(link, 'rel') ?? 'alternate') === 'alternate') ?? list[0];
  return alternate ? absolute(attributeOf(alternate, 'href'), feedUrl) : null;
}

function atomPerson(value: unknown, feedUrl: string): FeedPerson | null {
  const person = firstOf(value);
  if (!person || typeof person !== 'object') return null;
  const name = textOf((person as XmlNode).name);
  return name ? { name, url: absolute(textOf((person as XmlNode).uri), feedUrl), avatarUrl: null } : null;
}

function atomText(value: unknown): string | null {
  const text = textOf(value);
  return text && attributeOf(value, 'type') === 'html' ? htmlToText(text) : text;
}

/** An Atom body kept raw by the parser: xhtml is markup already, other types are XML-escaped text or CDATA. */
function atomBodyHtml(value: unknown): string | null {
  const raw = textOf(value);
  if (!raw) return null;
  const type = attributeOf(value, 'type') ?? 'text';
  if (type === 'xhtml') return raw;
  const unescaped = raw
    .split(/(<!\[CDATA\[[\s\S]*?\]\]>)/)
    .map((part) => (part.startsWith('<![CDATA[') ? part.slice(9, -3) : decodeHtmlEntities(part)))
    .join('');
  return type === 'html' || type === 'text/html' ? unescaped : escapeHtml(unescaped);
}

function atomFeed(feed: XmlNode, feedUrl: string): FeedDocument {
  const entries = (feed.entry as XmlNode[] | undefined) ?? [];
  const feedLanguage = attributeOf(feed, 'xml:lang');
  return {
    format: 'atom',
    title: atomText(feed.title),
    siteUrl: atomLink(feed.link, feedUrl),
    author: atomPerson(feed.author, feedUrl),
    language: feedLanguage,
    entries: entries.map((entry) => ({
      id: textOf(entry.id),
      link: atomLink(entry.link, feedUrl),
      title: atomText(entry.title),
      bodyHtml: atomBodyHtml(entry.content) ?? atomBodyHtml(entry.summary),
      publishedAt: dateOf(textOf(entry.published), textOf(entry.updated)),
      author: atomPerson(entry.author, feedUrl),
      source: null,
      language: attributeOf(entry, 'xml:lang'),
    })),
  };
}

interface JsonFeedAuthor { name?: unknown; url?: unknown; avatar?: unknown }

const stringOrNull = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : null);

function jsonFeedAuthor(authors: unknown, author: unknown, feedUrl: string): FeedPerson | null {
  // Version 1.1 has `authors`; 1.0 had a single `author`.
  const candidate = (Array.isArray(authors) ? authors[0] : author) as JsonFeedAuthor | undefined;
  const name = stringOrNull(candidate?.name);
  return name ? { name, url: absolute(stringOrNull(candidate?.url), feedUrl), avatarUrl: absolute(stringOrNull(candidate?.avatar), feedUrl) } : null;
}

function jsonFeed(feed: Record<string, unknown>, feedUrl: string): FeedDocument {
  const items = (feed.items as Array<Record<string, unknown>>).filter((item) => item && typeof item === 'object');
  return {
    format: 'json',
    title: stringOrNull(feed.title),
    siteUrl: absolute(stringOrNull(feed.home_page_url), feedUrl),
    author: jsonFeedAuthor(feed.authors, feed.author, feedUrl),
    language: stringOrNull(feed.language),
    entries: items.map((item) => {
      const text = stringOrNull(item.content_text) ?? stringOrNull(item.summary);
      const id = item.id === undefined || item.id === null ? null : String(item.id);
      return {
        id,
        link: absolute(stringOrNull(item.url), feedUrl) ?? absolute(stringOrNull(item.external_url), feedUrl),
        title: stringOrNull(item.title),
        bodyHtml: stringOrNull(item.content_html) ?? (text && escapeHtml(text)),
        publishedAt: dateOf(stringOrNull(item.date_published), stringOrNull(item.date_modified)),
        author: jsonFeedAuthor(item.authors, item.author, feedUrl),
        source: null,
        language: stringOrNull(item.language),
      };
    }),
  };
}

function parseJsonFeed(body: string, feedUrl: string): FeedDocument | null {
  let document: unknown;
  try {
    document = JSON.parse(body);
  } catch {
    return null;
  }
  if (!document || typeof document !== 'object') return null;
  const feed = document as Record<string, unknown>;
  const isJsonFeed = typeof feed.version === 'string' && feed.version.startsWith('https://jsonfeed.org/version/') && Array.isArray(feed.items);
  return isJsonFeed ? jsonFeed(feed, feedUrl) : null;
}

function parseXmlFeed(body: string, feedUrl: string): FeedDocument | null {
  if (XMLValidator.validate(body) !== true) return null;
  const document = xmlParser.parse(body) as XmlNode;
  const rss = document.rss as XmlNode | undefined;
  if (rss && typeof rss === 'object' && rss.channel && typeof rss.channel === 'object') {
    const channel = rss.channel as XmlNode;
    return rssChannel(channel, (channel.item as XmlNode[] | undefined) ?? [], feedUrl);
  }
  const rdf = document['rdf:RDF'] as XmlNode | undefined;
  if (rdf && typeof rdf === 'object' && rdf.channel && typeof rdf.channel === 'object') {
    return rssChannel(rdf.channel as XmlNode, (rdf.item as XmlNode[] | undefined) ?? [], feedUrl);
  }
  const atom = document.feed as XmlNode | undefined;
  if (atom && typeof atom === 'object') return atomFeed(atom, feedUrl);
  return null;
}

/** The feed a body holds, or null when it is none of RSS, Atom or JSON Feed (or is broken). */
export function parseFeedDocument(body: string, feedUrl: string): FeedDocument | null {
  const text = body.replace(/^\uFEFF/, '').trimStart();
  return text.startsWith('{') ? parseJsonFeed(text, feedUrl) : parseXmlFeed(text, feedUrl);
}
