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
  /** Serve the Play Developer API's path (no `hl`/`gl`) instead of the provider contract's. */
  developerApi?: boolean;
}

const seconds = (date: Date) => ({ seconds: String(Math.floor(date.getTime() / 1000)), nanos: (date.getTime() % 1000) * 1_000_000 });

/**
 * One review as the provider contract of googleplay.ts sends it (Developer
 * API `reviews.list` fields). Asked for a `translationLanguage` other than
 * the reviewer's, the Developer API sends a translation as `text` and the
 * review as written as `originalText`.
 */
export function googlePlayReview(review: GooglePlayReviewFixture, translationLanguage?: string | null) {
  const language = review.reviewerLanguage ?? 'en';
  const translated = translationLanguage && translationLanguage !== language.split(/[-_]/)[0];
  return {
    reviewId: review.reviewId,
    authorName: review.authorName,
    comments: [
      {
        userComment: {
          text: translated ? `(${translationLanguage}) ${review.text}` : review.text,
          ...(translated ? { originalText: review.text } : {}),
          lastModified: seconds(review.lastModified),
          starRating: review.starRating,
          reviewerLanguage: language,
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

/**
 * The Google Play reviews provider of googleplay.ts, or with `developerApi`
 * the Developer API's `reviews.list`: token pages, newest first.
 */
export function startFakeGooglePlay(options: GooglePlayFakeOptions): Promise<FakeUpstream> {
  const path = options.developerApi ? /^\/androidpublisher\/v3\/applications\/([^/]+)\/reviews$/ : /^\/v1\/apps\/([^/]+)\/reviews$/;
  return startFakeServer((request) => {
    const match = path.exec(request.path);
    if (request.method !== 'GET' || !match) return null;
    if (options.apiKey && request.headers.authorization !== `Bearer ${options.apiKey}`) {
      return { status: 401, body: { error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } } };
    }
    const { query } = request;
    const maxResults = Number(query.get('maxResults') ?? 10);
    const storefrontMissing = !options.developerApi && (!query.get('hl') || !/^[a-z]{2}$/.test(query.get('gl') ?? ''));
    if (storefrontMissing || !(maxResults >= 1 && maxResults <= 100)) {
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
        reviews: page.map((review) => googlePlayReview(review, options.developerApi ? query.get('translationLanguage') : null)),
        ...(next ? { tokenPagination: { nextPageToken: next } } : {}),
      },
    };
  }, options);
}
