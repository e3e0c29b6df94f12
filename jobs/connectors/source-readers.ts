import { FeedCheckFailure, type SourceReaders } from '../../subgraphs/source-readers.ts';
import { PrivateAddressError } from '../../runtime/public-address.ts';
import { UpstreamError } from '../../runtime/upstream-http.ts';
import { reviewPageUrl, reviewSourceFromUrl } from './review-connectors.ts';
import { createRssConnector, NotAFeedError } from './rss.ts';

/**
 * The connectors' answers to what a keyword write asks of the platforms
 * (the keywords subgraph's `SourceReaders`): a feed read now, its failures
 * told apart as the caller's (not a feed, a private address) or the site's,
 * and review links read by the review platforms.
 */
export function connectorSourceReaders(env: NodeJS.ProcessEnv): SourceReaders {
  const rss = createRssConnector(env);
  return {
    async readFeed(url) {
      try {
        const result = await rss.read(url);
        return { url: result.url, title: result.status === 'fetched' ? result.title : null };
      } catch (error) {
        if (error instanceof NotAFeedError || error instanceof PrivateAddressError) throw new FeedCheckFailure('not_a_feed', error.message);
        if (error instanceof UpstreamError) throw new FeedCheckFailure('unavailable', error.message, error.retryAfterSeconds);
        throw error;
      }
    },
    reviewSourceFromUrl: (url) => reviewSourceFromUrl(url, env),
    reviewPageUrl: (source) => reviewPageUrl(source, env),
  };
}
