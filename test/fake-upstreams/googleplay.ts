import { type FakeServerOptions, type FakeUpstream, startFakeServer } from './fake-server.ts';

export interface GooglePlayReviewFixture {
  reviewId: string;
  authorName: string;
  /** As the Developer API writes it: a separate title comes first, joined by a tab. */
  text: string;
  starRating: number;
  lastModified: Date;
  reviewerLanguage?: string;
  developerReply?: { text: string; lastModified: Date };
}

export interface GooglePlayFakeOptions extends FakeServerOptions {
  /** Reviews per package name. */
  apps: Record<string, GooglePlayReviewFixture[]>;
  /** Reviews per page whatever `maxResults` asks; the provider decides, as the Developer API does. */
  pageSize?: number;
  /** When set, requests must carry `Authorization: Bearer {apiKey}`. */
  apiKey?: string;
}

const seconds = (date: Date) => ({ seconds: String(Math.floor(date.getTime() / 1000)), nanos: (date.getTime() % 1000) * 1_000_000 });

/** One review as the provider contract of googleplay.ts sends it (Developer API `reviews.list` fields). */
export function googlePlayReview(review: GooglePlayReviewFixture) {
  return {
    reviewId: review.reviewId,
    authorName: review.authorName,
    comments: [
      {
        userComment: {
          text: review.text,
          lastModified: seconds(review.lastModified),
          starRating: review.starRating,
          reviewerLanguage: review.reviewerLanguage ?? 'en',
          device: 'a52sxq',
          androidOsVersion: 34,
          appVersionCode: 4021,
          appVersionName: '4.2.1',
          thumbsUpCount: 3,
          thumbsDownCount: 0,
          deviceMetadata: { productName: 'a52sxq (Galaxy A52s 5G)', manufacturer: 'Samsung', deviceClass: 'FORM_FACTOR_PHONE', screenWidthPx: 1080, screenHeightPx: 2400, nativePlatform: 'ABI_ARM64_V8,ABI_ARM_V7,ABI_ARM', screenDensityDpi: 450, glEsVersion: 196610, ramMb: 5524 },
        },
      },
      ...(review.developerReply ? [{ developerComment: { text: review.developerReply.text, lastModified: seconds(review.developerReply.lastModified) } }] : []),
    ],
  };
}

/** The Google Play reviews provider of googleplay.ts: token pages, newest first. */
export function startFakeGooglePlay(options: GooglePlayFakeOptions): Promise<FakeUpstream> {
  return startFakeServer((request) => {
    const match = /^\/v1\/apps\/([^/]+)\/reviews$/.exec(request.path);
    if (request.method !== 'GET' || !match) return null;
    if (options.apiKey && request.headers.authorization !== `Bearer ${options.apiKey}`) {
      return { status: 401, body: { error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } } };
    }
    const { query } = request;
    const maxResults = Number(query.get('maxResults') ?? 10);
    if (!query.get('hl') || !/^[a-z]{2}$/.test(query.get('gl') ?? '') || !(maxResults >= 1 && maxResults <= 100)) {
      return { status: 400, body: { error: { code: 400, message: 'hl, a two-letter gl and maxResults 1 to 100 are required', status: 'INVALID_ARGUMENT' } } };
    }
    const reviews = options.apps[decodeURIComponent(match[1])];
    if (!reviews) return { status: 404, body: { error: { code: 404, message: 'No application was found for the given package name.', status: 'NOT_FOUND' } } };
    const size = Math.min(maxResults, options.pageSize ?? maxResults);
    const start = Number(query.get('token') ?? 0);
    const newestFirst = [...reviews].sort((a, b) => b.lastModified.getTime() - a.lastModified.getTime());
    const page = newestFirst.slice(start, start + size);
    const next = start + size < newestFirst.length ? String(start + size) : null;
    return {
      body: {
        reviews: page.map(googlePlayReview),
        ...(next ? { tokenPagination: { nextPageToken: next } } : {}),
      },
    };
  }, options);
}
