import { createMatcher, loadActiveMatchRules, type Matcher } from '../../subgraphs/keywords/index.ts';
import { findStreamCursor, saveStreamCursor } from '../../subgraphs/mentions/index.ts';
import { startJetstream } from '../connectors/bluesky-jetstream.ts';
import { ingestPosts } from '../ingest-posts.ts';
import type { JobContext } from '../job-definition.ts';

const cursorName = 'bluesky-jetstream';
/** How often the live matcher picks up keyword changes: every 15 s, or each poll interval when that is shorter. */
const rulesRefreshMs = (pollIntervalSeconds: number) => Math.min(15_000, pollIntervalSeconds * 1000);

/**
 * Follows Bluesky live through Jetstream, matching every post against every
 * active keyword that watches Bluesky, and keeps the stream's `time_us`
 * cursor in PostgreSQL so a restart resumes without loss (storage
 * de-duplicates the small overlap).
 */
export async function startBlueskyLive(context: JobContext): Promise<{ stop(): Promise<void> }> {
  let matcher: Matcher = createMatcher([], new Map());
  const refresh = async () => {
    const { rules, filters } = await loadActiveMatchRules(context.sql, { platform: 'bluesky' });
    matcher = createMatcher(rules, filters);
  };
  await refresh();
  const timer = setInterval(
    () => void refresh().catch((error) => context.log.error('live rules refresh failed', { error: String(error) })),
    rulesRefreshMs(context.config.pollIntervalSeconds),
  );
  const saved = await findStreamCursor(context.sql, cursorName);
  const stream = startJetstream({
    env: context.config.env,
    cursor: saved ? Number(saved) : null,
    logger: context.log,
    onPost: async (post) => {
      await ingestPosts(context, [post], (candidate) => matcher.match(candidate));
    },
    onCursor: (timeUs) => saveStreamCursor(context.sql, cursorName, String(timeUs)),
  });
  return {
    async stop() {
      clearInterval(timer);
      await stream.stop();
    },
  };
}
