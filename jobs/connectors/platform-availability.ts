import { type Platform, reviewPlatforms, searchPlatforms } from '../../vocabulary/normalized-post.ts';
import { reviewConnectorFor } from './review-connectors.ts';
import { searchConnectorFor } from './search-connectors.ts';

/**
 * Whether a platform's connector can run with this environment, and when not,
 * why: the missing setting and what it is for (`EARSHOT_YOUTUBE_API_KEY is not set; …`).
 */
export type PlatformAvailability = { platform: Platform; enabled: true; reason: null } | { platform: Platform; enabled: false; reason: string };

const availability = (platform: Platform, missing: { reason: string } | undefined): PlatformAvailability =>
  missing ? { platform, enabled: false, reason: missing.reason } : { platform, enabled: true, reason: null };

/**
 * Every polled platform, in spec order: the search platforms, the review
 * platforms, then `rss` (feeds need nothing). Each connector says itself what
 * it lacks (`unconfigured`), so this list cannot drift from the connectors.
 */
export function platformAvailability(env: NodeJS.ProcessEnv): PlatformAvailability[] {
  const search = searchPlatforms.map((platform) => {
    const connector = searchConnectorFor(platform, env);
    return availability(platform, connector ? connector.unconfigured : { reason: 'this platform has no connector yet' });
  });
  const reviews = reviewPlatforms.map((platform) => availability(platform, reviewConnectorFor(platform, env).unconfigured));
  return [...search, ...reviews, availability('rss', undefined)];
}
