import { claimDuePolls, recordUnpolledPlatforms, startLookbacksOfRunningKeywords } from '../../subgraphs/keywords/index.ts';
import { claimDueCommentWatches } from '../../subgraphs/mentions/index.ts';
import { platformAvailability } from '../connectors/platform-availability.ts';
import type { JobContext } from '../job-definition.ts';

const hour = 3_600_000;
/**
 * How long a poll or a thread read handed to its queue stays leased (an hour,
 * the cadence of the shortest thread windows, or two poll intervals if
 * longer). A job is not lost short of failing for good (worker-registry.ts),
 * so the lease only has to bring such a job back; a shorter one sent every
 * waiting poll again each time a backlog outlasted it, so copies piled up
 * faster than the workers drained them.
 */
const minimumLeaseSeconds = 3600;
/** Polls a worker hands out per pass; the rest are due on the next pass. */
const claimLimit = 500;

/**
 * Hands due polls, and due thread reads, to their queues on a timer, after the
 * look-backs owed to keywords that run again. State lives in
 * keyword_polls (each claimed row is leased, and sent as a job in the same
 * transaction), so any number of workers can run this and a crash loses no poll.
 *
 * Platforms this process has no settings for are said once, in the start-up
 * table, and never polled: their polls carry the reason instead and stay due,
 * so a restart with the setting in place polls them at once.
 */
export function startPollScheduler(context: JobContext): { stop(): Promise<void> } {
  const base = context.config.pollIntervalSeconds;
  const leaseSeconds = Math.max(minimumLeaseSeconds, base * 2);
  const platforms = platformAvailability(context.config.env);
  const unpolled = platforms.flatMap((entry) => (entry.enabled ? [] : [entry]));
  context.log.info(`platforms: ${platforms.length - unpolled.length} enabled, ${unpolled.length} disabled`, {
    enabled: platforms.filter((entry) => entry.enabled).map((entry) => entry.platform),
    disabled: Object.fromEntries(unpolled.map(({ platform, reason }) => [platform, reason])),
  });
  let running: Promise<void> = Promise.resolve();
  const pass = async () => {
    const now = context.clock.now();
    await recordUnpolledPlatforms(context.sql, unpolled, now);
    const skipped = unpolled.map((entry) => entry.platform);
    // A lease and the job it becomes commit together: a crash between them would leave the poll waiting out its lease.
    await context.sql.begin(async (tx) => {
      // Keywords billing started since the last pass get the look-back they were owed first: their overdue polls then wait an interval behind it.
      const firstPollAt = new Date(now.getTime() + base * 1000);
      await startLookbacksOfRunningKeywords(tx, firstPollAt, claimLimit, (transaction, lookback) => context.send('lookback', lookback, { transaction }));
      const { searches, sources } = await claimDuePolls(tx, now, leaseSeconds, claimLimit, skipped);
      for (const search of searches) {
        // Overlap the last poll by an hour: late-indexed posts still arrive, and storage de-duplicates.
        const since = search.lastPolledAt ? new Date(search.lastPolledAt.getTime() - hour) : new Date(now.getTime() - 24 * hour);
        await context.send('poll', { ...search, since: since.toISOString(), lookback: false }, { transaction: tx });
      }
      for (const source of sources) {
        const since = source.lastPolledAt ? new Date(source.lastPolledAt.getTime() - hour) : new Date(now.getTime() - 24 * hour);
        await context.send('poll-sources', { keywordId: source.keywordId, platform: source.platform, since: since.toISOString(), lookback: false }, { transaction: tx });
      }
    });
    await context.sql.begin(async (tx) => {
      const threads = await claimDueCommentWatches(tx, now, leaseSeconds, claimLimit);
      for (let i = 0; i < threads.length; i += 10) {
        const watches = threads.slice(i, i + 10).map((watch) => ({
          mentionId: watch.mentionId,
          lastCheckedAt: watch.lastCheckedAt?.toISOString() ?? null,
          until: watch.until.toISOString(),
        }));
        await context.send('comments', { watches }, { transaction: tx });
      }
    });
  };
  const timer = setInterval(() => {
    running = running.then(pass).catch((error) => context.log.error('poll scheduling failed', { error: String(error) }));
  }, Math.max(1000, (base * 1000) / 4));
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
