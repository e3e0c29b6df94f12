import { createMatcher, type KeywordMatchRules, loadActiveMatchRules, type Matcher, searchKey } from '../../subgraphs/keywords/index.ts';
import { findStreamCursor, saveStreamCursor } from '../../subgraphs/mentions/index.ts';
import { startJetstream } from '../connectors/bluesky-jetstream.ts';
import { ingestPosts } from '../ingest-posts.ts';
import { runPoll } from '../poll/index.ts';
import type { JobContext } from '../job-definition.ts';

const cursorName = 'bluesky-jetstream';
/** How often the live matcher picks up keyword changes: every 15 s, or each poll interval when that is shorter. */
const rulesRefreshMs = (pollIntervalSeconds: number) => Math.min(15_000, pollIntervalSeconds * 1000);

/** How far before the last post seen a search that stands in for the stream starts, as the poll scheduler overlaps its polls. */
const searchOverlapMs = 3_600_000;

/** One `searchPosts` per term and phrase rule, for every keyword asking it. */
function searchesOf(rules: readonly KeywordMatchRules[]): { term: string; exactPhrase: boolean; keywordIds: string[] }[] {
  const searches = new Map<string, { term: string; exactPhrase: boolean; keywordIds: string[] }>();
  for (const rule of rules) {
    const key = searchKey('bluesky', rule.term, rule.exactPhrase);
    const search = searches.get(key) ?? { term: rule.term, exactPhrase: rule.exactPhrase, keywordIds: [] };
    search.keywordIds.push(rule.keywordId);
    searches.set(key, search);
  }
  return [...searches.values()];
}

/**
 * Follows Bluesky live through Jetstream, matching every post against every
 * active keyword that watches Bluesky, and keeps the stream's `time_us`
 * cursor in PostgreSQL so a restart resumes without loss (storage
 * de-duplicates the small overlap).
 *
 * While Jetstream cannot be reached, Bluesky is searched instead
 * (`searchPosts`, as a new keyword's look-back does) once a base poll
 * interval, from an hour before the last post seen: with the stream down a
 * post would otherwise wait for it to come back, however long, and past
 * Jetstream's replay window be lost.
 */
export async function startBlueskyLive(context: JobContext): Promise<{ stop(): Promise<void> }> {
  let matcher: Matcher = createMatcher([], new Map());
  let activeRules: KeywordMatchRules[] = [];
  const refresh = async () => {
    const { rules, filters } = await loadActiveMatchRules(context.sql, { platform: 'bluesky' });
    matcher = createMatcher(rules, filters);
    activeRules = rules;
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
  const startedAt = context.clock.now();
  /** Where the searches standing in for the stream have read up to; null while the stream works. */
  let searchedUntil: Date | null = null;
  const searchWhileDown = async () => {
    if (!stream.failing()) {
      searchedUntil = null;
      return;
    }
    const now = context.clock.now();
    const lastSeen = stream.cursor();
    const from = searchedUntil ?? (lastSeen !== null ? new Date(lastSeen / 1000) : startedAt);
    const since = new Date(from.getTime() - searchOverlapMs).toISOString();
    // Run here rather than queued, so a round slower than the interval delays the next instead of piling up behind it.
    await Promise.all(searchesOf(activeRules).map((search) => runPoll({ platform: 'bluesky', ...search, since, lookback: false }, context)));
    searchedUntil = now;
  };
  let stopped = false;
  let searchTimer: NodeJS.Timeout | undefined;
  let searching: Promise<void> = Promise.resolve();
  const searchAfterAnInterval = () => {
    if (stopped) return;
    searchTimer = setTimeout(() => {
      searching = searchWhileDown()
        .catch((error) => context.log.error('bluesky search while the stream is down failed', { error: String(error) }))
        .finally(searchAfterAnInterval);
    }, Math.max(1000, context.config.pollIntervalSeconds * 1000));
  };
  searchAfterAnInterval();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearTimeout(searchTimer);
      await searching;
      await stream.stop();
    },
  };
}
