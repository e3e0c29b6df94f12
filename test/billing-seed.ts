import type { Sql } from '../runtime/database.ts';
import { newId } from '../runtime/ids.ts';
import { chargeMatchedItem, type ChargeOutcome } from '../subgraphs/billing/charging.ts';
import { findWallet, type WalletRow } from '../subgraphs/billing/wallet-store.ts';
import { createKeyword } from '../subgraphs/keywords/keyword-commands.ts';
import type { KeywordRow } from '../subgraphs/keywords/keyword-store.ts';
import { type MentionRow, storeMatchedPost } from '../subgraphs/mentions/mention-store.ts';
import { type AccountEventRow, listAccountEvents } from '../subgraphs/billing/account-event-store.ts';
import { provisionWorkspace } from '../subgraphs/team/workspace-provisioning.ts';

/** Seed builders for the billing tests: a workspace, its keywords, charges and events, through the domain functions. */

export async function newWorkspace(sql: Sql, name = 'Billing test'): Promise<{ workspaceId: string; apiKey: string }> {
  const { workspace, apiKey } = await provisionWorkspace(sql, name);
  return { workspaceId: workspace.id, apiKey };
}

export async function addKeywords(sql: Sql, workspaceId: string, count: number, input: Record<string, unknown> = {}): Promise<KeywordRow[]> {
  const keywords: KeywordRow[] = [];
  for (let i = 0; i < count; i++) keywords.push((await createKeyword(sql, workspaceId, { term: `term ${newId('t').slice(-8)}`, ...input }, {})).keyword);
  return keywords;
}

/** Charges `count` matched mentions of a keyword, each in its own transaction as ingestion does; returns the outcomes. */
export async function chargeMentions(sql: Sql, keyword: Pick<KeywordRow, 'id' | 'workspaceId'>, count: number, at: Date): Promise<ChargeOutcome[]> {
  const outcomes: ChargeOutcome[] = [];
  for (let i = 0; i < count; i++) {
    outcomes.push(
      (await sql.begin((tx) =>
        chargeMatchedItem(tx, { workspaceId: keyword.workspaceId, keywordId: keyword.id, kind: 'mention', itemId: newId('mm'), at }),
      )) as ChargeOutcome,
    );
  }
  return outcomes;
}

/**
 * Spends `fifteenths` of the wallet through the ledger, as a charge dated in
 * 2020 with no keyword, so no month the tests look at changes.
 */
export async function spendFromWallet(sql: Sql, workspaceId: string, fifteenths: number): Promise<void> {
  await sql`
    insert into ledger_entries (id, workspace_id, kind, amount_fifteenths, idempotency_key, occurred_at)
    values (${newId('led')}, ${workspaceId}, 'keyword_day', ${-fifteenths}, ${newId('seed')}, '2020-01-01T00:00:00Z')`;
}

/** Leaves exactly `fifteenths` in the wallet. */
export async function leaveInWallet(sql: Sql, workspaceId: string, fifteenths: number): Promise<void> {
  const wallet = (await findWallet(sql, workspaceId))!;
  await spendFromWallet(sql, workspaceId, wallet.balanceFifteenths - fifteenths);
}

export const wallet = async (sql: Sql, workspaceId: string): Promise<WalletRow> => (await findWallet(sql, workspaceId))!;

/** The workspace's account events as name and data, in recording order. */
export async function eventsOf(sql: Sql, workspaceId: string): Promise<Pick<AccountEventRow, 'name' | 'data'>[]> {
  return (await listAccountEvents(sql, workspaceId)).map(({ name, data }) => ({ name, data }));
}

export async function keywordRow(sql: Sql, id: string): Promise<KeywordRow> {
  const [row] = await sql<KeywordRow[]>`select * from keywords where id = ${id}`;
  return row;
}

/** One unscored exact match of a keyword, a Hacker News post published at `at`. */
export async function storeUnscoredMatch(sql: Sql, keyword: Pick<KeywordRow, 'id' | 'workspaceId'>, at: Date, text = 'a post about the keyword'): Promise<MentionRow> {
  const externalId = newId('post');
  const [mention] = await storeMatchedPost(
    sql,
    {
      platform: 'hackernews',
      externalId,
      url: `https://news.ycombinator.com/item?id=${externalId}`,
      text,
      publishedAt: at,
      replyTo: null,
      links: [],
      author: { platformId: 'pg', name: 'pg', handle: 'pg', url: 'https://news.ycombinator.com/user?id=pg', avatarUrl: null, followers: null },
    },
    [{ keywordId: keyword.id, workspaceId: keyword.workspaceId, fuzzy: false }],
  );
  return mention;
}

/** Matches of a keyword scored at `at`: `relevant` at 80, `filtered` at 10 (the relevance line is 40). */
export async function seedScoredMatches(sql: Sql, keyword: Pick<KeywordRow, 'id' | 'workspaceId'>, counts: { relevant: number; filtered: number }, at: Date): Promise<void> {
  const scores = [...Array(counts.relevant).fill(80), ...Array(counts.filtered).fill(10)];
  for (const relevance of scores) {
    const mention = await storeUnscoredMatch(sql, keyword, at);
    // The match time is the mention's partition key, kept beside its id in mention_keys.
    await sql`with keys as (update mention_keys set created_at = ${at} where id = ${mention.id})
              update mentions set relevance = ${relevance}, classified_at = ${at}, created_at = ${at} where id = ${mention.id}`;
  }
}
