import type { ReviewPlatform } from '../vocabulary/normalized-post.ts';

/** A review source as a platform names it (spec 2.3). */
export interface ReviewSourceRef {
  platform: ReviewPlatform;
  id: string;
  /** Lowercase storefront code (appstore, googleplay); null elsewhere. */
  country: string | null;
  /** Review language (googleplay); null elsewhere. */
  language: string | null;
}

/** Why a feed could not be connected: not a feed (the caller's mistake) or a site that did not answer. */
export class FeedCheckFailure extends Error {
  constructor(
    readonly kind: 'not_a_feed' | 'unavailable',
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/**
 * What writing a keyword's sources needs from the platforms themselves:
 * reading a feed now (spec 4.2: "a feed added is checked now") and telling
 * which review source a page link names (2.3). The connectors answer these;
 * the start-up hands them to the subgraph, which does not import them. A
 * write that needs a reader it was not given fails as a broken deployment.
 */
export interface SourceReaders {
  /** The feed at `url` (after redirects and discovery) and its title; rejects with `FeedCheckFailure`. */
  readFeed?(url: string): Promise<{ url: string; title: string | null }>;
  /** The source a review-page link names, with its defaults; null when no review platform knows it. */
  reviewSourceFromUrl?(url: string): (Omit<ReviewSourceRef, 'country' | 'language'> & { country: string | null; language: string | null; url: string }) | null;
  /** The canonical review page of a source given as platform and id. */
  reviewPageUrl?(source: ReviewSourceRef): string;
}

/** The reader a write needs, or an error saying the deployment did not supply it. */
export function requireReader<Name extends keyof SourceReaders>(readers: SourceReaders, name: Name): NonNullable<SourceReaders[Name]> {
  const reader = readers[name];
  if (!reader) throw new Error(`This process was started without the ${name} source reader`);
  return reader.bind(readers) as NonNullable<SourceReaders[Name]>;
}
