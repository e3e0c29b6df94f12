import { PrivateAddressError } from '../../runtime/public-address.ts';
import { createRssConnector, NotAFeedError } from '../../jobs/connectors/rss.ts';
import { UpstreamError } from '../../runtime/upstream-http.ts';
import { domainError } from '../domain-error.ts';

export interface CheckedFeed {
  /** The feed after redirects and discovery (spec 2.1 `feeds.url`). */
  url: string;
  title: string | null;
}

/**
 * Checks the feeds a write adds, before anything is stored (spec 4.2: "a
 * feed added is checked now"): each must be a public RSS, Atom or JSON feed,
 * or a page advertising one. Feeds already connected are kept as they are.
 * A failing site is `upstream_unavailable`; anything else wrong is the
 * caller's `validation_error` naming the entry.
 */
export async function checkFeeds(
  requested: readonly { url: string }[],
  connected: ReadonlyMap<string, string | null>,
  env: NodeJS.ProcessEnv,
): Promise<CheckedFeed[]> {
  const rss = createRssConnector(env);
  const checked = new Map<string, CheckedFeed>();
  for (const [index, { url }] of requested.entries()) {
    if (connected.has(url)) {
      checked.set(url, { url, title: connected.get(url) ?? null });
      continue;
    }
    const field = `feeds.${index}.url`;
    try {
      const result = await rss.read(url);
      checked.set(result.url, { url: result.url, title: result.status === 'fetched' ? result.title : null });
    } catch (error) {
      if (error instanceof NotAFeedError || error instanceof PrivateAddressError) {
        throw domainError('validation_error', `${field}: ${error.message}`, { field });
      }
      if (error instanceof UpstreamError) {
        throw domainError('upstream_unavailable', `${field}: the feed's site did not answer (${error.message})`, {
          field,
          retryAfterSeconds: error.retryAfterSeconds ?? 60,
        });
      }
      throw error;
    }
  }
  return [...checked.values()];
}
