import { createAppStoreConnector } from './appstore.ts';
import type { ConnectorOptions, ReviewConnector, ReviewSourceRef } from './connector.ts';
import { createGoogleMapsConnector } from './googlemaps.ts';
import { createGooglePlayConnector } from './googleplay.ts';
import type { ReviewPlatform } from '../../vocabulary/normalized-post.ts';
import { createTrustpilotConnector } from './trustpilot.ts';

const factories: Record<ReviewPlatform, (env: NodeJS.ProcessEnv, options?: ConnectorOptions) => ReviewConnector> = {
  appstore: createAppStoreConnector,
  googleplay: createGooglePlayConnector,
  trustpilot: createTrustpilotConnector,
  googlemaps: createGoogleMapsConnector,
};

/** The connector of a review platform. */
export function reviewConnectorFor(platform: ReviewPlatform, env: NodeJS.ProcessEnv = process.env, options: ConnectorOptions = {}): ReviewConnector {
  return factories[platform](env, options);
}

/** The review source a page link names, asking each review platform in turn; null when none knows it. */
export function reviewSourceFromUrl(url: string, env: NodeJS.ProcessEnv = process.env) {
  for (const platform of Object.keys(factories) as ReviewPlatform[]) {
    const source = reviewConnectorFor(platform, env).sourceFromUrl(url);
    if (source) return source;
  }
  return null;
}

/** The canonical review page of a source given as platform and id. */
export function reviewPageUrl(source: ReviewSourceRef, env: NodeJS.ProcessEnv = process.env): string {
  return reviewConnectorFor(source.platform, env).pageUrl(source);
}
