/**
 * Google Maps reviews through Places API (New) Place Details:
 * `GET {base}/v1/places/{placeId}` with `X-Goog-FieldMask: reviews,displayName,googleMapsUri`.
 * Google returns at most five reviews a call, chosen by relevance, with no
 * paging: each poll keeps those newer than `since`.
 *
 * A server that answers 404 or 400 there (one serving only the legacy Places
 * API) is asked the legacy Place Details endpoint instead:
 * `GET {legacyBase}/maps/api/place/details/json?place_id=…&fields=reviews,name,url&reviews_sort=newest`,
 * its `result.reviews[]` carrying `author_name`, `author_url`, `rating`,
 * `text` and `time` (Unix seconds) but no review id: one is made from the
 * place, the author and the time, which a review keeps across polls. A
 * server refusing that too (404, 400) serves neither API and its first
 * refusal is told; any other failure of the legacy read (a 5xx) is told as it is.
 *
 * Source ids (spec 2.3 "Place ID or cid"):
 * - a Place ID (`ChIJ…`), from a bare id, `place_id:` / `query_place_id=` in a
 *   maps link, or derived from the feature id `0x…:0x…` a full maps link
 *   carries (a `ChIJ` Place ID is that pair of numbers, protobuf-encoded);
 * - `cid:{decimal}` for a link that names only a customer id (`?cid=`); a
 *   bare decimal id (written as platform and id) is read the same way. Places
 *   API (New) takes no cid, so before its first read such a source is
 *   resolved to a Place ID with the legacy Place Details endpoint
 *   (`GET {legacyBase}/maps/api/place/details/json?cid=…&fields=place_id`).
 *
 * Environment:
 * - `EARSHOT_UPSTREAM_GOOGLEMAPS`: base address, default `https://places.googleapis.com`.
 * - `EARSHOT_UPSTREAM_GOOGLEMAPS_LEGACY`: base of the legacy Places API for
 *   cid look-ups; default `EARSHOT_UPSTREAM_GOOGLEMAPS` when that is set,
 *   else `https://maps.googleapis.com`.
 * - `EARSHOT_GOOGLE_MAPS_API_KEY`: the API key. Required.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { ConnectorOptions, ReviewConnector, ReviewSourceRef } from './connector.ts';
import { primaryLanguage } from './language-tag.ts';
import type { NormalizedPost } from '../../vocabulary/normalized-post.ts';
import { linksInText } from './post-text.ts';
import { getUpstreamJson, upstreamBase, UpstreamConfigurationError, UpstreamError } from '../../runtime/upstream-http.ts';
import { parseUpstreamShape, upstreamItems, upstreamTimestamp } from './upstream-shape.ts';
import { readWithFallback } from './optional-call.ts';

const localizedText = z.object({ text: z.string(), languageCode: z.string().nullish() });

const placeReview = z.object({
  name: z.string().min(1),
  rating: z.number().min(1).max(5),
  text: localizedText.nullish(),
  originalText: localizedText.nullish(),
  authorAttribution: z.object({
    displayName: z.string(),
    uri: z.string().nullish(),
    photoUri: z.string().nullish(),
  }).nullish(),
  publishTime: upstreamTimestamp,
  googleMapsUri: z.string().nullish(),
});

const placeDetails = z.object({
  displayName: localizedText.nullish(),
  googleMapsUri: z.string().nullish(),
  reviews: upstreamItems(placeReview).optional(),
});

const legacyPlaceDetails = <Result extends z.ZodType>(result: Result) => z.object({
  status: z.string(),
  result: result.optional(),
  error_message: z.string().optional(),
});

const legacyPlaceId = z.object({ place_id: z.string().min(1) });

const legacyReview = z.object({
  author_name: z.string(),
  author_url: z.string().nullish(),
  profile_photo_url: z.string().nullish(),
  rating: z.number().min(1).max(5),
  text: z.string().nullish(),
  time: z.number(),
  language: z.string().nullish(),
  original_language: z.string().nullish(),
});

const legacyPlace = z.object({
  name: z.string().nullish(),
  url: z.string().nullish(),
  reviews: upstreamItems(legacyReview).optional(),
});

type PlaceReview = z.infer<typeof placeReview>;
type LegacyReview = z.infer<typeof legacyReview>;

const placeIdPattern = /^[A-Za-z0-9_-]{16,}$/;
// Alone, without a link to vouch for it, only text that opens like a Place ID's protobuf (field 1, 2, 3 or 4) is taken for one.
const barePlaceIdPattern = /^(?:ChIJ|GhIJ|E[hi]|Ih)[A-Za-z0-9_-]{16,}$/;
const cidPattern = /^(?:cid:)?(\d{1,20})$/;

/** The Place ID of a feature id `0x{high}:0x{cid}`: protobuf fields 1 and 2 as fixed64, base64url. */
export function placeIdFromFeatureId(featureId: string): string | null {
  const match = /^0x([0-9a-f]{1,16}):0x([0-9a-f]{1,16})$/i.exec(featureId);
  if (!match) return null;
  const bytes = Buffer.alloc(20);
  bytes.set([0x0a, 0x12, 0x09]);
  bytes.writeBigUInt64LE(BigInt(`0x${match[1]}`), 3);
  bytes[11] = 0x11;
  bytes.writeBigUInt64LE(BigInt(`0x${match[2]}`), 12);
  return bytes.toString('base64url');
}

function placeIdFromLink(url: URL): string | null {
  const candidates = [
    url.searchParams.get('query_place_id'),
    /(?:^|\s)place_id:([A-Za-z0-9_-]+)/.exec(url.searchParams.get('q') ?? url.searchParams.get('query') ?? '')?.[1],
    /place_id:([A-Za-z0-9_-]+)/.exec(url.pathname.replace(/%3A/gi, ':'))?.[1],
  ];
  const placeId = candidates.find((candidate) => candidate && placeIdPattern.test(candidate));
  if (placeId) return placeId;
  const featureId = url.searchParams.get('ftid') ?? /!1s(0x[0-9a-f]+:0x[0-9a-f]+)/i.exec(url.pathname)?.[1];
  return featureId ? placeIdFromFeatureId(featureId) : null;
}

function isMapsLink(url: URL): boolean {
  const googleHost = /^(?:www\.|maps\.)?google\.[a-z]{2,3}(?:\.[a-z]{2})?$/i.test(url.hostname);
  return googleHost && (url.hostname.startsWith('maps.') || url.pathname === '/maps' || url.pathname.startsWith('/maps/'));
}

const pageOf = (id: string) => {
  const cid = cidPattern.exec(id)?.[1];
  return cid ? `https://maps.google.com/?cid=${cid}` : `https://www.google.com/maps/place/?q=place_id:${id}`;
};

export function createGoogleMapsConnector(env: NodeJS.ProcessEnv = process.env, options: ConnectorOptions = {}): ReviewConnector {
  const base = upstreamBase('googlemaps', 'https://places.googleapis.com', env, '/v1');
  const legacyBase = upstreamBase('googlemaps_legacy', upstreamBase('googlemaps', 'https://maps.googleapis.com', env, '/v1'), env, '/maps/api');
  const apiKey = env.EARSHOT_GOOGLE_MAPS_API_KEY;
  const unconfigured = apiKey ? undefined : new UpstreamConfigurationError('googlemaps', 'EARSHOT_GOOGLE_MAPS_API_KEY', 'the Places API answers only requests with an API key');
  // A cid's Place ID is stable enough to look up once per process.
  const placeIdsByCid = new Map<string, string>();

  function requireKey(): string {
    if (!apiKey) throw unconfigured;
    return apiKey;
  }

  /** Legacy Place Details; any status but OK is the failure `unknown` names. */
  async function legacyDetails<Result extends z.ZodType>(params: Record<string, string>, result: Result, unknown: string): Promise<z.infer<Result>> {
    const url = new URL(`${legacyBase}/maps/api/place/details/json`);
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    url.searchParams.set('key', requireKey());
    const body = await getUpstreamJson<unknown>({ platform: 'googlemaps', url, ...options.retry });
    const answer = parseUpstreamShape('googlemaps', legacyPlaceDetails(result), body, options.logger);
    if (answer.status !== 'OK' || !answer.result) {
      throw new UpstreamError('googlemaps', `${unknown}: ${answer.status}${answer.error_message ? ` (${answer.error_message})` : ''}`);
    }
    return answer.result;
  }

  async function placeIdOfCid(cid: string): Promise<string> {
    const known = placeIdsByCid.get(cid);
    if (known) return known;
    const { place_id: placeId } = await legacyDetails({ cid, fields: 'place_id' }, legacyPlaceId, `cid ${cid} resolves to no place`);
    placeIdsByCid.set(cid, placeId);
    return placeId;
  }

  async function placeReviews(placeId: string, source: ReviewSourceRef): Promise<NormalizedPost[]> {
    const body = await getUpstreamJson<unknown>({
      platform: 'googlemaps',
      url: `${base}/v1/places/${encodeURIComponent(placeId)}`,
      headers: { 'x-goog-api-key': requireKey(), 'x-goog-fieldmask': 'reviews,displayName,googleMapsUri' },
      ...options.retry,
    });
    const place = parseUpstreamShape('googlemaps', placeDetails, body, options.logger);
    const placeUrl = place.googleMapsUri ?? pageOf(source.id);
    return (place.reviews ?? []).map((review) => toPost(review, placeUrl));
  }

  async function legacyPlaceReviews(placeId: string, source: ReviewSourceRef): Promise<NormalizedPost[]> {
    const params: Record<string, string> = { place_id: placeId, fields: 'reviews,name,url', reviews_sort: 'newest', reviews_no_translations: 'true' };
    if (source.language) params.language = source.language;
    const place = await legacyDetails(params, legacyPlace, `place ${placeId} is unknown`);
    const placeUrl = place.url ?? pageOf(source.id);
    return (place.reviews ?? []).map((review) => legacyToPost(review, placeId, placeUrl));
  }

  return {
    platform: 'googlemaps',
    unconfigured,

    /** A bare Place ID, a maps link naming one (`place_id:`, `query_place_id=`, a feature id), or a `cid` link. */
    sourceFromUrl(link) {
      const bare = link.trim();
      const source = (id: string) => ({ platform: 'googlemaps' as const, id, country: null, language: null, url: pageOf(id) });
      if (barePlaceIdPattern.test(bare)) return source(bare);
      if (!URL.canParse(bare)) return null;
      const url = new URL(bare);
      if (!isMapsLink(url)) return null;
      const placeId = placeIdFromLink(url);
      if (placeId) return source(placeId);
      const cid = url.searchParams.get('cid');
      return cid && /^\d{1,20}$/.test(cid) ? source(`cid:${cid}`) : null;
    },

    pageUrl: (source) => pageOf(source.id),

    async reviews(source: ReviewSourceRef, since: Date) {
      requireKey();
      const cid = cidPattern.exec(source.id)?.[1];
      const placeId = cid ? await placeIdOfCid(cid) : source.id;
      const posts = await readWithFallback(() => placeReviews(placeId, source), () => legacyPlaceReviews(placeId, source), [404, 400]);
      return posts
        .filter((post) => post.publishedAt > since)
        .sort((a, b) => b.publishedAt.getTime() - a.publishedAt.getTime());
    },
  };
}

function toPost(review: PlaceReview, placeUrl: string): NormalizedPost {
  // `text` may be a translation; the review as written is `originalText`.
  const written = review.originalText ?? review.text;
  const body = written?.text ?? '';
  const author = review.authorAttribution;
  const name = author?.displayName ?? 'A Google user';
  const contributorId = author?.uri && /\/contrib\/(\d+)/.exec(author.uri)?.[1];
  return {
    platform: 'googlemaps',
    externalId: review.name,
    url: review.googleMapsUri ?? placeUrl,
    text: body.trim(),
    publishedAt: new Date(review.publishTime),
    replyTo: null,
    links: linksInText(body),
    author: {
      platformId: contributorId || author?.uri || name,
      name,
      handle: name,
      url: author?.uri ?? placeUrl,
      avatarUrl: author?.photoUri ?? null,
      followers: null,
    },
    rating: review.rating,
    language: primaryLanguage(written?.languageCode),
  };
}

/** A legacy review has no id: the place, the author and the second it was written name it. */
function legacyToPost(review: LegacyReview, placeId: string, placeUrl: string): NormalizedPost {
  const body = review.text ?? '';
  const author = review.author_url || review.author_name;
  const contributorId = review.author_url && /\/contrib\/(\d+)/.exec(review.author_url)?.[1];
  const reviewId = createHash('sha256').update(`${placeId}\n${author}\n${review.time}`).digest('base64url').slice(0, 27);
  return {
    platform: 'googlemaps',
    externalId: `places/${placeId}/reviews/${reviewId}`,
    url: placeUrl,
    text: body.trim(),
    publishedAt: new Date(review.time * 1000),
    replyTo: null,
    links: linksInText(body),
    author: {
      platformId: contributorId || author,
      name: review.author_name,
      handle: review.author_name,
      url: review.author_url ?? placeUrl,
      avatarUrl: review.profile_photo_url ?? null,
      followers: null,
    },
    rating: review.rating,
    language: primaryLanguage(review.original_language ?? review.language),
  };
}
