import { FeedCheckFailure, type SourceReaders } from '../../subgraphs/source-readers.ts';
import { PrivateAddressError } from '../../runtime/public-address.ts';
import { retryableStatus, UpstreamError, whileClientWaits } from '../../runtime/upstream-http.ts';
import { reviewPageUrl, reviewSourceFromUrl } from './review-connectors.ts';
import { createRssConnector, NotAFeedError } from './rss.ts';

/**
 * The connectors' answers to what a keyword write asks of the platforms
 * (the keywords subgraph's `SourceReaders`): a feed read now, its failures
 * told apart as the caller's (not a feed, a private address, an address the
 * site refuses for good) or the site's,
 * and review links read by the review platforms.
 */
export function connectorSourceReaders(env: NodeJS.ProcessEnv): SourceReaders {
  // The write waits on the check: a site asking for a wait or too slow is 502 inside the request deadline, not the deadline's 503.
  const rss = createRssConnector(env, { retry: whileClientWaits });
  return {
    async readFeed(url) {
      try {
        const result = await rss.read(url);
        return { url: result.url, title: result.status === 'fetched' ? result.title : null };
      } catch (error) {
        if (error instanceof NotAFeedError || error instanceof PrivateAddressError) throw new FeedCheckFailure('not_a_feed', error.message);
        // A 404, 410 or 403 is the address given, not a site that is down: asking again later brings the same answer.
        if (error instanceof UpstreamError && error.status !== undefined && error.status >= 400 && !retryableStatus(error.status)) {
          throw new FeedCheckFailure('not_a_feed', `no feed at this address (${error.reason})`);
        }
        if (error instanceof UpstreamError) throw new FeedCheckFailure('unavailable', error.message, error.retryAfterSeconds);
        throw error;
      }
    },
    reviewSourceFromUrl: (url) => reviewSourceFromUrl(url, env),
    reviewPageUrl: (source) => reviewPageUrl(source, env),
  };
}
