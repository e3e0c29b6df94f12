import { z } from 'zod';
import { findKeywordById, isWholeLookback, keywordRuns, oweLookback, syncKeywordPolls } from '../../subgraphs/keywords/index.ts';
import { searchPlatforms } from '../../vocabulary/normalized-post.ts';
import { platformAvailability } from '../connectors/platform-availability.ts';
import { userAwaited } from '../../runtime/send-job.ts';
import type { JobDefinition } from '../job-definition.ts';

// Jobs queued before look-backs were recorded also carry `requestedAt` and `waits` (their chain of waits): read without them.
const lookbackPayload = z.object({
  keywordId: z.string(),
  /** The search platforms a PATCH added: only these look back. */
  platforms: z.array(z.enum(searchPlatforms)).optional(),
  /** The feeds a PATCH connected: only these bring their newest items. */
  feedUrls: z.array(z.string()).optional(),
  /** The review storefronts a PATCH connected (see reviewStorefrontKeys): only these look back. */
  storefronts: z.array(z.string()).optional(),
});
type LookbackPayload = z.output<typeof lookbackPayload>;
const lookbackDays = 30;

/**
 * A new keyword collects the newest posts of the last 30 days at once
 * (spec 4.2, part 8): one look-back poll per platform it searches and per
 * review platform it watches, then regular polls after the base interval.
 * What a PATCH added does the same, alone: a search platform its last 30
 * days (unless the keyword has dropped it again since), a feed its newest
 * matching items, an app or storefront its last 30 days. Platforms not
 * configured here are not searched; their polls say why.
 *
 * A keyword that is not running (created paused, muted, paused for balance
 * or noise, at its cap) would match nothing, so its look-back waits as a
 * record, not as a job: the write that owes it records it in its own
 * transaction (keywords' `keyword_lookbacks`), and the job is queued when
 * the keyword runs, in the transaction that starts it (an unmute, a noise
 * resume, a cap raised or removed) or, when billing starts it (a top-up, a
 * new cap period), by the poll scheduler's next pass; either way the
 * keyword's regular polls of what it reads come a base interval later, and
 * the look-back reads the 30 days before the moment it runs. A job that
 * finds its keyword not running (muted since it was queued, or a job of the
 * chain of waits of a version before) turns into that record. A crash loses
 * no look-back.
 */
export const lookbackQueue: JobDefinition<LookbackPayload> = {
  name: 'lookback',
  payload: lookbackPayload,
  // It only queues polls.
  expireInSeconds: 60,
  async handle(payloads, context) {
    const unconfigured = new Set<string>(platformAvailability(context.config.env).filter((entry) => !entry.enabled).map((entry) => entry.platform));
    for (const payload of payloads) {
      const { keywordId, platforms: added, feedUrls, storefronts } = payload;
      const keyword = await findKeywordById(context.sql, keywordId);
      if (!keyword) continue;
      if (!keywordRuns(keyword)) {
        await oweLookback(context.sql, payload);
        continue;
      }
      const now = context.clock.now();
      const since = new Date(now.getTime() - lookbackDays * 86_400_000).toISOString();
      const watched = keyword.platforms ?? searchPlatforms;
      // A PATCH's look-back names what it added; a new keyword's names nothing.
      const newKeyword = isWholeLookback(payload);
      for (const platform of newKeyword ? watched : (added ?? []).filter((platform) => watched.includes(platform))) {
        if (unconfigured.has(platform)) continue;
        await context.send('poll', { platform, term: keyword.term, exactPhrase: keyword.exactPhrase, keywordIds: [keyword.id], since, lookback: true }, userAwaited);
      }
      if (newKeyword || feedUrls?.length) await context.send('poll-sources', { keywordId, platform: 'rss', since, lookback: true, feedUrls }, userAwaited);
      if (newKeyword || storefronts?.length) await context.send('poll-sources', { keywordId, platform: 'reviews', since, lookback: true, storefronts }, userAwaited);
      // A PATCH's poll rows are written with it.
      if (newKeyword) await syncKeywordPolls(context.sql, keywordId, searchPlatforms, new Date(now.getTime() + context.config.pollIntervalSeconds * 1000));
    }
  },
};
