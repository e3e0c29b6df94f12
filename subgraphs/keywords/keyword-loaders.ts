import DataLoader from 'dataloader';
import { chargedItemsSince, isOnWelcomeCredit, type KeywordMonthCost, keywordMonthCosts, monthOf, zeroCost } from '../billing/index.ts';
import { type KeywordMatchCounts, keywordMatchCounts } from '../mentions/index.ts';
import { perRequest } from '../request-loaders.ts';
import type { SubgraphContext } from '../subgraph-server.ts';
import { countKeywordsByGroup, findGroupsByIds, type GroupRow } from './group-store.ts';
import { requireAuth } from '../require-auth.ts';
import {
  findKeywordsByIds,
  type KeywordFeedRow,
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
const splitSinceKeys = (keys: readonly string[]) =>
  new Map(keys.map((key) => [key.slice(0, key.indexOf('@')), new Date(key.slice(key.indexOf('@') + 1))]));

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
    groupKeywordCount: new DataLoader<string, number>(async (ids) => {
      const counts = await countKeywordsByGroup(sql, ids);
      return ids.map((id) => counts.get(id) ?? 0);
    }),
    feeds: new DataLoader<string, KeywordFeedRow[]>(async (ids) => groupBy(ids, await listFeeds(sql, ids))),
    reviewSources: new DataLoader<string, ReviewSourceRow[]>(async (ids) => groupBy(ids, await listReviewSources(sql, ids))),
    polls: new DataLoader<string, KeywordPollRow[]>(async (ids) => groupBy(ids, await listPolls(sql, ids))),
    /** A keyword's lifetime figures and its matches since an instant (`sinceKey`): stats, noise and health of a page in one statement. */
    matchCounts: new DataLoader<string, KeywordMatchCounts>(async (keys) =>
      keywordMatchCounts(
        sql,
        keys.map((key) => ({ keywordId: key.slice(0, key.indexOf('@')), since: new Date(key.slice(key.indexOf('@') + 1)) })),
        now,
      ),
    ),
    monthCost: new DataLoader<string, KeywordMonthCost>(async (ids) => {
      const costs = await keywordMonthCosts(sql, ids, monthOf(now));
      return ids.map((id) => costs.get(id) ?? { ...zeroCost });
    }),
    chargedItems: new DataLoader<string, number>(async (keys) => {
      const used = await chargedItemsSince(sql, splitSinceKeys(keys));
      return keys.map((key) => used.get(key.slice(0, key.indexOf('@'))) ?? 0);
    }),
    welcome: new DataLoader<string, boolean>(async (workspaceIds) => Promise.all(workspaceIds.map((id) => isOnWelcomeCredit(sql, id)))),
  };
}

export type KeywordLoaders = ReturnType<typeof createKeywordLoaders>;

/** One set of batching loaders per request, so a page of keywords costs a fixed number of queries. */
export const keywordLoaders: (ctx: SubgraphContext) => KeywordLoaders = perRequest(createKeywordLoaders);
