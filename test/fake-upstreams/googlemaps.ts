import { type FakeServerOptions, type FakeUpstream, startFakeServer } from './fake-server.ts';

export interface PlaceReviewFixture {
  /** The review's id within the place (last segment of its resource name). */
  id: string;
  rating: number;
  text: string;
  languageCode?: string;
  /** When set, `text` is a translation and this is the review as written. */
  originalText?: { text: string; languageCode: string };
  authorName: string;
  /** Numeric id of the contributor's profile. */
  contributorId: string;
  photoUri?: string;
  publishTime: Date;
}

export interface PlaceFixture {
  placeId: string;
  /** The customer id Google Maps links name with `?cid=`. */
  cid: string;
  displayName: string;
  reviews: PlaceReviewFixture[];
}

export interface GoogleMapsFakeOptions extends FakeServerOptions {
  places: PlaceFixture[];
  apiKey: string;
  /** Serve only the legacy Places API, as a server predating Places API (New) does. */
  legacyOnly?: boolean;
}

const relativeTime = (date: Date) => `${Math.max(1, Math.round((Date.now() - date.getTime()) / 86_400_000))} days ago`;

/** A `reviews[]` item of Place Details (New). */
export function placeReview(place: PlaceFixture, review: PlaceReviewFixture) {
  const contributor = `https://www.google.com/maps/contrib/${review.contributorId}/reviews`;
  const text = { text: review.text, languageCode: review.languageCode ?? 'en' };
  return {
    name: `places/${place.placeId}/reviews/${review.id}`,
    relativePublishTimeDescription: relativeTime(review.publishTime),
    rating: review.rating,
    text,
    originalText: review.originalText ?? text,
    authorAttribution: {
      displayName: review.authorName,
      uri: contributor,
      photoUri: review.photoUri ?? `https://lh3.googleusercontent.com/a-/ALV-UjX${review.contributorId}=s128-c0x00000000-cc-rp-mo`,
    },
    // Google writes microseconds.
    publishTime: review.publishTime.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z'),
    flagContentUri: `https://www.google.com/local/review/rap/report?postId=${review.id}`,
    googleMapsUri: `https://www.google.com/maps/reviews/data=!4m6!14m5!1m4!2m3!1s${review.id}!2m1!1s0x0:0x${BigInt(place.cid).toString(16)}`,
  };
}

/** A `result.reviews[]` item of legacy Place Details, as written (`reviews_no_translations=true`). */
export function legacyPlaceReview(review: PlaceReviewFixture) {
  const written = review.originalText ?? { text: review.text, languageCode: review.languageCode ?? 'en' };
  return {
    author_name: review.authorName,
    author_url: `https://www.google.com/maps/contrib/${review.contributorId}/reviews`,
    language: written.languageCode,
    original_language: written.languageCode,
    profile_photo_url: review.photoUri ?? `https://lh3.googleusercontent.com/a-/ALV-UjX${review.contributorId}=s128-c0x00000000-cc-rp-mo`,
    rating: review.rating,
    relative_time_description: relativeTime(review.publishTime),
    text: written.text,
    time: Math.floor(review.publishTime.getTime() / 1000),
    translated: false,
  };
}

const googleError = (code: number, status: string, message: string) => ({ status: code, body: { error: { code, message, status } } });

/**
 * Places API (New) Place Details, answering only the fields of the
 * `X-Goog-FieldMask` (which the real API requires), and the legacy Place
 * Details JSON endpoint: a `cid` look-up, or a `place_id`'s reviews (at
 * most five, newest first under `reviews_sort=newest`), both keyed.
 */
export function startFakeGoogleMaps(options: GoogleMapsFakeOptions): Promise<FakeUpstream> {
  return startFakeServer((request) => {
    if (request.method !== 'GET') return null;
    if (request.path === '/maps/api/place/details/json') {
      if (request.query.get('key') !== options.apiKey) {
        return { body: { error_message: 'The provided API key is invalid.', html_attributions: [], status: 'REQUEST_DENIED' } };
      }
      const placeId = request.query.get('place_id');
      const place = options.places.find((candidate) => (placeId ? candidate.placeId === placeId : candidate.cid === request.query.get('cid')));
      if (!place) return { body: { html_attributions: [], status: 'NOT_FOUND' } };
      if (!placeId) return { body: { html_attributions: [], result: { place_id: place.placeId }, status: 'OK' } };
      const order = request.query.get('reviews_sort') === 'newest'
        ? (a: PlaceReviewFixture, b: PlaceReviewFixture) => b.publishTime.getTime() - a.publishTime.getTime()
        : (a: PlaceReviewFixture, b: PlaceReviewFixture) => b.rating - a.rating;
      const fields: Record<string, unknown> = {
        name: place.displayName,
        url: `https://maps.google.com/?cid=${place.cid}`,
        reviews: [...place.reviews].sort(order).slice(0, 5).map(legacyPlaceReview),
      };
      const wanted = (request.query.get('fields') ?? '').split(',');
      return { body: { html_attributions: [], result: Object.fromEntries(Object.entries(fields).filter(([field]) => wanted.includes(field))), status: 'OK' } };
    }
    const details = /^\/v1\/places\/([^/]+)$/.exec(request.path);
    if (!details || options.legacyOnly) return null;
    if (request.headers['x-goog-api-key'] !== options.apiKey) {
      return googleError(403, 'PERMISSION_DENIED', 'The caller does not have permission');
    }
    const mask = String(request.headers['x-goog-fieldmask'] ?? '').split(',').map((field) => field.trim()).filter(Boolean);
    if (!mask.length) return googleError(400, 'INVALID_ARGUMENT', 'FieldMask is a required parameter. See https://cloud.google.com/apis/docs/system-parameters on how to provide it.');
    const place = options.places.find((candidate) => candidate.placeId === decodeURIComponent(details[1]));
    if (!place) return googleError(404, 'NOT_FOUND', `Place '${details[1]}' not found.`);
    const fields: Record<string, unknown> = {
      displayName: { text: place.displayName, languageCode: 'en' },
      googleMapsUri: `https://maps.google.com/?cid=${place.cid}`,
      // Google sends at most five, most relevant first, not newest first.
      reviews: [...place.reviews].sort((a, b) => b.rating - a.rating).slice(0, 5).map((review) => placeReview(place, review)),
    };
    const wanted = mask.includes('*') ? Object.keys(fields) : mask;
    return { body: Object.fromEntries(Object.entries(fields).filter(([field]) => wanted.includes(field))) };
  }, options);
}
