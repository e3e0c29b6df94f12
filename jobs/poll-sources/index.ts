import { z } from 'zod';
import { findKeywordById, type KeywordRow, listFeeds, listReviewSources, saveFeedValidators } from '../../subgraphs/keywords/index.ts';
import { matchRulesOf, toWorkspaceFilters } from '../../subgraphs/keywords/index.ts';
import {
  compileKeywordRules,
  compileWorkspaceFilters,
  keywordRulesPass,
  workspaceFiltersPass,
} from '../../subgraphs/keywords/index.ts';
import { createMatcher, type KeywordMatch } from '../../subgraphs/keywords/index.ts';
import { type MatchablePost, PreparedPost } from '../../subgraphs/keywords/index.ts';
import { findWorkspaceFilters } from '../../subgraphs/keywords/index.ts';
import { recordPollOutcome } from '../../subgraphs/keywords/index.ts';
import { reviewPlatforms, type ReviewPlatform } from '../connectors/normalized-post.ts';
import { reviewConnectorFor } from '../connectors/review-connectors.ts';
import { createRssConnector } from '../connectors/rss.ts';
import { UpstreamConfigurationError } from '../connectors/upstream-http.ts';
import { ingestPosts } from '../ingest-posts.ts';
import type { JobContext, JobDefinition } from '../job-definition.ts';

const sourcesPayload = z.object({
  keywordId: z.string(),
  /** A review platform, `rss`, or `reviews` for every review platform (look-backs). */
  platform: z.enum([...reviewPlatforms, 'rss', 'reviews']),
  since: z.iso.datetime(),
  lookback: z.boolean().default(false),
});
type SourcesPayload = z.output<typeof sourcesPayload>;

/** Spec part 8: a new feed brings its newest 10 matching items of the last 30 days. */
const feedLookbackItems = 10;
/** Reviews are read once a day per country (spec 2.3); this many base intervals make that day at the default 300 s. */
const reviewIntervalFactor = 288;

/** Reviews of the keyword's own sources are its mentions whatever their words (spec 1.4). */
async function readReviews(keyword: KeywordRow, platforms: ReviewPlatform[], since: Date, context: JobContext): Promise<MatchablePost[]> {
  const posts: MatchablePost[] = [];
  for (const source of await listReviewSources(context.sql, [keyword.id])) {
    if (!platforms.includes(source.platform)) continue;
    const connector = reviewConnectorFor(source.platform, context.config.env);
    for (const country of source.countries.length ? source.countries : [null]) {
      try {
        posts.push(...(await connector.reviews({ platform: source.platform, id: source.sourceId, country, language: source.language }, since)));
      } catch (error) {
        if (!(error instanceof UpstreamConfigurationError)) throw error;
        context.log.warn('review platform not configured; skipping', { platform: source.platform });
      }
    }
  }
  return posts;
}

/** Feed items published after the feed was connected (or, for a look-back, its newest 10 matching items of the window). */
async function readFeeds(keyword: KeywordRow, since: Date, lookback: boolean, context: JobContext) {
  const rss = createRssConnector(context.config.env, { now: () => context.clock.now() });
  const matcher = createMatcher([matchRulesOf(keyword)], new Map());
  const posts: MatchablePost[] = [];
  for (const feed of await listFeeds(context.sql, [keyword.id])) {
    const result = await rss.read(feed.url, lookback ? null : { etag: feed.etag, lastModified: feed.lastModified });
    await saveFeedValidators(context.sql, keyword.id, feed.url, result.validators);
    if (result.status !== 'fetched') continue;
    const fresh = result.posts
      .filter((post) => post.publishedAt >= (lookback ? since : feed.connectedAt))
      .filter((post) => matcher.match(post).length > 0)
      .sort((a, b) => b.publishedAt.getTime() - a.publishedAt.getTime());
    posts.push(...(lookback ? fresh.slice(0, feedLookbackItems) : fresh));
  }
  return { posts, match: (post: MatchablePost) => matcher.match(post) };
}

/**
 * Reviews from a keyword's own sources need not name its term (spec 1.4), but
 * its other rules and the workspace filters still run before one is stored
 * (spec 1.5): excluded terms and authors, required terms.
 */
async function reviewMatcher(keyword: KeywordRow, context: JobContext): Promise<(post: MatchablePost) => KeywordMatch[]> {
  const rules = compileKeywordRules(matchRulesOf(keyword));
  const filters = compileWorkspaceFilters(toWorkspaceFilters(await findWorkspaceFilters(context.sql, keyword.workspaceId)));
  return (post) => {
    const prepared = new PreparedPost(post);
    return keywordRulesPass(rules, prepared) && workspaceFiltersPass(filters, prepared)
      ? [{ keywordId: keyword.id, workspaceId: keyword.workspaceId, fuzzy: false }]
      : [];
  };
}

async function pollSources(payload: SourcesPayload, context: JobContext): Promise<void> {
  const keyword = await findKeywordById(context.sql, payload.keywordId);
  if (!keyword || keyword.muted || keyword.pausedForCap) return;
  const since = new Date(payload.since);
  const now = context.clock.now();
  let found: string[];
  if (payload.platform === 'rss') {
    const { posts, match } = await readFeeds(keyword, since, payload.lookback, context);
    found = [...(await ingestPosts(context, posts, match)).keywordIdsWithFinds];
  } else {
    const platforms = payload.platform === 'reviews' ? [...reviewPlatforms] : [payload.platform];
    const reviews = await readReviews(keyword, platforms, since, context);
    const outcome = await ingestPosts(context, reviews, await reviewMatcher(keyword, context));
    found = [...outcome.keywordIdsWithFinds];
  }
  if (payload.lookback || payload.platform === 'reviews') return;
  await recordPollOutcome(context.sql, {
    platform: payload.platform,
    keywordIds: [keyword.id],
    keywordIdsWithFinds: found,
    now,
    baseIntervalSeconds: context.config.pollIntervalSeconds * (payload.platform === 'rss' ? 1 : reviewIntervalFactor),
  });
}

/** Polls of a keyword's own sources: its review pages per storefront, and its feeds. */
export const pollSourcesQueue: JobDefinition<SourcesPayload> = {
  name: 'poll-sources',
  payload: sourcesPayload,
  batchSize: 4,
  retryLimit: 4,
  retryDelaySeconds: 10,
  expireInSeconds: 600,
  async handle(payloads, context) {
    for (const payload of payloads) await pollSources(payload, context);
  },
};
