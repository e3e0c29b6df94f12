import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sql } from '../runtime/database.ts';
import { chargeDailyKeywordFees } from '../subgraphs/billing/daily-tick.ts';
import { keywordMonthCosts } from '../subgraphs/billing/keyword-cost-store.ts';
import { ledgerBalanceMismatches } from '../subgraphs/billing/ledger-store.ts';
import { addKeywords, chargeMentions, newWorkspace, wallet } from './billing-seed.ts';
import { openTestDatabase } from './harness.ts';

let sql: Sql;

beforeAll(async () => {
  ({ sql } = await openTestDatabase());
});
afterAll(() => sql?.end());

describe('the wallet and its ledger', () => {
  it('opens every wallet with the 580-cent welcome credit as one ledger row, in the first credit epoch', async () => {
    const { workspaceId } = await newWorkspace(sql);
    const entries = await sql`select kind, amount_fifteenths::int as amount, idempotency_key from ledger_entries where workspace_id = ${workspaceId}`;
    expect(entries.map((row) => ({ ...row }))).toEqual([{ kind: 'welcome_credit', amount: 8700, idempotencyKey: `welcome:${workspaceId}` }]);
    expect(await wallet(sql, workspaceId)).toMatchObject({ balanceFifteenths: 8700, onWelcomeCredit: true, creditEpoch: 1, lastCreditFifteenths: 8700 });
  });

  it('keeps every balance equal to its ledger sum through charges', async () => {
    const { workspaceId } = await newWorkspace(sql);
    const [keyword] = await addKeywords(sql, workspaceId, 1);
    await chargeMentions(sql, keyword, 3, new Date('2028-03-01T10:00:00Z'));
    await chargeDailyKeywordFees(sql, '2028-03-02');
    expect((await wallet(sql, workspaceId)).balanceFifteenths).toBe(8700 - 3 * 12 - 250);
    expect(await ledgerBalanceMismatches(sql)).toEqual([]);
  });

  it('refuses to change a ledger row: corrections are new rows', async () => {
    await expect(sql`update ledger_entries set amount_fifteenths = 0`).rejects.toThrow(/append-only/);
  });

  it('refuses a second row with the same idempotency key', async () => {
    const { workspaceId } = await newWorkspace(sql);
    const [keyword] = await addKeywords(sql, workspaceId, 1);
    const insert = () =>
      sql`insert into ledger_entries (id, workspace_id, kind, keyword_id, amount_fifteenths, idempotency_key)
          values (${`led_${Math.random()}`}, ${workspaceId}, 'mention', ${keyword.id}, -12, 'mention:mm_same')`;
    await insert();
    await expect(insert()).rejects.toThrow(/idempotency_key/);
  });
});

describe('rounding (spec 2.1.4)', () => {
  it('accrues keyword days exactly and rounds each cents figure once, on its total', async () => {
    const { workspaceId } = await newWorkspace(sql);
    const [keyword] = await addKeywords(sql, workspaceId, 1);
    const costAfter = async (day: string) => {
      await chargeDailyKeywordFees(sql, day);
      return (await keywordMonthCosts(sql, [keyword.id], '2028-04')).get(keyword.id)!;
    };
    // 500/30 = 16.67 cents a day: 17, then 33 (not 34), then 50 (not 51).
    expect(await costAfter('2028-04-01')).toMatchObject({ keywordDays: 1, keywordCents: 17 });
    expect(await costAfter('2028-04-02')).toMatchObject({ keywordDays: 2, keywordCents: 33 });
    expect(await costAfter('2028-04-03')).toMatchObject({ keywordDays: 3, keywordCents: 50, totalCents: 50 });
  });

  it('accrues mentions at 0.8 cents exactly: 1, 2, 2, 3, 4 cents for 1 to 5 of them', async () => {
    const { workspaceId } = await newWorkspace(sql);
    const [keyword] = await addKeywords(sql, workspaceId, 1);
    const cents: number[] = [];
    for (let i = 0; i < 5; i++) {
      await chargeMentions(sql, keyword, 1, new Date('2028-05-02T12:00:00Z'));
      cents.push((await keywordMonthCosts(sql, [keyword.id], '2028-05')).get(keyword.id)!.mentionCents);
    }
    expect(cents).toEqual([1, 2, 2, 3, 4]);
  });

  it('sums the three cents figures into totalCents, each rounded on its own', async () => {
    const { workspaceId } = await newWorkspace(sql);
    const [keyword] = await addKeywords(sql, workspaceId, 1);
    await chargeDailyKeywordFees(sql, '2028-06-01');
    await chargeMentions(sql, keyword, 1, new Date('2028-06-01T12:00:00Z'));
    // 16.67 + 0.8 = 17.47 would round to 17; the rule rounds 16.67 → 17 and 0.8 → 1, then adds: 18.
    expect((await keywordMonthCosts(sql, [keyword.id], '2028-06')).get(keyword.id)).toEqual({
      keywordDays: 1, keywordCents: 17, billableMentions: 1, mentionCents: 1, billableComments: 0, commentCents: 0, totalCents: 18,
    });
  });
});
