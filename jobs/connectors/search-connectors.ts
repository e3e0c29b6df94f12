import { createBlueskyConnector } from './bluesky.ts';
import type { ConnectorOptions, SearchConnector, SearchConnectorFactory } from './connector.ts';
import { createDevToConnector } from './devto.ts';
import { createGitHubConnector } from './github.ts';
import { createHackerNewsConnector } from './hackernews.ts';
import { createInstagramConnector } from './instagram.ts';
import { createLinkedInConnector } from './linkedin.ts';
import { createNewsConnector } from './news.ts';
import type { SearchPlatform } from '../../vocabulary/normalized-post.ts';
import { createRedditConnector } from './reddit.ts';
import { createStackOverflowConnector } from './stackoverflow.ts';
import { createTikTokConnector } from './tiktok.ts';
import { createXConnector } from './x.ts';
import { createYouTubeConnector } from './youtube.ts';

/** One factory per search platform (spec 1.3); adding a platform is adding its line. */
const factories: Partial<Record<SearchPlatform, SearchConnectorFactory>> = {
  hackernews: createHackerNewsConnector,
  reddit: createRedditConnector,
  bluesky: createBlueskyConnector,
  github: createGitHubConnector,
  stackoverflow: createStackOverflowConnector,
  devto: createDevToConnector,
  youtube: createYouTubeConnector,
  x: createXConnector,
  news: createNewsConnector,
  linkedin: createLinkedInConnector,
  tiktok: createTikTokConnector,
  instagram: createInstagramConnector,
};

/** The connector of a search platform, configured from `env`; null for a platform without one yet. */
export function searchConnectorFor(platform: SearchPlatform, env: NodeJS.ProcessEnv = process.env, options: ConnectorOptions = {}): SearchConnector | null {
  return factories[platform]?.(env, options) ?? null;
}
