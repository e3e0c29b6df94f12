import { createHash } from 'node:crypto';
import { z } from 'zod';
import { findKeywordById, type KeywordRow, syncKeywordPolls } from '../../subgraphs/keywords/index.ts';
import { searchPlatforms } from '../../vocabulary/normalized-post.ts';
import { platformAvailability } from '../connectors/platform-availability.ts';
import { userAwaited } from '../../runtime/send-job.ts';
import type { JobDefinition } from '../job-definition.ts';

const lookbackPayload = z.object({
  keywordId: z.string(),
  /** The search platforms a PATCH added: only these look back. */
  platforms: z.array(z.enum(searchPlatforms)).optional(),
  /** The feeds a PATCH connected: only these bring their newest items. */
  feedUrls: z.array(z.string()).optional(),
  /** The review storefronts a PATCH connected (see reviewStorefrontKeys): only these look back. */
  storefronts: z.array(z.string()).optional(),
  /** When the keyword was created or patched (ISO): with `waits`, it tells one look-back's waits from another's. */
  requestedAt: z.string().optional(),
  /** How many times it has found its keyword not running and been queued again. */
  waits: z.number().int().nonnegative().optional(),
});
type LookbackPayload = z.output<typeof lookbackPayload>;
const lookbackDays = 30;

/** A PATCH's look-back names what it added; a new keyword's names nothing and reads everything the keyword watches. */
const isNewKeyword = (payload: LookbackPayload) => !payload.platforms && !payload.feedUrls && !payload.storefronts;

/** A muted keyword (by hand, for balance or for noise) or one at its cap matches nothing: a look-back now would store nothing. */
const isRunning = (keyword: KeywordRow) => !keyword.muted && !keyword.pausedForCap;

/**
 * The job of a look-back's next wait, named by what it looks back at, when it
 * was asked for and how many waits it has had: when pg-boss runs a job again
 * (its worker died, or its batch failed, after it was queued again but before
 * it completed), the second send finds its job there and queues nothing,
 * rather than starting a second chain of waits that would look back twice.
 */
function nextWait(payload: LookbackPayload): { payload: LookbackPayload; id: string } {
  const next = { ...payload, waits: (payload.waits ?? 0) + 1 };
  const hash = createHash('sha256')
    .update(JSON.stringify([next.keywordId, next.platforms ?? null, next.feedUrls ?? null, next.storefronts ?? null, next.requestedAt ?? null, next.waits]))
    .digest('hex');
  return { payload: next, id: `${hash.slice(0, 8)}-${hash.slice(8, 12)}-${hash.slice(12, 16)}-${hash.slice(16, 20)}-${hash.slice(20, 32)}` };
}

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
 * or noise, at its cap) would match nothing, so its look-back waits: it is
 * queued again a base interval on, until the keyword runs, and then reads
 * the 30 days before that moment. The job is the only record of the wait, so
 * a crash loses no look-back.
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
      if (!isRunning(keyword)) {
        const wait = nextWait(payload);
        await context.send('lookback', wait.payload, { startAfter: context.config.pollIntervalSeconds, id: wait.id });
        continue;
      }
      const now = context.clock.now();
      const since = new Date(now.getTime() - lookbackDays * 86_400_000).toISOString();
      const watched = keyword.platforms ?? searchPlatforms;
      const newKeyword = isNewKeyword(payload);
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
