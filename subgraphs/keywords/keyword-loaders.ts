import DataLoader from 'dataloader';
import { chargedItemsSince, isOnWelcomeCredit, type KeywordMonthCost, keywordMonthCostRowsSql, keywordMonthCosts, monthCostsByKey, monthOf, zeroCost } from '../billing/index.ts';
import { type KeywordMatchCounts, keywordMatchCounts, keywordMatchCountsOfJson, keywordMatchCountsSql } from '../mentions/index.ts';
import { perRequest } from '../request-loaders.ts';
import type { SubgraphContext } from '../subgraph-server.ts';
import { countKeywordsByGroup, findCurrentGroupsOfKeywords, findGroupsByIds, type GroupRow } from './group-store.ts';
import { requireAuth } from '../require-auth.ts';
import {
  findKeywordsByIds,
  type KeywordFeedRow,
  type KeywordPageBounds,
  listKeywordsPageWithStatsRows,
  type KeywordPollRow,
  type KeywordRow,
  listFeeds,
  listPolls,
  listReviewSources,
  type ReviewSourceRow,
} from './keyword-store.ts';

const groupBy = <T extends { keywordId: string }>(keys: readonly string[], rows: T[]) =>
  keys.map((key) => rows.filter((row) => row.keywordId === key));

/** `keywordId@since` keys for loaders that count from a per-keyword instant. */
export const sinceKey = (keywordId: string, since: Date) => `${keywordId}@${since.toISOString()}`;
const parseSinceKey = (key: string) => {
  const at = key.indexOf('@');
  return { keywordId: key.slice(0, at), since: new Date(key.slice(at + 1)) };
};

function createKeywordLoaders(ctx: SubgraphContext) {
  const { sql } = ctx;
  const now = ctx.clock.now();
  return {
    now,
    /** The caller's keywords by id: a page of mentions names its keywords once each, in one query. */
    keyword: new DataLoader<string, KeywordRow | undefined>(async (ids) => {
      const rows = await findKeywordsByIds(sql, requireAuth(ctx).workspaceId, ids);
      return ids.map((id) => rows.find((row) => row.id === id));
    }),
    group: new DataLoader<string, GroupRow | undefined>(async (ids) => {
      const rows = await findGroupsByIds(sql, ids);
      return ids.map((id) => rows.find((row) => row.id === id));
    }),
    /** The group a keyword is in now, by keyword id: for a keyword whose group was deleted after the keyword was read. */
    currentGroup: new DataLoader<string, GroupRow | undefined>(async (keywordIds) => {
      const rows = await findCurrentGroupsOfKeywords(sql, requireAuth(ctx).workspaceId, keywordIds);
      return keywordIds.map((id) => rows.find((row) => row.keywordId === id));
    }),
    groupKeywordCount: new DataLoader<string, number>(async (ids) => {
      const counts = await countKeywordsByGroup(sql, ids);
      return ids.map((id) => counts.get(id) ?? 0);
    }),
    feeds: new DataLoader<string, KeywordFeedRow[]>(async (ids) => groupBy(ids, await listFeeds(sql, ids))),
    reviewSources: new DataLoader<string, ReviewSourceRow[]>(async (ids) => groupBy(ids, await listReviewSources(sql, ids))),
    polls: new DataLoader<string, KeywordPollRow[]>(async (ids) => groupBy(ids, await listPolls(sql, ids))),
    /** A keyword's lifetime figures and its matches since an instant (`sinceKey`): stats, noise and health of a page in one statement. */
    matchCounts: new DataLoader<string, KeywordMatchCounts>(async (keys) =>
      keywordMatchCounts(sql, keys.map(parseSinceKey), now),
    ),
    monthCost: new DataLoader<string, KeywordMonthCost>(async (ids) => {
      const costs = await keywordMonthCosts(sql, ids, monthOf(now));
      return ids.map((id) => costs.get(id) ?? { ...zeroCost });
    }),
    chargedItems: new DataLoader<string, number>(async (keys) => {
      const asked = keys.map(parseSinceKey);
      const used = await chargedItemsSince(sql, new Map(asked.map(({ keywordId, since }) => [keywordId, since])));
      return asked.map(({ keywordId }) => used.get(keywordId) ?? 0);
    }),
    welcome: new DataLoader<string, boolean>(async (workspaceIds) => Promise.all(workspaceIds.map((id) => isOnWelcomeCredit(sql, id)))),
  };
}

export type KeywordLoaders = ReturnType<typeof createKeywordLoaders>;

/** One set of batching loaders per request, so a page of keywords costs a fixed number of queries. */
export const keywordLoaders: (ctx: SubgraphContext) => KeywordLoaders = perRequest(createKeywordLoaders);

/**
 * A page of keywords whose stats are asked, in one statement: the page
 * (`limit` keywords and one more, which says whether a next page exists)
 * with the match counts and month costs its stats read. The loaders are
 * primed with the counts and costs, so the stats resolvers find them
 * without a statement of their own.
 */
export async function listKeywordsPageWithStats(
  ctx: SubgraphContext,
  workspaceId: string,
  page: Omit<KeywordPageBounds, 'limit'>,
  limit: number,
  statsWindowStart: Date,
): Promise<KeywordRow[]> {
  const loaders = keywordLoaders(ctx);
  const rows = await listKeywordsPageWithStatsRows(ctx.sql, workspaceId, { ...page, limit }, statsWindowStart, {
    matchCounts: (windows) => keywordMatchCountsSql(ctx.sql, windows, loaders.now),
    monthCosts: (ids) => keywordMonthCostRowsSql(ctx.sql, ids, monthOf(loaders.now)),
  });
  // Each row goes on carrying its two stats columns, which no Keyword field reads: copying the other 31 columns into a row
  // without them (a rest pattern) was a tenth of the keywords subgraph's CPU on the gateway benchmark's three-subgraph query.
  for (const row of rows) {
    for (const { since, totals, window } of keywordMatchCountsOfJson(row.matchCounts ?? [])) loaders.matchCounts.prime(sinceKey(row.id, since), { totals, window });
    for (const [keywordId, cost] of monthCostsByKey(row.monthCosts ?? [])) loaders.monthCost.prime(keywordId, cost);
  }
  return rows;
}
