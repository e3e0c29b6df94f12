/**
 * App Store reviews from Apple's public customer-reviews feed, one storefront
 * per call (spec 2.3: each country is its own poll):
 * `GET {base}/{country}/rss/customerreviews/id={appId}/sortby=mostrecent/json`,
 * the address Apple publishes the feed at, then
 * `GET {base}/{country}/rss/customerreviews/page={n}/id={appId}/sortby=mostrecent/json`
 * for the pages after the first. Apple serves at most 10 pages of 50
 * reviews, newest first.
 *
 * Environment:
 * - `EARSHOT_UPSTREAM_APPSTORE`: base address, default `https://itunes.apple.com`.
 * No credential: the feed is public.
 */
import { z } from 'zod';
import type { ConnectorOptions, ReviewConnector, ReviewSourceRef } from './connector.ts';
import type { NormalizedPost } from '../../vocabulary/normalized-post.ts';
import { titledText, linksInText } from './post-text.ts';
import { getUpstreamJson, upstreamBase } from '../../runtime/upstream-http.ts';
import { parseUpstreamShape, upstreamItems } from './upstream-shape.ts';

const label = z.object({ label: z.string() });
const attributesLink = z.object({ attributes: z.object({ rel: z.string().optional(), href: z.string().optional() }) });
const oneOrMany = <T extends z.ZodType>(schema: T) => z.union([upstreamItems(schema), schema]).optional();

// Older feeds put the app itself first among the entries, without rating or author.
const feedEntry = z.object({
  id: label,
  updated: label.optional(),
  title: label.optional(),
  content: label.optional(),
  'im:rating': label.optional(),
  author: z.object({ name: label, uri: label.optional() }).optional(),
});

const customerReviewsFeed = z.object({
  feed: z.object({
    entry: oneOrMany(feedEntry),
    link: oneOrMany(attributesLink),
  }),
});

type FeedEntry = z.infer<typeof feedEntry>;

const pagesMaximum = 10;
const pageSize = 50;
const defaultCountry = 'us';

const appPage = (appId: string, country: string) => `https://apps.apple.com/${country}/app/id${appId}`;

export function createAppStoreConnector(env: NodeJS.ProcessEnv = process.env, options: ConnectorOptions = {}): ReviewConnector {
  const base = upstreamBase('appstore', 'https://itunes.apple.com', env);

  return {
    platform: 'appstore',

    /** `https://apps.apple.com/{cc}/app/{slug}/id{digits}`; the storefront is the link's, else `us` (spec 2.3). */
    sourceFromUrl(link) {
      if (!URL.canParse(link)) return null;
      const url = new URL(link);
      if (!/^(apps|itunes)\.apple\.com$/i.test(url.hostname)) return null;
      const match = /^\/(?:([a-z]{2})\/)?app\/(?:[^/]+\/)?id(\d+)\/?$/i.exec(url.pathname);
      if (!match) return null;
      const country = match[1]?.toLowerCase() ?? defaultCountry;
      return { platform: 'appstore', id: match[2], country, language: null, url: appPage(match[2], country) };
    },

    pageUrl: (source) => appPage(source.id, source.country ?? defaultCountry),

    async reviews(source: ReviewSourceRef, since: Date) {
      const country = source.country ?? defaultCountry;
      const posts: NormalizedPost[] = [];
      for (let page = 1; page <= pagesMaximum; page++) {
        const body = await getUpstreamJson<unknown>({
          platform: 'appstore',
          url: `${base}/${country}/rss/customerreviews/${page > 1 ? `page=${page}/` : ''}id=${encodeURIComponent(source.id)}/sortby=mostrecent/json`,
          ...options.retry,
        });
        const { feed } = parseUpstreamShape('appstore', customerReviewsFeed, body, options.logger);
        const entries = [feed.entry ?? []].flat();
        const reviews = entries.flatMap((entry) => toPost(entry, source.id, country) ?? []);
        posts.push(...reviews.filter((post) => post.publishedAt > since));
        const reachedSince = reviews.some((post) => post.publishedAt <= since);
        // Only the last page is short, so a feed that names no `last` link still ends there.
        const lastOfFeed = entries.length < pageSize || page >= lastPage(feed.link);
        if (reviews.length === 0 || reachedSince || lastOfFeed) break;
      }
      return posts.sort((a, b) => b.publishedAt.getTime() - a.publishedAt.getTime());
    },
  };
}

/** The page number of the feed's `rel="last"` link; the depth limit when it has none. */
function lastPage(links: z.infer<typeof attributesLink> | Array<z.infer<typeof attributesLink>> | undefined): number {
  const last = [links ?? []].flat().find((link) => link.attributes.rel === 'last')?.attributes.href;
  const page = last && /\/page=(\d+)\//.exec(last);
  return page ? Number(page[1]) : pagesMaximum;
}

function toPost(entry: FeedEntry, appId: string, country: string): NormalizedPost | null {
  const rating = entry['im:rating'] && Number(entry['im:rating'].label);
  const publishedAt = new Date(entry.updated?.label ?? NaN);
  if (!entry.author || Number.isNaN(publishedAt.getTime()) || !rating) return null;
  const body = entry.content?.label ?? '';
  const authorUrl = entry.author.uri?.label ?? null;
  const reviewerId = authorUrl && /\/id(\d+)/.exec(authorUrl)?.[1];
  return {
    platform: 'appstore',
    externalId: entry.id.label,
    // Apple gives reviews no address of their own; the fragment keeps each one distinct on the app's review list.
    url: `${appPage(appId, country)}?see-all=reviews#review-${entry.id.label}`,
    ...titledText(entry.title?.label, body),
    publishedAt,
    replyTo: null,
    links: linksInText(body),
    author: {
      platformId: reviewerId || entry.author.name.label,
      name: entry.author.name.label,
      handle: entry.author.name.label,
      url: authorUrl ?? appPage(appId, country),
      avatarUrl: null,
      followers: null,
    },
    rating,
    language: null,
  };
}
