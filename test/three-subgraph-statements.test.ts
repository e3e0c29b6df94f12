import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../runtime/logger.ts';
import { keywordMonthCosts, monthOf } from '../subgraphs/billing/index.ts';
import { loadWalletReport, loadWalletSummary } from '../subgraphs/billing/wallet-report.ts';
import { chargeKeywordDay } from '../subgraphs/billing/wallet-store.ts';
import { keywordLoaders, listKeywordsPageWithStats, sinceKey } from '../subgraphs/keywords/keyword-loaders.ts';
import { keywordMatchCounts } from '../subgraphs/mentions/index.ts';
import { saveClassification } from '../subgraphs/mentions/mention-store.ts';
import type { SubgraphContext } from '../subgraphs/subgraph-server.ts';
import { addKeywords, newWorkspace, storeUnscoredMatch } from './billing-seed.ts';
import { openTestDatabase } from './harness.ts';

const day = 86_400_000;
const now = new Date();
const windowStart = new Date(now.getTime() - 14 * day);
let sql: postgres.Sql;
let counted: postgres.Sql;
const statements: string[] = [];
let workspaceId: string;

beforeAll(async () => {
  const database = await openTestDatabase();
  sql = database.sql;
  // A pool as connect() makes it that notes every statement it sends.
  counted = postgres(database.url, { max: 2, onnotice: () => {}, transform: { column: { from: postgres.toCamel } }, debug: (_connection, query) => statements.push(query) });
  // Its array types learned first, as connectWithArrayTypes does.
  await counted`select 1`;
  ({ workspaceId } = await newWorkspace(sql));
  const keywords = await addKeywords(sql, workspaceId, 3);
  for (const [index, keyword] of keywords.entries()) {
    for (let i = 0; i <= index; i++) {
      const mention = await storeUnscoredMatch(sql, keyword, new Date(now.getTime() - i * day));
      await saveClassification(sql, mention.id, { relevance: 30 * i, sentiment: 'neutral', intents: [], automated: false, language: 'en', note: '', priority: 0 }, now);
    }
  }
  for (const keyword of keywords) await chargeKeywordDay(sql, workspaceId, keyword.id, now.toISOString().slice(0, 10));
}, 60_000);
afterAll(async () => {
  await counted?.end();
  await sql?.end();
});

/** What `read` answers and the statements it sent on the counting pool. */
async function countedRead<T>(read: () => Promise<T>): Promise<{ answer: T; statements: number }> {
  statements.length = 0;
  const answer = await read();
  return { answer, statements: statements.length };
}

describe("the three-subgraph query's subgraph reads (issue 18, aim 2)", () => {
  it("reads the wallet's figures in one statement, equal to the whole report's", async () => {
    const { answer, statements } = await countedRead(() => loadWalletSummary(counted, workspaceId, now));
    expect(statements).toBe(1);
    const { lastTopUp: _, autoRecharge: __, thisMonth: ___, ...summary } = await loadWalletReport(sql, workspaceId, now);
    expect(answer).toEqual(summary);
    expect(answer.nextDayCents).toBeGreaterThan(0);
  });

  it("reads a page of keywords and its stats' counts and costs in one statement, each as the keyword's own loaders read it", async () => {
    const ctx = { sql: counted, auth: { workspaceId, kind: 'api_key', scope: 'read', apiKeyId: 'key', expiresAt: null, userId: null }, clock: { now: () => now }, log: createLogger('silent') } as unknown as SubgraphContext;
    const { answer, statements } = await countedRead(async () => {
      const rows = await listKeywordsPageWithStats(ctx, workspaceId, { after: null, groupId: null }, 2, windowStart);
      const loaders = keywordLoaders(ctx);
      const stats = await Promise.all(rows.slice(0, 2).map(async (row) => ({ counts: await loaders.matchCounts.load(sinceKey(row.id, windowStart)), cost: await loaders.monthCost.load(row.id) })));
      return { ids: rows.map((row) => row.id), stats };
    });
    expect(statements).toBe(1);
    expect(answer.ids).toHaveLength(3);
    const shown = answer.ids.slice(0, 2);
    const costs = await keywordMonthCosts(sql, shown, monthOf(now));
    const counts = await keywordMatchCounts(sql, shown.map((keywordId) => ({ keywordId, since: windowStart })), now);
    expect(answer.stats).toEqual(shown.map((id, index) => ({ counts: counts[index], cost: costs.get(id) })));
    expect(answer.stats.every(({ counts, cost }) => counts.totals.mentions > 0 && cost?.keywordDays === 1)).toBe(true);
  });
});
