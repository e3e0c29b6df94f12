import { z } from 'zod';
import { searchPlatforms, type SearchPlatform } from '../../vocabulary/normalized-post.ts';
import { searchConnectorFor } from '../connectors/search-connectors.ts';
import { UpstreamConfigurationError } from '../../runtime/upstream-http.ts';
import {
  createMatcher,
  loadActiveMatchRules,
  type MatchablePost,
  matchingSinceRename,
  matchWithRepositoryEvents,
  recordLookbackPoll,
  recordPollOutcome,
} from '../../subgraphs/keywords/index.ts';
import { handleFailedPoll } from './failed-poll.ts';
import { platformPollSlots } from './platform-poll-slots.ts';
import { runEachJob } from '../each-job.ts';
import { ingestPosts } from '../ingest-posts.ts';
import type { JobContext, JobDefinition } from '../job-definition.ts';

const pollPayload = z.object({
  platform: z.enum(searchPlatforms),
  term: z.string(),
  exactPhrase: z.boolean(),
  keywordIds: z.array(z.string()).min(1),
  /** ISO instant: nothing older is fetched. */
  since: z.iso.datetime(),
  /** A look-back fetches the newest posts of the window for new keywords and leaves the schedule alone. */
  lookback: z.boolean().default(false),
});

export type PollPayload = z.output<typeof pollPayload>;

/** Pages one search may read: enough for a 30-day look-back of a busy term, bounded so a poll stays short. */
const maxPages = 5;

async function fetchSearch(platform: SearchPlatform, payload: PollPayload, context: JobContext): Promise<MatchablePost[]> {
  const connector = searchConnectorFor(platform, context.config.env, { logger: context.log });
  if (!connector) throw new UpstreamConfigurationError(platform, `EARSHOT_UPSTREAM_${platform.toUpperCase()}`, 'this platform has no connector yet');
  const posts: MatchablePost[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < maxPages; page++) {
    const result = await connector.search({ term: payload.term, exactPhrase: payload.exactPhrase, since: new Date(payload.since), cursor });
    posts.push(...result.posts);
    cursor = result.nextCursor;
    if (!cursor) break;
  }
  return posts;
}

/**
 * One search on one platform for every keyword that shares it, matched per
 * keyword; the search waits for a slot of its platform (platform-poll-slots.ts). A search that fails after the connector's own retries is recorded
 * on the keywords' polls and backs their schedule off (`handleFailedPoll`);
 * the lease in keyword_polls makes the scheduler ask again if the job is lost.
 */
export async function runPoll(payload: PollPayload, context: JobContext): Promise<void> {
  const now = context.clock.now();
  let posts: MatchablePost[];
  try {
    posts = await platformPollSlots.run(payload.platform, payload.lookback, () => fetchSearch(payload.platform, payload, context));
  } catch (error) {
    await handleFailedPoll(context, payload, error);
    return;
  }
  const { rules, filters } = await loadActiveMatchRules(context.sql, { keywordIds: payload.keywordIds, platform: payload.platform });
  const matcher = createMatcher(rules, filters);
  const matched = await matchWithRepositoryEvents(context.sql, matcher, posts, now);
  // A look-back brings its window whenever its platform is added, to a renamed keyword too, as a feed's does (spec 4.2).
  const match = payload.lookback ? matched : matchingSinceRename(rules, matched);
  const outcome = await ingestPosts(context, posts, match);
  if (payload.lookback) {
    await recordLookbackPoll(context.sql, { platform: payload.platform, keywordIds: payload.keywordIds, now });
  } else {
    await recordPollOutcome(context.sql, {
      platform: payload.platform,
      keywordIds: payload.keywordIds,
      keywordIdsWithFinds: [...outcome.keywordIdsWithFinds],
      now,
      baseIntervalSeconds: context.config.pollIntervalSeconds,
    });
  }
}

export const pollQueue: JobDefinition<PollPayload> = {
  name: 'poll',
  payload: pollPayload,
  batchSize: 4,
  // A platform that does not answer takes its three 10 s attempts; polls of other platforms (a new keyword's look-back on the platform that does answer) must not wait behind it.
  concurrentBatches: 3,
  retryLimit: 4,
  retryDelaySeconds: 10,
  // Four polls at once, each a few pages with retries and 10 s time-outs: under a minute at worst.
  expireInSeconds: 600,
  async handle(payloads, context) {
    await runEachJob(payloads, (payload) => runPoll(payload, context));
  },
};
