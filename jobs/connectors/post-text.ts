/**
 * Turning what platforms send (HTML fragments, Markdown, entity-escaped
 * strings) into the plain `text` and ordered `links` of a NormalizedPost.
 * Every connector uses these, so a post reads the same whatever its source.
 */

const namedEntities: Record<string, string> = {
  // A no-break space reads as a space; keeping U+00A0 would only trip term matching.
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ',
  hellip: '…', mdash: '—', ndash: '–', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”',
  laquo: '«', raquo: '»', bull: '•', middot: '·', copy: '©', reg: '®', trade: '™',
  euro: '€', pound: '£', yen: '¥', cent: '¢', deg: '°', times: '×', divide: '÷',
};

/** `&amp;`, `&#39;`, `&#x2F;` and the common named entities back to characters; unknown names stay as written. */
export function decodeHtmlEntities(text: string): string {
  return text.replace(/&(#[xX][0-9a-fA-F]+|#[0-9]+|[a-zA-Z][a-zA-Z0-9]*);/g, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return namedEntities[name] ?? namedEntities[name.toLowerCase()] ?? whole;
  });
}

const blockBreak = /^(p|div|li|ul|ol|pre|blockquote|h[1-6]|tr|table|section|article|header|footer|figure|hr)$/i;

/**
 * Readable text of an HTML fragment: paragraphs and blocks become blank-line
 * separated, `<br>` a line break, tags dropped, entities decoded.
 */
export function htmlToText(html: string): string {
  const text = html
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/?([a-zA-Z][a-zA-Z0-9]*)\b[^>]*>/g, (_tag, name: string) => (blockBreak.test(name) ? '\n\n' : ''));
  return decodeHtmlEntities(text)
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const bareUrl = /\bhttps?:\/\/[^\s<>"'`{}|\\^[\]]+/gi;

/** Drops what writing puts after a URL (sentence punctuation, an unmatched closing bracket) but keeps a balanced `(…)`. */
function trimUrl(candidate: string): string {
  let url = candidate;
  for (;;) {
    const last = url[url.length - 1];
    if (/[.,;:!?*_~]/.test(last)) url = url.slice(0, -1);
    else if (last === ')' && (url.match(/\(/g)?.length ?? 0) < (url.match(/\)/g)?.length ?? 0)) url = url.slice(0, -1);
    else return url;
  }
}

/** The http(s) URLs written in plain text or Markdown, in order, each once. */
export function linksInText(text: string): string[] {
  return uniqueLinks([...text.matchAll(bareUrl)].map((match) => trimUrl(match[0])));
}

const htmlToken = /<a\b([^>]*)>|<\/a\s*>|<[^>]*>|[^<]+/gi;
const hrefAttribute = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i;

/**
 * The links of an HTML fragment in written order: each anchor's `href`
 * (resolved against `baseUrl` when relative) and bare URLs in text outside
 * anchors. Only http(s) links are kept, each once.
 */
export function linksInHtml(html: string, baseUrl?: string): string[] {
  const links: string[] = [];
  let inAnchor = false;
  for (const [token, attributes] of html.matchAll(htmlToken)) {
    if (attributes !== undefined) {
      inAnchor = true;
      const href = attributes.match(hrefAttribute);
      const value = href && decodeHtmlEntities((href[1] ?? href[2] ?? href[3]).trim());
      const absolute = value && absoluteHttpUrl(value, baseUrl);
      if (absolute) links.push(absolute);
    } else if (/^<\/a/i.test(token)) {
      inAnchor = false;
    } else if (!inAnchor && token[0] !== '<') {
      links.push(...linksInText(decodeHtmlEntities(token)));
    }
  }
  return uniqueLinks(links);
}

/** An absolute link stays as written (no added trailing slash); a relative one needs `baseUrl`. */
function absoluteHttpUrl(href: string, baseUrl: string | undefined): string | null {
  if (/^https?:\/\//i.test(href)) return href;
  if (!baseUrl || /^[a-z][a-z0-9+.-]*:/i.test(href)) return null;
  try {
    const url = new URL(href, baseUrl);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** Lists of links merged in order, each link kept at its first place. */
export function uniqueLinks(...lists: ReadonlyArray<string | null | undefined>[]): string[] {
  return [...new Set(lists.flat().filter((link): link is string => !!link))];
}

/** A post's `title`, and its `text`: title and body joined by a blank line where both exist (NormalizedPost). */
export function titledText(title: string | null | undefined, body: string | null | undefined): { title: string | null; text: string } {
  const heading = title?.trim() || null;
  return { title: heading, text: [heading, body?.trim()].filter((part) => !!part).join('\n\n') };
}
