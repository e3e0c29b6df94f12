import type { NormalizedPost, ReviewPlatform, SearchPlatform } from '../../vocabulary/normalized-post.ts';
import type { Logger } from '../../runtime/logger.ts';
import type { RetryPolicy, UpstreamConfigurationError } from '../../runtime/upstream-http.ts';

/** One search of a platform for a term, newest first. */
export interface SearchQuery {
  term: string;
  exactPhrase: boolean;
  /** Nothing published before this instant is wanted (look-backs ask for 30 days). */
  since: Date;
  /** Opaque continuation from the previous page. */
  cursor?: string | null;
  /** Items wanted in this page; connectors cap it at the platform's maximum. */
  limit?: number;
}

export interface SearchPage {
  posts: NormalizedPost[];
  /** Null when there is nothing older to fetch within `since`. */
  nextCursor: string | null;
}

/** A search platform: finds posts for a term and, where it has threads, reads their comments. */
export interface SearchConnector {
  platform: SearchPlatform;
  /** Set when a setting the platform cannot work without is missing: every search then rejects with it. */
  unconfigured?: UpstreamConfigurationError;
  search(query: SearchQuery): Promise<SearchPage>;
  /** Replies under a post, newest first, published after `since` (spec 2.1.2). */
  comments?(post: Pick<NormalizedPost, 'externalId' | 'url'>, since: Date, limit: number): Promise<NormalizedPost[]>;
}

/** What every connector factory takes besides its environment. */
export interface ConnectorOptions {
  /** Retry policy of each upstream call; tests shorten the back-off. */
  retry?: RetryPolicy;
  /** Hears of page items skipped for a missing field (`parseUpstreamShape`). */
  logger?: Logger;
}

/** A search connector's factory: credentials and base address come from `env` (README.md lists the variables). */
export type SearchConnectorFactory = (env?: NodeJS.ProcessEnv, options?: ConnectorOptions) => SearchConnector;

/** Where a review source points: an app, a package, a company domain or a place. */
export interface ReviewSourceRef {
  platform: ReviewPlatform;
  id: string;
  /** Lowercase storefront code (appstore, googleplay); null elsewhere. */
  country: string | null;
  /** Review language (googleplay); null elsewhere. */
  language: string | null;
}

/** A review platform: turns a link into a source and reads its newest reviews. */
export interface ReviewConnector {
  platform: ReviewPlatform;
  /** Set when a setting the platform cannot work without is missing: every read of reviews then rejects with it. */
  unconfigured?: UpstreamConfigurationError;
  /** The source a review-page URL names, with its defaults (spec 2.3); null when the URL is not this platform's. */
  sourceFromUrl(url: string): Omit<ReviewSourceRef, 'country' | 'language'> & { country: string | null; language: string | null; url: string } | null;
  /** The canonical review page of a source. */
  pageUrl(source: ReviewSourceRef): string;
  /** Reviews published after `since`, newest first. */
  reviews(source: ReviewSourceRef, since: Date): Promise<NormalizedPost[]>;
}
