import { type FakeServerOptions, type FakeUpstream, startFakeServer } from './fake-server.ts';

export interface TrustpilotReviewFixture {
  id: string;
  consumerId: string;
  consumerName: string;
  stars: number;
  title: string;
  text: string;
  language?: string;
  createdAt: Date;
}

export interface TrustpilotBusinessFixture {
  id: string;
  domain: string;
  displayName: string;
  reviews: TrustpilotReviewFixture[];
}

export interface TrustpilotFakeOptions extends FakeServerOptions {
  businesses: TrustpilotBusinessFixture[];
  /** The `apikey` header every request must carry. */
  apiKey: string;
}

const apiBase = 'https://api.trustpilot.com';

/** One review of `GET /v1/business-units/{id}/reviews`, with the fields Trustpilot sends. */
export function trustpilotReview(review: TrustpilotReviewFixture, business: TrustpilotBusinessFixture) {
  return {
    links: [{ href: `${apiBase}/v1/reviews/${review.id}`, method: 'GET', rel: 'reviews' }],
    id: review.id,
    consumer: {
      links: [{ href: `${apiBase}/v1/consumers/${review.consumerId}`, method: 'GET', rel: 'consumers' }],
      id: review.consumerId,
      displayName: review.consumerName,
      displayLocation: 'London, GB',
      numberOfReviews: 4,
    },
    businessUnit: {
      links: [{ href: `${apiBase}/v1/business-units/${business.id}`, method: 'GET', rel: 'business-units' }],
      id: business.id,
      identifyingName: business.domain,
      displayName: business.displayName,
    },
    location: null,
    stars: review.stars,
    title: review.title,
    text: review.text,
    language: review.language ?? 'en',
    createdAt: review.createdAt.toISOString(),
    experiencedAt: review.createdAt.toISOString(),
    updatedAt: null,
    companyReply: null,
    isVerified: false,
    source: 'Organic',
    numberOfLikes: 0,
    status: 'active',
    reportData: null,
    complianceLabels: [],
    countsTowardsTrustScore: true,
    countsTowardsLocationTrustScore: null,
    invitation: null,
    businessUnitHistory: [],
    reviewVerificationLevel: 'not-verified',
  };
}

/**
 * The Trustpilot API's business-unit lookup by domain and review listing:
 * `perPage` 1 to 100, `orderBy` `createdat.desc` or `createdat.asc`, a
 * `next-page` link while more pages exist; 401 without the API key.
 */
export function startFakeTrustpilot(options: TrustpilotFakeOptions): Promise<FakeUpstream> {
  return startFakeServer((request) => {
    if (request.method !== 'GET') return null;
    if (request.headers.apikey !== options.apiKey) {
      return { status: 401, body: { fault: { faultstring: 'Invalid ApiKey', detail: { errorcode: 'oauth.v2.InvalidApiKey' } } } };
    }
    if (request.path === '/v1/business-units/find') {
      const name = request.query.get('name')?.toLowerCase();
      const business = options.businesses.find((candidate) => candidate.domain === name);
      if (!business) return { status: 404, body: { message: 'Not found', errorCode: 0 } };
      return {
        body: {
          links: [{ href: `${apiBase}/v1/business-units/${business.id}`, method: 'GET', rel: 'self' }],
          id: business.id,
          displayName: business.displayName,
          name: { identifying: business.domain, referring: [business.domain, `www.${business.domain}`] },
        },
      };
    }
    const reviewsPath = /^\/v1\/business-units\/([^/]+)\/reviews$/.exec(request.path);
    if (!reviewsPath) return null;
    const business = options.businesses.find((candidate) => candidate.id === reviewsPath[1]);
    if (!business) return { status: 404, body: { message: 'Not found', errorCode: 0 } };
    const perPage = Number(request.query.get('perPage') ?? 20);
    const page = Number(request.query.get('page') ?? 1);
    const orderBy = request.query.get('orderBy') ?? 'createdat.desc';
    if (!(perPage >= 1 && perPage <= 100) || !(page >= 1) || !['createdat.desc', 'createdat.asc'].includes(orderBy)) {
      return { status: 400, body: { message: 'Invalid query parameters', errorCode: 0 } };
    }
    const ordered = [...business.reviews].sort((a, b) => (b.createdAt.getTime() - a.createdAt.getTime()) * (orderBy === 'createdat.desc' ? 1 : -1));
    const pageReviews = ordered.slice((page - 1) * perPage, page * perPage);
    const pageLink = (number: number, rel: string) => ({
      href: `${apiBase}/v1/business-units/${business.id}/reviews?page=${number}&perPage=${perPage}&orderBy=${orderBy}`, method: 'GET', rel,
    });
    return {
      body: {
        links: [
          ...(page > 1 ? [pageLink(page - 1, 'prev-page')] : []),
          ...(page * perPage < ordered.length ? [pageLink(page + 1, 'next-page')] : []),
        ],
        reviews: pageReviews.map((review) => trustpilotReview(review, business)),
      },
    };
  }, options);
}
