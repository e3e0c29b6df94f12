/**
 * Google Play reviews through a REVIEWS PROVIDER. Google offers no public
 * reviews API (the Play Developer API reads only the caller's own apps), so
 * this speaks an Earshot provider contract whose response is modelled on the
 * Developer API's `reviews.list`:
 *
 *   GET {base}/v1/apps/{packageName}/reviews?hl={language}&gl={country}&maxResults=100[&token={token}]
 *   Authorization: Bearer {EARSHOT_GOOGLEPLAY_API_KEY}   (sent when set)
 *
 *   200 {
 *     "reviews": [{
 *       "reviewId": "gp:AOqpTOH…",
 *       "authorName": "Jane Doe",
 *       "comments": [
 *         { "userComment": { "text": "title\tbody", "starRating": 4,
 *                            "lastModified": { "seconds": "1714554842", "nanos": 0 },
 *                            "reviewerLanguage": "en" } },
 *         { "developerComment": { "text": "…", "lastModified": { "seconds": "…" } } }
 *       ]
 *     }],
 *     "tokenPagination": { "nextPageToken": "…" }       absent on the last page
 *   }
 *
 * Reviews come newest first (by `lastModified`). As in the Developer API, a
 * review written with a separate title has title and body joined by a tab.
 *
 * A server that answers 404 there is asked the Developer API's own path,
 * `GET {base}/androidpublisher/v3/applications/{packageName}/reviews?maxResults=100[&token=…]&translationLanguage={language}`,
 * which has no storefront; a translated review keeps its words as written in
 * `userComment.originalText`.
 *
 * Environment:
 * - `EARSHOT_UPSTREAM_GOOGLEPLAY`: the provider's base address. Required;
 *   without it `reviews` fails with `UpstreamConfigurationError`.
 * - `EARSHOT_GOOGLEPLAY_API_KEY`: bearer token for the provider, optional.
 */
import { z } from 'zod';
import type { ConnectorOptions, ReviewConnector, ReviewSourceRef } from './connector.ts';
import { primaryLanguage } from './language-tag.ts';
import type { NormalizedPost } from '../../vocabulary/normalized-post.ts';
import { titledText, linksInText } from './post-text.ts';
import { getUpstreamJson, UpstreamConfigurationError } from '../../runtime/upstream-http.ts';
import { parseUpstreamShape, upstreamItems } from './upstream-shape.ts';
import { readWithFallback } from './optional-call.ts';

const timestamp = z.object({ seconds: z.union([z.string().regex(/^\d+$/), z.number().int()]).transform(Number) });

const playReview = z.object({
  reviewId: z.string().min(1),
  authorName: z.string().nullish(),
  comments: z.array(z.object({
    userComment: z.object({
      text: z.string(),
      originalText: z.string().nullish(),
      starRating: z.number().int().min(1).max(5),
      lastModified: timestamp,
      reviewerLanguage: z.string().nullish(),
    }).optional(),
  })),
});

const reviewsPage = z.object({
  reviews: upstreamItems(playReview).optional(),
  tokenPagination: z.object({ nextPageToken: z.string().nullish() }).optional(),
});

type PlayReview = z.infer<typeof playReview>;
type ReviewsPage = z.infer<typeof reviewsPage>;

/** The provider contract, or the Developer API's `reviews.list` answering the same shape. */
type ReviewsApi = 'provider' | 'developer';

const pagesMaximum = 20;
const defaultLanguage = 'en';
const defaultCountry = 'us';

function appPage(packageName: string, language: string, country: string): URL {
  const url = new URL('https://play.google.com/store/apps/details');
  url.searchParams.set('id', packageName);
  url.searchParams.set('hl', language);
  url.searchParams.set('gl', country);
  return url;
}

export function createGooglePlayConnector(env: NodeJS.ProcessEnv = process.env, options: ConnectorOptions = {}): ReviewConnector {
  const base = env.EARSHOT_UPSTREAM_GOOGLEPLAY?.replace(/\/+$/, '');
  const apiKey = env.EARSHOT_GOOGLEPLAY_API_KEY;
  const unconfigured = base
    ? undefined
    : new UpstreamConfigurationError('googleplay', 'EARSHOT_UPSTREAM_GOOGLEPLAY', 'Google Play has no public reviews API; point it at a reviews provider that answers the contract in jobs/connectors/googleplay.ts');

  return {
    platform: 'googleplay',
    unconfigured,

    /** `https://play.google.com/store/apps/details?id=pkg&hl=xx&gl=yy`; language the link's `hl` else `en`, country its `gl` else `us` (spec 2.3). */
    sourceFromUrl(link) {
      if (!URL.canParse(link)) return null;
      const url = new URL(link);
      const packageName = url.searchParams.get('id');
      if (url.hostname !== 'play.google.com' || url.pathname.replace(/\/+$/, '') !== '/store/apps/details' || !packageName) return null;
      if (!/^[A-Za-z][\w]*(\.[A-Za-z_][\w]*)+$/.test(packageName)) return null;
      const hl = url.searchParams.get('hl')?.trim();
      const gl = url.searchParams.get('gl')?.trim().toLowerCase();
      const language = hl && hl.length >= 2 && hl.length <= 10 ? hl : defaultLanguage;
      const country = gl && /^[a-z]{2}$/.test(gl) ? gl : defaultCountry;
      return { platform: 'googleplay', id: packageName, country, language, url: appPage(packageName, language, country).href };
    },

    pageUrl: (source) => appPage(source.id, source.language ?? defaultLanguage, source.country ?? defaultCountry).href,

    async reviews(source: ReviewSourceRef, since: Date) {
      if (!base) throw unconfigured;
      const language = source.language ?? defaultLanguage;
      const country = source.country ?? defaultCountry;

      async function readPage(api: ReviewsApi, token: string | null): Promise<ReviewsPage> {
        const url = api === 'provider'
          ? new URL(`${base}/v1/apps/${encodeURIComponent(source.id)}/reviews`)
          : new URL(`${base}/androidpublisher/v3/applications/${encodeURIComponent(source.id)}/reviews`);
        if (api === 'provider') {
          url.searchParams.set('hl', language);
          url.searchParams.set('gl', country);
        }
        url.searchParams.set('maxResults', '100');
        if (token) url.searchParams.set('token', token);
        if (api === 'developer') url.searchParams.set('translationLanguage', language);
        const body = await getUpstreamJson<unknown>({
          platform: 'googleplay',
          url,
          headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
          ...options.retry,
        });
        return parseUpstreamShape('googleplay', reviewsPage, body, options.logger);
      }

      // Decided per call, not for good: a provider also answers 404 for a package it does not know.
      let api: ReviewsApi = 'provider';
      const firstPage = await readWithFallback(
        () => readPage(api, null),
        () => {
          api = 'developer';
          return readPage(api, null);
        },
        [404],
      );
      const posts: NormalizedPost[] = [];
      let token: string | null = null;
      for (let page = 1; page <= pagesMaximum; page++) {
        const result: ReviewsPage = page === 1 ? firstPage : await readPage(api, token);
        const reviews = (result.reviews ?? []).flatMap((review) => toPost(review, source.id, language, country) ?? []);
        posts.push(...reviews.filter((post) => post.publishedAt > since));
        token = result.tokenPagination?.nextPageToken ?? null;
        if (!token || reviews.some((post) => post.publishedAt <= since)) break;
      }
      return posts.sort((a, b) => b.publishedAt.getTime() - a.publishedAt.getTime());
    },
  };
}

function toPost(review: PlayReview, packageName: string, language: string, country: string): NormalizedPost | null {
  const comment = review.comments.find((entry) => entry.userComment)?.userComment;
  if (!comment) return null;
  // Asked for a translation, the Developer API keeps the words as written in `originalText`.
  const written = comment.originalText ?? comment.text;
  const tab = written.indexOf('\t');
  const title = tab >= 0 ? written.slice(0, tab) : null;
  const body = written.slice(tab + 1);
  const reviewUrl = appPage(packageName, language, country);
  reviewUrl.searchParams.set('reviewId', review.reviewId);
  // Play shows no reviewer profiles or ids; the display name is all there is.
  const name = review.authorName?.trim() || 'A Google user';
  return {
    platform: 'googleplay',
    externalId: review.reviewId,
    url: reviewUrl.href,
    ...titledText(title, body),
    publishedAt: new Date(comment.lastModified.seconds * 1000),
    replyTo: null,
    links: linksInText(written),
    author: { platformId: name, name, handle: name, url: reviewUrl.href, avatarUrl: null, followers: null },
    rating: comment.starRating,
    language: primaryLanguage(comment.reviewerLanguage),
  };
}
