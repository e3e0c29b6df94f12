import type { Sql } from '../runtime/database.ts';
import { walletCoversAnotherDay } from '../subgraphs/billing/keyword-accounting-store.ts';
import { chargeKeywordDay } from '../subgraphs/billing/wallet-store.ts';

/**
 * Spends the workspace's wallet on past keyword days of `keywordId` until it
 * cannot cover one more day of one more keyword than `roomFor`. The days are
 * from 2020, so this month's costs stay as they were.
 */
export async function drainWallet(sql: Sql, workspaceId: string, keywordId: string, roomFor = 0): Promise<void> {
  const day = new Date(Date.UTC(2020, 0, 1));
  while (await walletCoversAnotherDay(sql, workspaceId, roomFor + 1, new Date())) {
    await chargeKeywordDay(sql, workspaceId, keywordId, day.toISOString().slice(0, 10));
    day.setUTCDate(day.getUTCDate() + 1);
  }
}
