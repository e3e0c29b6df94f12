import { type FakeServerOptions, type FakeUpstream, matchesSearch, startFakeServer } from './fake-server.ts';

export interface NewsArticleFixture {
  /** The article id Google News puts in its links and `guid`. */
  id: string;
  headline: string;
  source: { name: string; url: string };
  publishedAt: Date;
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const articleLink = (article: NewsArticleFixture) => `https://news.google.com/rss/articles/${article.id}?oc=5`;

/** An `<item>` of the Google News search feed: headline and publication in the title, an anchor plus the publication in the description. */
export function newsItem(article: NewsArticleFixture): string {
  const description = `<a href="${articleLink(article)}" target="_blank">${escapeXml(article.headline)}</a>&nbsp;&nbsp;<font color="#6f6f6f">${escapeXml(article.source.name)}</font>`;
  return [
    '<item>',
    `<title>${escapeXml(`${article.headline} - ${article.source.name}`)}</title>`,
    `<link>${articleLink(article)}</link>`,
    `<guid isPermaLink="false">${article.id}</guid>`,
    `<pubDate>${article.publishedAt.toUTCString()}</pubDate>`,
    `<description>${escapeXml(description)}</description>`,
    `<source url="${escapeXml(article.source.url)}">${escapeXml(article.source.name)}</source>`,
    '</item>',
  ].join('');
}

/**
 * Google News search RSS: `/rss/search` with `q`, `hl`, `gl` and `ceid`
 * (the edition triple must be consistent, as Google requires), matching
 * headlines, newest first, at most 100 items, no paging.
 */
export function startFakeNews(fixtures: { articles: NewsArticleFixture[] }, options: FakeServerOptions = {}): Promise<FakeUpstream> {
  return startFakeServer((request) => {
    if (request.method !== 'GET' || request.path !== '/rss/search') return null;
    const { query } = request;
    const q = query.get('q') ?? '';
    const [hl, gl, ceid] = [query.get('hl'), query.get('gl'), query.get('ceid')];
    if (!q || !hl || !gl || ceid !== `${gl}:${hl.split('-')[0]}`) {
      return { status: 400, headers: { 'content-type': 'text/html; charset=UTF-8' }, body: '<html><body>Error 400 (Bad Request)</body></html>' };
    }
    const found = fixtures.articles
      .filter((article) => matchesSearch(article.headline, q))
      .sort((a, b) => b.publishedAt.getTime() - a.publishedAt.getTime())
      .slice(0, 100);
    const feed = [
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>',
      '<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel>',
      '<generator>NFE/5.0</generator>',
      `<title>${escapeXml(`${q} - Google News`)}</title>`,
      `<link>${escapeXml(`https://news.google.com/search?${query}`)}</link>`,
      `<language>${hl}</language>`,
      '<webMaster>news-webmaster@google.com</webMaster>',
      '<copyright>2025 Google Inc.</copyright>',
      `<lastBuildDate>${new Date().toUTCString()}</lastBuildDate>`,
      '<description>Google News</description>',
      ...found.map(newsItem),
      '</channel></rss>',
    ].join('');
    return { headers: { 'content-type': 'application/xml; charset=utf-8' }, body: feed };
  }, options);
}
