import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Sql } from '../runtime/database.ts';
import { migrate } from '../runtime/migrate.ts';
import { makeLedgerMonths } from '../subgraphs/billing/index.ts';
import { chargedKeys, insertCredit, insertItemCharges, ledgerBalanceMismatches, newestPaidCredit } from '../subgraphs/billing/ledger-store.ts';
import { createTestDatabase } from './harness.ts';

let sql: Sql;
const workspaces = ['org_first', 'org_second'];
/** Entry times across months, on either side of a month's edge. */
const times = ['2025-01-15T10:00:00.123Z', '2025-03-31T23:59:59.999Z', '2025-04-01T00:00:00Z', '2026-06-10T08:30:00Z'];

/** Two wallets as migration 053 left them: welcome credits, top-ups, keyword days, mention and comment charges over several months. */
async function seedBeforeLedgerMonths(): Promise<void> {
  await sql`insert into workspaces (id, name) select id, id from unnest(${sql.array(workspaces)}::text[]) as w(id)`;
  await sql`insert into wallets (workspace_id, credit_epoch, last_credit_fifteenths) select id, 1, 8700 from workspaces`;
  await sql`insert into keyword_groups (id, workspace_id, name, is_default) select 'grp_' || id, id, 'Default', true from workspaces`;
  await sql`insert into keywords (id, workspace_id, group_id, term) select id || '_kw', id, 'grp_' || id, 'Acme' from workspaces`;
  await sql`
    insert into ledger_entries (id, workspace_id, kind, amount_fifteenths, idempotency_key, occurred_at)
    select 'led_welcome_' || id, id, 'welcome_credit', 8700, 'welcome:' || id, '2025-01-01T00:00:00Z' from workspaces`;
  await sql`
    insert into ledger_entries (id, workspace_id, kind, keyword_id, amount_fifteenths, idempotency_key, occurred_at)
    select 'led_' || kind || '_' || w.id || '_' || i, w.id, kind, case when kind = 'top_up' then null else w.id || '_kw' end,
           case kind when 'top_up' then 30000 when 'keyword_day' then -250 else -12 end,
           case when kind = 'keyword_day' then 'keyword_day:' || w.id || '_kw:' || (t.at at time zone 'UTC')::date
                when kind = 'top_up' then 'top_up:ord_' || w.id || '_' || i else kind || ':' || w.id || '_' || i end,
           t.at
    from unnest(${sql.array(workspaces)}::text[]) as w(id)
    cross join unnest(${sql.array(times)}::timestamptz[]) with ordinality as t(at, i)
    cross join unnest(array['top_up', 'keyword_day', 'mention', 'comment']) as kind`;
}

const snapshot = async () => ({
  ledger: await sql`select * from ledger_entries order by id`,
  wallets: await sql`select * from wallets order by workspace_id`,
  chargedItems: await sql`select * from keyword_charged_items order by keyword_id, day`,
});

let before: Awaited<ReturnType<typeof snapshot>>;
/** Read as migration 056 left it: later migrations add columns that are not the conversion's doing. */
let converted: Awaited<ReturnType<typeof snapshot>>;
const balance = async (workspaceId: string) =>
  (await sql<{ balance: number }[]>`select balance_fifteenths::float8 as balance from wallets where workspace_id = ${workspaceId}`)[0].balance;
const partitionOf = async (id: string) => (await sql<{ partition: string }[]>`select tableoid::regclass::text as partition from ledger_entries where id = ${id}`)[0]?.partition;
const month = (at: Date) => `ledger_entries_${at.toISOString().slice(0, 7).replace('-', '_')}`;

beforeAll(async () => {
  sql = connect(await createTestDatabase({ empty: true }), { max: 4 });
  await migrate(sql, { through: '053_mentions_by_month.sql' });
  await seedBeforeLedgerMonths();
  before = await snapshot();
  await migrate(sql, { through: '056_ledger_by_month.sql' });
  converted = await snapshot();
  await migrate(sql);
});
afterAll(() => sql?.end());

describe('the ledger by month (migration 056)', () => {
  it('converts a ledger without losing a row or moving a balance, each entry in the month of its time and its key kept', async () => {
    expect(before.ledger).toHaveLength(2 + workspaces.length * times.length * 4);
    expect(converted).toEqual(before);
    expect(await ledgerBalanceMismatches(sql)).toEqual([]);
    for (const { id, occurredAt } of before.ledger) expect(await partitionOf(id)).toBe(month(occurredAt));
    const keys = await sql`select idempotency_key, entry_id, workspace_id from ledger_idempotency_keys order by entry_id`;
    expect(keys).toEqual(before.ledger.map(({ idempotencyKey, id, workspaceId }) => ({ idempotencyKey, entryId: id, workspaceId })));
  });

  it('finds the newest paid credit however many months back, and none for a wallet still on its welcome credit', async () => {
    const [first, second] = workspaces;
    await sql`update wallets set on_welcome_credit = false where workspace_id = ${first}`;
    const newest = { kind: 'top_up', fifteenths: 30000, idempotencyKey: `top_up:ord_${first}_4`, occurredAt: new Date(times[3]) };
    for (const now of ['2026-06-20T00:00:00Z', '2026-11-28T00:00:00Z', '2027-03-01T00:00:00Z', '2029-01-01T00:00:00Z']) {
      expect(await newestPaidCredit(sql, first, new Date(now))).toEqual(newest);
    }
    expect(await newestPaidCredit(sql, second, new Date('2026-11-28T00:00:00Z'))).toBeUndefined();
  });

  it('charges and credits once what was charged or credited before the conversion, and a new item once into its month', async () => {
    const [workspaceId] = workspaces;
    const held = await balance(workspaceId);
    const charge = (itemId: string) => ({ workspaceId, keywordId: `${workspaceId}_kw`, kind: 'mention' as const, itemId, at: new Date() });
    expect(await chargedKeys(sql, [`mention:${workspaceId}_1`, `mention:${workspaceId}_new`])).toEqual(new Set([`mention:${workspaceId}_1`]));
    await insertItemCharges(sql, [charge(`${workspaceId}_1`), charge(`${workspaceId}_new`), charge(`${workspaceId}_new`)]);
    expect(await insertCredit(sql, { workspaceId, kind: 'top_up', fifteenths: 30000, idempotencyKey: `top_up:ord_${workspaceId}_1`, at: new Date() })).toBe(false);
    expect(await balance(workspaceId)).toBe(held - 12);
    const [fresh] = await sql<{ id: string; occurredAt: Date }[]>`select id, occurred_at from ledger_entries where idempotency_key = ${`mention:${workspaceId}_new`}`;
    expect(await partitionOf(fresh.id)).toBe(month(fresh.occurredAt));
    expect(await ledgerBalanceMismatches(sql)).toEqual([]);
  });

  it('charges an item once when two workers charge it at once', async () => {
    const [, workspaceId] = workspaces;
    const held = await balance(workspaceId);
    const charge = { workspaceId, keywordId: `${workspaceId}_kw`, kind: 'comment' as const, itemId: 'cmt_raced', at: new Date() };
    await Promise.all([1, 2].map(() => sql.begin((tx) => insertItemCharges(tx, [charge]))));
    expect(await balance(workspaceId)).toBe(held - 12);
    expect(await sql`select id from ledger_entries where idempotency_key = 'comment:cmt_raced'`).toHaveLength(1);
  });

  it('refuses a second row written by hand with a key the ledger holds; a row written by hand without one claims its key', async () => {
    const [workspaceId] = workspaces;
    const insert = (id: string) => sql`
      insert into ledger_entries (id, workspace_id, kind, amount_fifteenths, idempotency_key)
      values (${id}, ${workspaceId}, 'operator_credit', 150, 'operator:by_hand')`;
    await insert('led_by_hand_1');
    expect(await sql`select entry_id from ledger_idempotency_keys where idempotency_key = 'operator:by_hand'`).toEqual([{ entryId: 'led_by_hand_1' }]);
    await expect(insert('led_by_hand_2')).rejects.toThrow(/idempotency_key/);
    await expect(sql`
      insert into ledger_entries (id, workspace_id, kind, amount_fifteenths, idempotency_key)
      values ('led_by_hand_3', ${workspaceId}, 'operator_credit', 150, ${`top_up:ord_${workspaceId}_2`})`).rejects.toThrow(/idempotency_key/);
    expect(await ledgerBalanceMismatches(sql)).toEqual([]);
  });

  it('makes months ahead, moving an entry stored past the last month into its own without moving its balance again', async () => {
    const [workspaceId] = workspaces;
    const farAhead = new Date(Date.UTC(new Date().getUTCFullYear() + 1, 5, 15));
    expect(await insertCredit(sql, { workspaceId, kind: 'operator_credit', fifteenths: 300, idempotencyKey: 'operator:ahead', at: farAhead })).toBe(true);
    const held = await balance(workspaceId);
    const [{ id }] = await sql<{ id: string }[]>`select id from ledger_entries where idempotency_key = 'operator:ahead'`;
    expect(await partitionOf(id)).toBe('ledger_entries_later');
    await makeLedgerMonths(sql, farAhead);
    expect(await partitionOf(id)).toBe(month(farAhead));
    await makeLedgerMonths(sql, farAhead);
    expect(await balance(workspaceId)).toBe(held);
    expect(await ledgerBalanceMismatches(sql)).toEqual([]);
    expect(await insertCredit(sql, { workspaceId, kind: 'operator_credit', fifteenths: 300, idempotencyKey: 'operator:ahead', at: farAhead })).toBe(false);
  });

  it('refuses an entry, and writes no key, for a workspace without a wallet', async () => {
    await sql`insert into workspaces (id, name) values ('org_walletless', 'org_walletless')`;
    const credit = { workspaceId: 'org_walletless', kind: 'operator_credit' as const, fifteenths: 150, idempotencyKey: 'operator:walletless', at: new Date() };
    await expect(insertCredit(sql, credit)).rejects.toMatchObject({ code: '23503', constraint_name: 'ledger_entries_workspace_id_fkey' });
    await expect(sql.begin((tx) => insertItemCharges(tx, [{ workspaceId: 'org_walletless', keywordId: 'org_first_kw', kind: 'mention', itemId: 'walletless', at: new Date() }]))).rejects.toMatchObject({
      code: '23503',
    });
    expect(await sql`select idempotency_key from ledger_idempotency_keys where workspace_id = 'org_walletless'`).toEqual([]);
    expect(await sql`select id from ledger_entries where workspace_id = 'org_walletless'`).toEqual([]);
  });

  it('deletes a wallet’s entries and their keys with its workspace, and keeps the other’s', async () => {
    const [first, second] = workspaces;
    const counts = async (workspaceId: string) =>
      (
        await sql<{ entries: number; keys: number }[]>`
          select (select count(*)::int from ledger_entries where workspace_id = ${workspaceId}) as entries,
                 (select count(*)::int from ledger_idempotency_keys where workspace_id = ${workspaceId}) as keys`
      )[0];
    const kept = await counts(second);
    expect(kept.entries).toBeGreaterThan(0);
    expect(kept.keys).toBe(kept.entries);
    await sql`delete from workspaces where id = ${first}`;
    expect(await counts(first)).toEqual({ entries: 0, keys: 0 });
    expect(await counts(second)).toEqual(kept);
  });
});
