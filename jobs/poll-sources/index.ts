import { z } from 'zod';
import { createMatcher, findKeywordById, type KeywordMatch, type KeywordRow, listFeeds, listReviewSources, loadWorkspaceFilters, reviewStorefrontKeys, type MatchablePost, matchingSinceRename, matchRulesOf, PreparedPost, recordLookbackPoll, recordPollOutcome, saveFeedValidators } from '../../subgraphs/keywords/index.ts';
import {
  compileKeywordRules,
  compileWorkspaceFilters,
  keywordRulesPass,
  workspaceFiltersPass,
} from '../../subgraphs/keywords/index.ts';
import { reviewPlatforms, type ReviewPlatform } from '../../vocabulary/normalized-post.ts';
import { reviewConnectorFor } from '../connectors/review-connectors.ts';
import { createRssConnector, type FeedValidators } from '../connectors/rss.ts';
import { runEachJob } from '../each-job.ts';
import { ingestPosts } from '../ingest-posts.ts';
import type { JobContext, JobDefinition } from '../job-definition.ts';
import { handleFailedPoll } from '../poll/failed-poll.ts';

const sourcesPayload = z.object({
  keywordId: z.string(),
  /** A review platform, `rss`, or `reviews` for every review platform (look-backs). */
  platform: z.enum([...reviewPlatforms, 'rss', 'reviews']),
  since: z.iso.datetime(),
  lookback: z.boolean().default(false),
  /**
   * A look-back's feeds: those just connected. A feed already connected is not
   * read from before its connection again (a renamed keyword is tracked from
   * the rename on, spec 4.2). Absent: every feed (a new keyword's look-back).
   */
  feedUrls: z.array(z.string()).optional(),
  /** A look-back's review storefronts (see reviewStorefrontKeys): those just connected; absent, every one. */
  storefronts: z.array(z.string()).optional(),
});
type SourcesPayload = z.output<typeof sourcesPayload>;

/** Spec part 8: a new feed brings its newest 10 matching items of the last 30 days. */
const feedLookbackItems = 10;
/** Reviews are read once a day per country (spec 2.3); this many base intervals make that day at the default 300 s. */
const reviewIntervalFactor = 288;

/** Reviews of the keyword's own sources are its mentions whatever their words (spec 1.4). */
async function readReviews(keyword: KeywordRow, platform: ReviewPlatform, since: Date, payload: SourcesPayload, context: JobContext): Promise<MatchablePost[]> {
  const posts: MatchablePost[] = [];
  const connector = reviewConnectorFor(platform, context.config.env, { logger: context.log });
  for (const source of await listReviewSources(context.sql, [keyword.id])) {
    if (source.platform !== platform) continue;
    const storefronts = reviewStorefrontKeys(source);
    for (const [index, country] of (source.countries.length ? source.countries : [null]).entries()) {
      if (payload.lookback && payload.storefronts && !payload.storefronts.includes(storefronts[index])) continue;
      posts.push(...(await connector.reviews({ platform, id: source.sourceId, country, language: source.language }, since)));
    }
  }
  return posts;
}

/** What a poll read from a keyword's sources, and how to match it. */
interface SourcesRead {
  posts: MatchablePost[];
  match: (post: MatchablePost) => KeywordMatch[];
  /** Each feed's validators, saved once its items are stored: saved before, a failure after the read made the next read a 304 and the items were lost. */
  feedValidators: { url: string; validators: FeedValidators }[];
}

/** Feed items published after the feed was connected (or, for a look-back, its newest 10 matching items of the window). */
async function readFeeds(keyword: KeywordRow, since: Date, payload: SourcesPayload, context: JobContext): Promise<SourcesRead> {
  const { lookback, feedUrls } = payload;
  const rss = createRssConnector(context.config.env, { now: () => context.clock.now() });
  const rules = matchRulesOf(keyword);
  const matcher = createMatcher([rules], new Map([[keyword.workspaceId, await loadWorkspaceFilters(context.sql, keyword.workspaceId)]]));
  // A feed's look-back brings its newest items whenever it is added, a renamed keyword's too (spec 4.2).
  const matchAll = (post: MatchablePost) => matcher.match(post);
  const match = lookback ? matchAll : matchingSinceRename([rules], matchAll);
  const posts: MatchablePost[] = [];
  const feedValidators: SourcesRead['feedValidators'] = [];
  for (const feed of await listFeeds(context.sql, [keyword.id])) {
    if (lookback && feedUrls && !feedUrls.includes(feed.url)) continue;
    const result = await rss.read(feed.url, lookback ? null : { etag: feed.etag, lastModified: feed.lastModified });
    feedValidators.push({ url: feed.url, validators: result.validators });
    if (result.status !== 'fetched') continue;
    const fresh = result.posts
      .filter((post) => post.publishedAt >= (lookback ? since : feed.connectedAt))
      .filter((post) => match(post).length > 0)
      .sort((a, b) => b.publishedAt.getTime() - a.publishedAt.getTime());
    posts.push(...(lookback ? fresh.slice(0, feedLookbackItems) : fresh));
  }
  return { posts, match, feedValidators };
}

/**
 * Reviews from a keyword's own sources need not name its term (spec 1.4), but
 * its other rules and the workspace filters still run before one is stored
 * (spec 1.5): excluded terms and authors, required terms.
 */
async function reviewMatcher(keyword: KeywordRow, context: JobContext): Promise<(post: MatchablePost) => KeywordMatch[]> {
  const rules = compileKeywordRules(matchRulesOf(keyword));
  const filters = compileWorkspaceFilters(await loadWorkspaceFilters(context.sql, keyword.workspaceId));
  return (post) => {
    const prepared = new PreparedPost(post);
    return keywordRulesPass(rules, prepared) && workspaceFiltersPass(filters, prepared)
      ? [{ keywordId: keyword.id, workspaceId: keyword.workspaceId, fuzzy: false }]
      : [];
  };
}

/** One keyword's poll of one platform of its own sources; a failed read is recorded on that poll alone. */
async function pollSource(keyword: KeywordRow, platform: ReviewPlatform | 'rss', payload: SourcesPayload, context: JobContext): Promise<void> {
  const since = new Date(payload.since);
  const now = context.clock.now();
  let read: SourcesRead;
  try {
    read = platform === 'rss'
      ? await readFeeds(keyword, since, payload, context)
      : { posts: await readReviews(keyword, platform, since, payload, context), match: await reviewMatcher(keyword, context), feedValidators: [] };
  } catch (error) {
    await handleFailedPoll(context, { platform, keywordIds: [keyword.id], lookback: payload.lookback }, error);
    return;
  }
  const found = [...(await ingestPosts(context, read.posts, read.match)).keywordIdsWithFinds];
  for (const { url, validators } of read.feedValidators) await saveFeedValidators(context.sql, keyword.id, url, validators);
  if (payload.lookback) {
    await recordLookbackPoll(context.sql, { platform, keywordIds: [keyword.id], now });
    return;
  }
  await recordPollOutcome(context.sql, {
    platform,
    keywordIds: [keyword.id],
    keywordIdsWithFinds: found,
    now,
    baseIntervalSeconds: context.config.pollIntervalSeconds * (platform === 'rss' ? 1 : reviewIntervalFactor),
  });
}

async function pollSources(payload: SourcesPayload, context: JobContext): Promise<void> {
  const keyword = await findKeywordById(context.sql, payload.keywordId);
  if (!keyword || keyword.muted || keyword.pausedForCap) return;
  const platforms = payload.platform === 'reviews' ? reviewPlatforms : [payload.platform];
  for (const platform of platforms) await pollSource(keyword, platform, payload, context);
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
    await runEachJob(payloads, (payload) => pollSources(payload, context));
  },
};
