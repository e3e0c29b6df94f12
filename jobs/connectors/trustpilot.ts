/**
 * Trustpilot reviews through the Trustpilot API: the company's business unit
 * is found by domain (`GET {base}/v1/business-units/find?name={domain}`), then
 * its reviews are read newest first
 * (`GET {base}/v1/business-units/{id}/reviews?orderBy=createdat.desc&perPage=100&page={n}`).
 *
 * Environment:
 * - `EARSHOT_UPSTREAM_TRUSTPILOT`: base address, default `https://api.trustpilot.com`.
 * - `EARSHOT_TRUSTPILOT_API_KEY`: the API key (sent as the `apikey` header). Required.
 */
import { z } from 'zod';
import type { ConnectorOptions, ReviewConnector, ReviewSourceRef } from './connector.ts';
import { primaryLanguage } from './language-tag.ts';
import type { NormalizedPost } from '../../vocabulary/normalized-post.ts';
import { titledText, linksInText } from './post-text.ts';
import { getUpstreamJson, upstreamBase, UpstreamConfigurationError, UpstreamError } from '../../runtime/upstream-http.ts';
import { parseUpstreamShape, upstreamItems, upstreamTimestamp } from './upstream-shape.ts';

const businessUnit = z.object({ id: z.string().min(1) });

const trustpilotReview = z.object({
  id: z.string().min(1),
  consumer: z.object({ id: z.string().min(1), displayName: z.string() }),
  stars: z.number().int().min(1).max(5),
  title: z.string().nullish(),
  text: z.string().nullish(),
  language: z.string().nullish(),
  createdAt: upstreamTimestamp,
});

const reviewsPage = z.object({
  reviews: upstreamItems(trustpilotReview),
  links: z.array(z.object({ rel: z.string() })).optional(),
});

type TrustpilotReview = z.infer<typeof trustpilotReview>;

const pageSize = 100;
const pagesMaximum = 50;

const reviewPage = (domain: string) => `https://www.trustpilot.com/review/${domain}`;

export function createTrustpilotConnector(env: NodeJS.ProcessEnv = process.env, options: ConnectorOptions = {}): ReviewConnector {
  const base = upstreamBase('trustpilot', 'https://api.trustpilot.com', env, '/v1');
  const apiKey = env.EARSHOT_TRUSTPILOT_API_KEY;
  const unconfigured = apiKey ? undefined : new UpstreamConfigurationError('trustpilot', 'EARSHOT_TRUSTPILOT_API_KEY', 'the Trustpilot API answers only requests with an API key');
  // A domain's business unit does not change; finding it once per process saves a call per poll.
  const businessUnitIds = new Map<string, string>();

  const getJson = (url: URL) => {
    if (!apiKey) throw unconfigured;
    return getUpstreamJson<unknown>({ platform: 'trustpilot', url, headers: { apikey: apiKey }, ...options.retry });
  };

  async function businessUnitId(domain: string): Promise<string> {
    const known = businessUnitIds.get(domain);
    if (known) return known;
    const url = new URL(`${base}/v1/business-units/find`);
    url.searchParams.set('name', domain);
    let body: unknown;
    try {
      body = await getJson(url);
    } catch (error) {
      if (error instanceof UpstreamError && error.status === 404) {
        throw new UpstreamError('trustpilot', `no Trustpilot business unit for ${domain}`, 404);
      }
      throw error;
    }
    const { id } = parseUpstreamShape('trustpilot', businessUnit, body);
    businessUnitIds.set(domain, id);
    return id;
  }

  return {
    platform: 'trustpilot',
    unconfigured,

    /** `https://www.trustpilot.com/review/{domain}`, on any country subdomain (`uk.trustpilot.com`). */
    sourceFromUrl(link) {
      if (!URL.canParse(link)) return null;
      const url = new URL(link);
      if (!/^(?:[a-z]{2,3}\.|www\.)?trustpilot\.com$/i.test(url.hostname)) return null;
      const match = /^\/review\/([^/]+)\/?$/.exec(url.pathname);
      const domain = match && decodeURIComponent(match[1]).toLowerCase();
      if (!domain || !/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(domain)) return null;
      return { platform: 'trustpilot', id: domain, country: null, language: null, url: reviewPage(domain) };
    },

    pageUrl: (source) => reviewPage(source.id),

    async reviews(source: ReviewSourceRef, since: Date) {
      const unitId = await businessUnitId(source.id.toLowerCase());
      const posts: NormalizedPost[] = [];
      for (let page = 1; page <= pagesMaximum; page++) {
        const url = new URL(`${base}/v1/business-units/${encodeURIComponent(unitId)}/reviews`);
        url.searchParams.set('orderBy', 'createdat.desc');
        url.searchParams.set('perPage', String(pageSize));
        url.searchParams.set('page', String(page));
        const result = parseUpstreamShape('trustpilot', reviewsPage, await getJson(url), options.logger);
        const reviews = result.reviews.map(toPost);
        posts.push(...reviews.filter((post) => post.publishedAt > since));
        // Trustpilot's reference shows page links only as placeholders; a full page is as sure a sign
        // of more, and a page past the last answers an empty list.
        const hasNextPage = result.links?.some((link) => link.rel === 'next-page') || result.reviews.length === pageSize;
        if (!hasNextPage || reviews.length === 0 || reviews.some((post) => post.publishedAt <= since)) break;
      }
      return posts.sort((a, b) => b.publishedAt.getTime() - a.publishedAt.getTime());
    },
  };
}

function toPost(review: TrustpilotReview): NormalizedPost {
  const body = review.text ?? '';
  return {
    platform: 'trustpilot',
    externalId: review.id,
    url: `https://www.trustpilot.com/reviews/${review.id}`,
    ...titledText(review.title, body),
    publishedAt: new Date(review.createdAt),
    replyTo: null,
    links: linksInText(body),
    author: {
      platformId: review.consumer.id,
      name: review.consumer.displayName,
      handle: review.consumer.displayName,
      url: `https://www.trustpilot.com/users/${review.consumer.id}`,
      avatarUrl: null,
      followers: null,
    },
    rating: review.stars,
    language: primaryLanguage(review.language),
  };
}
