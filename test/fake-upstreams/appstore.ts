import { type FakeServerOptions, type FakeUpstream, pageOf, startFakeServer } from './fake-server.ts';

export interface AppStoreReviewFixture {
  id: string;
  authorName: string;
  authorId: string;
  title: string;
  content: string;
  rating: number;
  updated: Date;
  version?: string;
}

/** Reviews per app id, then per lowercase storefront. */
export type AppStoreFixtures = Record<string, Record<string, AppStoreReviewFixture[]>>;

const reviewsPerPage = 50;
const pageDepth = 10;

/** Apple writes times in the storefront's Pacific offset. */
function pacificTime(date: Date): string {
  return new Date(date.getTime() - 7 * 3600_000).toISOString().replace(/\.\d{3}Z$/, '-07:00');
}

/** One `entry` of the customer-reviews JSON feed, as Apple sends it. */
export function appStoreEntry(review: AppStoreReviewFixture, appId: string, country: string) {
  return {
    author: {
      uri: { label: `https://itunes.apple.com/${country}/reviews/id${review.authorId}` },
      name: { label: review.authorName },
      label: '',
    },
    updated: { label: pacificTime(review.updated) },
    'im:rating': { label: String(review.rating) },
    'im:version': { label: review.version ?? '4.2.1' },
    id: { label: review.id },
    title: { label: review.title },
    content: { label: review.content, attributes: { type: 'text' } },
    link: { attributes: { rel: 'related', href: `https://itunes.apple.com/${country}/review?id=${appId}&type=Purple%20Software` } },
    'im:voteSum': { label: '0' },
    'im:contentType': { attributes: { term: 'Application', label: 'Application' } },
    'im:voteCount': { label: '0' },
  };
}

function feedLink(country: string, appId: string, page: number, rel: string) {
  return { attributes: { rel, href: `https://itunes.apple.com/${country}/rss/customerreviews/page=${page}/id=${appId}/sortby=mostrecent/xml?urlDesc=/customerreviews/id=${appId}/sortby=mostrecent/json` } };
}

/**
 * Apple's customer-reviews feed: 50 reviews a page, newest first, at most 10
 * pages (deeper pages answer 400 as Apple does); an address without
 * `page={n}/` is the first page, as at Apple. A single review comes as an
 * object rather than a one-item array, and an app without reviews has no
 * `entry` at all, as in the real feed.
 */
export function startFakeAppStore(fixtures: AppStoreFixtures, options: FakeServerOptions = {}): Promise<FakeUpstream> {
  return startFakeServer((request) => {
    const match = /^\/([a-z]{2})\/rss\/customerreviews\/(?:page=(\d+)\/)?id=(\d+)\/sortby=mostrecent\/json$/.exec(request.path);
    if (request.method !== 'GET' || !match) return null;
    const [, country, pageText, appId] = match;
    const page = Number(pageText ?? 1);
    if (page < 1 || page > pageDepth) {
      return { status: 400, headers: { 'content-type': 'text/plain' }, body: 'CustomerReviews RSS page depth is limited to 10' };
    }
    const reviews = [...(fixtures[appId]?.[country] ?? [])].sort((a, b) => b.updated.getTime() - a.updated.getTime());
    const lastPage = Math.min(pageDepth, Math.max(1, Math.ceil(reviews.length / reviewsPerPage)));
    const entries = pageOf(reviews, page - 1, reviewsPerPage).map((review) => appStoreEntry(review, appId, country));
    return {
      body: {
        feed: {
          author: { name: { label: 'iTunes Store' }, uri: { label: 'http://www.apple.com/us/itunes/' } },
          ...(entries.length === 1 ? { entry: entries[0] } : entries.length ? { entry: entries } : {}),
          updated: { label: pacificTime(new Date()) },
          rights: { label: 'Copyright 2008 Apple Inc.' },
          title: { label: 'iTunes Store: Customer Reviews' },
          icon: { label: 'http://itunes.apple.com/favicon.ico' },
          link: [
            { attributes: { rel: 'alternate', type: 'text/html', href: `https://apps.apple.com/WebObjects/MZStore.woa/wa/viewGrouping?cc=${country}&id=38` } },
            { attributes: { rel: 'self', href: `https://itunes.apple.com/${country}/rss/customerreviews/page=${page}/id=${appId}/sortby=mostrecent/json` } },
            feedLink(country, appId, 1, 'first'),
            feedLink(country, appId, lastPage, 'last'),
            feedLink(country, appId, Math.max(1, page - 1), 'previous'),
            feedLink(country, appId, Math.min(lastPage, page + 1), 'next'),
          ],
          id: { label: `https://mzstoreservices-int-st.itunes.apple.com/${country}/rss/customerreviews/page=${page}/id=${appId}/sortby=mostrecent/json` },
        },
      },
    };
  }, options);
}
