import { decodeHtmlEntities } from './post-text.ts';

/**
 * Feed autodiscovery: a page advertises its feeds with
 * `<link rel="alternate" type="application/rss+xml|atom+xml|feed+json" href>`
 * (spec 4.2 accepts "a page that advertises one" wherever a feed is asked for).
 */

// Not plain application/json: WordPress advertises its REST API with it on every page.
const feedTypes = new Set(['application/rss+xml', 'application/atom+xml', 'application/feed+json']);

function attributes(tag: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const [, name, doubleQuoted, singleQuoted, bare] of tag.matchAll(/([a-zA-Z:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/g)) {
    found.set(name.toLowerCase(), decodeHtmlEntities(doubleQuoted ?? singleQuoted ?? bare).trim());
  }
  return found;
}

export function looksLikeHtml(body: string, contentType: string | null): boolean {
  if (contentType && /\btext\/html\b|\bapplication\/xhtml\+xml\b/i.test(contentType)) return true;
  return /^\s*(?:<!--[\s\S]*?-->\s*)*<(?:!doctype\s+html|html)\b/i.test(body.replace(/^\uFEFF/, ''));
}

/** The feed addresses a page advertises, absolute, in the order written. */
export function advertisedFeeds(html: string, pageUrl: string): string[] {
  const head = html.replace(/<!--[\s\S]*?-->/g, '');
  const baseHref = /<base\b[^>]*>/i.exec(head);
  let base = pageUrl;
  const declaredBase = baseHref && attributes(baseHref[0]).get('href');
  if (declaredBase) {
    try {
      base = new URL(declaredBase, pageUrl).href;
    } catch {
      // An unusable <base> is ignored, as browsers do.
    }
  }
  const feeds: string[] = [];
  for (const [tag] of head.matchAll(/<link\b[^>]*>/gi)) {
    const attribute = attributes(tag);
    const rel = (attribute.get('rel') ?? '').toLowerCase().split(/\s+/);
    const type = (attribute.get('type') ?? '').toLowerCase().split(';')[0].trim();
    const href = attribute.get('href');
    if (!rel.includes('alternate') || !feedTypes.has(type) || !href) continue;
    try {
      const url = new URL(href, base);
      if (url.protocol === 'http:' || url.protocol === 'https:') feeds.push(url.href);
    } catch {
      continue;
    }
  }
  return [...new Set(feeds)];
}
