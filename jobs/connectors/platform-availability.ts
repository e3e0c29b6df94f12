import { type Platform, reviewPlatforms, searchPlatforms } from './normalized-post.ts';
import { reviewConnectorFor } from './review-connectors.ts';
import { searchConnectorFor } from './search-connectors.ts';

/** Whether a platform's connector can run with this environment, and when not, why. */
export interface PlatformAvailability {
  platform: Platform;
  enabled: boolean;
  /** Null when enabled; otherwise the missing setting and what it is for (`EARSHOT_YOUTUBE_API_KEY is not set; …`). */
  reason: string | null;
}

/**
 * Every polled platform, in spec order: the search platforms, the review
 * platforms, then `rss` (feeds need nothing). Each connector says itself what
 * it lacks (`unconfigured`), so this list cannot drift from the connectors.
 */
export function platformAvailability(env: NodeJS.ProcessEnv): PlatformAvailability[] {
  const search = searchPlatforms.map((platform): PlatformAvailability => {
    const connector = searchConnectorFor(platform, env);
    if (!connector) return { platform, enabled: false, reason: 'this platform has no connector yet' };
    return { platform, enabled: !connector.unconfigured, reason: connector.unconfigured?.reason ?? null };
  });
  const reviews = reviewPlatforms.map((platform): PlatformAvailability => {
    const { unconfigured } = reviewConnectorFor(platform, env);
    return { platform, enabled: !unconfigured, reason: unconfigured?.reason ?? null };
  });
  return [...search, ...reviews, { platform: 'rss', enabled: true, reason: null }];
}
