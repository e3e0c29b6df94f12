/** The 12 search platforms (spec 1.3). */
export const searchPlatforms = [
  'bluesky', 'hackernews', 'github', 'stackoverflow', 'devto', 'reddit',
  'x', 'youtube', 'news', 'linkedin', 'tiktok', 'instagram',
] as const;
/** Review sources (spec 1.4). */
export const reviewPlatforms = ['appstore', 'googleplay', 'trustpilot', 'googlemaps'] as const;

/** Every platform a post can come from: search platforms, review platforms and feeds. */
export const platforms = [...searchPlatforms, ...reviewPlatforms, 'rss'] as const;

export type SearchPlatform = (typeof searchPlatforms)[number];
export type ReviewPlatform = (typeof reviewPlatforms)[number];
export type Platform = (typeof platforms)[number];

export interface NormalizedAuthor {
  /** The platform's own stable account id (a DID, a user id, a username where nothing better exists). */
  platformId: string;
  name: string;
  handle: string;
  url: string;
  avatarUrl: string | null;
  /** Null when the platform does not say; spec 2.4 shows 0 then, and filters treat it as unknown reach. */
  followers: number | null;
  /**
   * Addresses the account's profile links to (a personal site, its profile
   * on another platform), as the platform gives them; absent where the
   * platform does not say, which keeps what was stored before. People are
   * merged across platforms on these (spec 2.11.3).
   */
  links?: string[];
}

/** A code-hosting repository observation, for the repository events of spec 2.1.3. */
export interface RepositoryObservation {
  fullName: string;
  stars: number;
  /** Stars gained in the last 7 days; null when unknown. */
  starsLastWeek: number | null;
  createdAt: Date;
}

/**
 * One platform item, mapped by its connector to the shape every later stage
 * (matching, storage, classification) reads.
 */
export interface NormalizedPost {
  platform: Platform;
  /** The platform's id of the item; with `platform` it identifies the post for de-duplication. */
  externalId: string;
  url: string;
  /** Title and body joined by a blank line where the platform has both. */
  text: string;
  /** The title, where the platform gives the item one (a story, an issue, a video, a review's headline); `text` holds it too. */
  title?: string | null;
  publishedAt: Date;
  /** Address of the post this one answers; null for a top-level post. */
  replyTo: string | null;
  /** Links in the post, in written order. */
  links: string[];
  author: NormalizedAuthor;
  /** Reddit only: the subreddit, bare and lowercase. */
  subreddit?: string | null;
  /** GitHub repository items only. */
  repository?: RepositoryObservation | null;
  /** Review items only: the star rating, 1 to 5. */
  rating?: number | null;
  /** ISO 639-1 language when the platform declares one. */
  language?: string | null;
}
