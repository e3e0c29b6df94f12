import { z } from 'zod';
import { findKeywordById, syncKeywordPolls } from '../../subgraphs/keywords/index.ts';
import { searchPlatforms } from '../../vocabulary/normalized-post.ts';
import { platformAvailability } from '../connectors/platform-availability.ts';
import { userAwaited } from '../../runtime/send-job.ts';
import type { JobDefinition } from '../job-definition.ts';

const lookbackPayload = z.object({
  keywordId: z.string(),
  /** The search platforms a PATCH added: only these look back. Absent: a new keyword's look-back, of everything it watches. */
  platforms: z.array(z.enum(searchPlatforms)).optional(),
});
const lookbackDays = 30;

/**
 * A new keyword collects the newest posts of the last 30 days at once
 * (spec 4.2, part 8): one look-back poll per platform it searches and per
 * review platform it watches, then regular polls after the base interval.
 * A search platform a PATCH added does the same, alone: one look-back poll
 * of that platform, unless the keyword has dropped it again since. Platforms
 * not configured here are not searched; their polls say why.
 */
export const lookbackQueue: JobDefinition<z.output<typeof lookbackPayload>> = {
  name: 'lookback',
  payload: lookbackPayload,
  // It only queues polls.
  expireInSeconds: 60,
  async handle(payloads, context) {
    const unconfigured = new Set<string>(platformAvailability(context.config.env).filter((entry) => !entry.enabled).map((entry) => entry.platform));
    for (const { keywordId, platforms: added } of payloads) {
      const keyword = await findKeywordById(context.sql, keywordId);
      if (!keyword) continue;
      const now = context.clock.now();
      const since = new Date(now.getTime() - lookbackDays * 86_400_000).toISOString();
      const watched = keyword.platforms ?? searchPlatforms;
      for (const platform of added ? added.filter((platform) => watched.includes(platform)) : watched) {
        if (unconfigured.has(platform)) continue;
        await context.send('poll', { platform, term: keyword.term, exactPhrase: keyword.exactPhrase, keywordIds: [keyword.id], since, lookback: true }, userAwaited);
      }
      // A PATCH's sources send their own look-backs, and its poll rows are written with it.
      if (added) continue;
      await context.send('poll-sources', { keywordId, platform: 'reviews', since, lookback: true }, userAwaited);
      await context.send('poll-sources', { keywordId, platform: 'rss', since, lookback: true }, userAwaited);
      await syncKeywordPolls(context.sql, keywordId, searchPlatforms, new Date(now.getTime() + context.config.pollIntervalSeconds * 1000));
    }
  },
};
