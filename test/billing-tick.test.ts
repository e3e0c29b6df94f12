import { afterAll, describe, expect, it } from 'vitest';
import { billingTickQueue } from '../jobs/billing-tick/index.ts';
import { jobDefinitions } from '../jobs/index.ts';
import type { JobContext } from '../jobs/job-definition.ts';
import { manualClock } from '../runtime/clock.ts';
import { connect, type Sql } from '../runtime/database.ts';
import { createLogger } from '../runtime/logger.ts';
import { chargeMatchedItem } from '../subgraphs/billing/charging.ts';
import { creditWalletByOperator } from '../subgraphs/billing/credits.ts';
import { chargeDailyKeywordFees } from '../subgraphs/billing/daily-tick.ts';
import { ledgerBalanceMismatches } from '../subgraphs/billing/ledger-store.ts';
import { patchKeyword } from '../subgraphs/keywords/keyword-commands.ts';
import { addKeywords, chargeMentions, eventsOf, keywordRow, leaveInWallet, newWorkspace, wallet } from './billing-seed.ts';
import { openTestDatabase, startTestEarshot, testSecrets } from './harness.ts';

const pools: Sql[] = [];
afterAll(() => Promise.all(pools.map((pool) => pool.end())));

/** A database of its own: the tick works on every wallet in it. */
async function database(): Promise<{ url: string; sql: Sql }> {
  const opened = await openTestDatabase();
  pools.push(opened.sql);
  return opened;
}

const keywordDays = (sql: Sql, day: string) =>
  sql<{ keywordId: string; times: number }[]>`
    select keyword_id, count(*)::int as times from ledger_entries
    where kind = 'keyword_day' and idempotency_key like ${`%:${day}`} group by keyword_id order by keyword_id`;

describe('the daily tick', () => {
  it('charges every unmuted keyword a day, at-cap ones too, and no muted one', async () => {
    const { sql } = await database();
    const { workspaceId } = await newWorkspace(sql);
    const [running, capped, muted] = await addKeywords(sql, workspaceId, 3);
    await sql`update keywords set paused_for_cap = true where id = ${capped.id}`;
    await sql`update keywords set muted = true where id = ${muted.id}`;
    expect(await chargeDailyKeywordFees(sql, '2028-03-02')).toEqual({ workspaces: 1, keywordDaysCharged: 2, keywordsPaused: 0, walletsPaused: 0 });
    expect(await keywordDays(sql, '2028-03-02')).toEqual([running.id, capped.id].sort().map((keywordId) => ({ keywordId, times: 1 })));
    expect(await wallet(sql, workspaceId)).toMatchObject({ balanceFifteenths: 8700 - 500, settledThrough: '2028-03-02' });
    const [row] = await sql`select occurred_at from ledger_entries where kind = 'keyword_day' limit 1`;
    expect(row.occurredAt).toEqual(new Date('2028-03-02T00:00:00Z'));
  });

  it('charges each keyword-day once when run twice', async () => {
    const { sql } = await database();
    const { workspaceId } = await newWorkspace(sql);
    const keywords = await addKeywords(sql, workspaceId, 2);
    await chargeDailyKeywordFees(sql, '2028-03-02');
    expect(await chargeDailyKeywordFees(sql, '2028-03-02')).toEqual({ workspaces: 0, keywordDaysCharged: 0, keywordsPaused: 0, walletsPaused: 0 });
    expect((await keywordDays(sql, '2028-03-02')).map((row) => row.times)).toEqual([1, 1]);
    expect((await wallet(sql, workspaceId)).balanceFifteenths).toBe(8700 - 2 * 250);
    expect(keywords).toHaveLength(2);
  });

  it('charges each keyword-day once when two workers run it at once', async () => {
    const { url, sql } = await database();
    const keywordIds: string[] = [];
    for (let i = 0; i < 40; i++) {
      const { workspaceId } = await newWorkspace(sql);
      keywordIds.push(...(await addKeywords(sql, workspaceId, 2)).map((keyword) => keyword.id));
    }
    const [first, second] = [connect(url, { max: 2 }), connect(url, { max: 2 })];
    pools.push(first, second);
    const reports = await Promise.all([first, second].map((pool) => chargeDailyKeywordFees(pool, '2028-03-02', { walletsPerTransaction: 3 })));
    expect(reports[0].keywordDaysCharged + reports[1].keywordDaysCharged).toBe(80);
    expect(reports[0].workspaces + reports[1].workspaces).toBe(40);
    expect(await keywordDays(sql, '2028-03-02')).toEqual(keywordIds.sort().map((keywordId) => ({ keywordId, times: 1 })));
    expect(await ledgerBalanceMismatches(sql)).toEqual([]);
  });

  it('charges each keyword-day once when re-run after crashing half-way', async () => {
    const { sql } = await database();
    const workspaceIds: string[] = [];
    for (let i = 0; i < 12; i++) {
      const { workspaceId } = await newWorkspace(sql);
      await addKeywords(sql, workspaceId, 1);
      workspaceIds.push(workspaceId);
    }
    const crashAt = [...workspaceIds].sort()[7];
    await sql.unsafe(`
      create function crash_on_workspace() returns trigger language plpgsql as $$
      begin
        if new.workspace_id = '${crashAt}' then raise exception 'worker crashed'; end if;
        return new;
      end $$;
      create trigger crash_tick before insert on ledger_entries for each row execute function crash_on_workspace();`);
    await expect(chargeDailyKeywordFees(sql, '2028-03-02', { walletsPerTransaction: 3 })).rejects.toThrow(/worker crashed/);
    const halfWay = (await keywordDays(sql, '2028-03-02')).length;
    expect(halfWay).toBe(6);

    await sql`drop trigger crash_tick on ledger_entries`;
    await chargeDailyKeywordFees(sql, '2028-03-02', { walletsPerTransaction: 3 });
    expect((await keywordDays(sql, '2028-03-02')).map((row) => row.times)).toEqual(Array(12).fill(1));
    for (const workspaceId of workspaceIds) expect((await wallet(sql, workspaceId)).balanceFifteenths).toBe(8700 - 250);
  });

  it('shows a keyword created today with keywordDays 0 until the next tick', async () => {
    const clock = manualClock(new Date('2028-03-05T00:00:00.000Z'));
    const earshot = await startTestEarshot({}, { clock });
    try {
      const { apiKey } = await earshot.createWorkspace();
      await chargeDailyKeywordFees(earshot.sql, '2028-03-05');
      clock.set(new Date('2028-03-05T15:00:00.000Z'));
      const created = await earshot.rest('POST', '/v1/keywords', { key: apiKey, body: { term: 'acme' } });
      expect(created.body.stats.cost.keywordDays).toBe(0);
      const walletToday = (await earshot.rest('GET', '/v1/billing/wallet', { key: apiKey })).body;
      expect(walletToday).toMatchObject({ balanceCents: 580, pendingCents: 0, effectiveCents: 580, nextDayCents: 17, daysLeft: 34, activeKeywords: 1 });

      clock.set(new Date('2028-03-06T00:00:00.000Z'));
      expect((await earshot.rest('GET', '/v1/billing/wallet', { key: apiKey })).body).toMatchObject({ pendingCents: 17, effectiveCents: 563 });
      await billingTickQueue.handle([{}], jobContext(earshot.sql, clock));
      const keyword = await earshot.rest('GET', `/v1/keywords/${created.body.id}`, { key: apiKey });
      expect(keyword.body.stats.cost).toMatchObject({ keywordDays: 1, keywordCents: 17, totalCents: 17 });
      expect((await earshot.rest('GET', '/v1/billing/wallet', { key: apiKey })).body).toMatchObject({ balanceCents: 563, pendingCents: 0, effectiveCents: 563 });
    } finally {
      await earshot.stop();
    }
  });

  it('is a pg-boss queue scheduled at UTC midnight', () => {
    expect(jobDefinitions).toContain(billingTickQueue);
    expect(billingTickQueue.schedule).toEqual({ cron: '0 0 * * *', payload: {} });
  });
});

function jobContext(sql: Sql, clock: { now(): Date }): JobContext {
  return { sql, clock, log: createLogger('silent'), config: { pollIntervalSeconds: 300, env: {} }, secrets: testSecrets, send: async () => null };
}

describe('the wallet (spec 3.2)', () => {
  const dayStart = '2028-03-02T00:00:00.000Z';

  it('pauses every running keyword when the balance cannot cover a day of each, with keyword.paused_for_balance and wallet.paused', async () => {
    const { sql } = await database();
    const { workspaceId } = await newWorkspace(sql);
    const keywords = await addKeywords(sql, workspaceId, 3);
    await leaveInWallet(sql, workspaceId, 600);
    expect(await chargeDailyKeywordFees(sql, '2028-03-02')).toEqual({ workspaces: 1, keywordDaysCharged: 0, keywordsPaused: 3, walletsPaused: 1 });
    for (const keyword of keywords) expect(await keywordRow(sql, keyword.id)).toMatchObject({ muted: true, pausedForBalance: true });
    expect((await wallet(sql, workspaceId)).balanceFifteenths).toBe(600);
    const walletAfter = { balanceCents: 40, effectiveCents: 40, nextDayCents: 0, resumeCostCents: 10, activeKeywords: 0, pausedKeywords: 3 };
    expect(await eventsOf(sql, workspaceId)).toEqual([
      ...keywords.map((keyword) => ({
        name: 'keyword.paused_for_balance',
        data: { keyword: { id: keyword.id, term: keyword.term, kind: 'brand' }, pausedAt: dayStart, wallet: walletAfter },
      })),
      { name: 'wallet.paused', data: { wallet: walletAfter, keywordsPaused: 3, at: dayStart } },
    ]);
  });

  it('lets a keyword paused for balance be unmuted by hand only while the balance covers it, sending nothing', async () => {
    const { sql } = await database();
    const { workspaceId } = await newWorkspace(sql);
    const [first, second] = await addKeywords(sql, workspaceId, 2);
    await leaveInWallet(sql, workspaceId, 300);
    await chargeDailyKeywordFees(sql, '2028-03-02');
    const eventsBefore = (await eventsOf(sql, workspaceId)).length;
    const now = new Date('2028-03-02T09:00:00Z');
    // Keywords seeded without a start owe no look-back.
    const lookback = { firstPollAt: now, send: () => Promise.reject(new Error('no look-back is owed')) };
    expect((await patchKeyword(sql, workspaceId, first.id, { muted: false }, now, {}, lookback)).keyword).toMatchObject({ muted: false, pausedForBalance: false });
    await expect(patchKeyword(sql, workspaceId, second.id, { muted: false }, now, {}, lookback)).rejects.toMatchObject({ extensions: { code: 'insufficient_balance' } });
    expect(await keywordRow(sql, second.id)).toMatchObject({ muted: true, pausedForBalance: true });
    expect(await eventsOf(sql, workspaceId)).toHaveLength(eventsBefore);
  });

  it('keeps the wallet paused when a credit does not cover a day of every keyword, and resumes them all when one does', async () => {
    const { sql } = await database();
    const { workspaceId } = await newWorkspace(sql);
    await addKeywords(sql, workspaceId, 2);
    await leaveInWallet(sql, workspaceId, 0);
    await chargeDailyKeywordFees(sql, '2028-03-02');
    expect((await sql`select count(*)::int as paused from keywords where workspace_id = ${workspaceId} and paused_for_balance`)[0].paused).toBe(2);
    const at = new Date('2028-03-02T10:00:00.000Z');
    expect(await creditWalletByOperator(sql, { workspaceId, cents: 17, at })).toEqual({ credited: true, balanceCents: 17, keywordsResumed: 0 });
    expect(await creditWalletByOperator(sql, { workspaceId, cents: 2000, at })).toEqual({ credited: true, balanceCents: 2017, keywordsResumed: 2 });
    const events = await eventsOf(sql, workspaceId);
    expect(events.map((event) => event.name)).toEqual([
      'keyword.paused_for_balance', 'keyword.paused_for_balance', 'wallet.paused', 'keyword.resumed', 'keyword.resumed', 'wallet.resumed',
    ]);
    expect(events.at(-1)!.data).toEqual({
      wallet: { balanceCents: 2017, effectiveCents: 2017, nextDayCents: 33, resumeCostCents: 0, activeKeywords: 2, pausedKeywords: 0 },
      keywordsResumed: 2,
      at: at.toISOString(),
    });
  });

  it('records wallet.low once per credit epoch when the effective balance falls to 20% of the last credit', async () => {
    const { sql } = await database();
    const { workspaceId } = await newWorkspace(sql);
    await addKeywords(sql, workspaceId, 1);
    await leaveInWallet(sql, workspaceId, 2000);
    await chargeDailyKeywordFees(sql, '2028-03-02');
    expect((await eventsOf(sql, workspaceId)).filter((event) => event.name === 'wallet.low')).toEqual([]);
    await chargeDailyKeywordFees(sql, '2028-03-03');
    await chargeDailyKeywordFees(sql, '2028-03-04');
    const firstLow = {
      name: 'wallet.low',
      data: {
        wallet: { balanceCents: 100, effectiveCents: 100, nextDayCents: 17, resumeCostCents: 0, activeKeywords: 1, pausedKeywords: 0 },
        lastCreditCents: 580,
        at: '2028-03-03T00:00:00.000Z',
      },
    };
    expect((await eventsOf(sql, workspaceId)).filter((event) => event.name === 'wallet.low')).toEqual([firstLow]);

    await creditWalletByOperator(sql, { workspaceId, cents: 2000, at: new Date('2028-03-04T12:00:00Z') });
    await leaveInWallet(sql, workspaceId, 6010);
    const [keyword] = await sql`select id, workspace_id from keywords where workspace_id = ${workspaceId}`;
    await sql.begin((tx) =>
      chargeMatchedItem(tx, { workspaceId, keywordId: keyword.id, kind: 'comment', itemId: 'cmt_1', at: new Date('2028-03-04T13:00:00Z') }),
    );
    expect((await eventsOf(sql, workspaceId)).filter((event) => event.name === 'wallet.low')).toEqual([
      firstLow,
      {
        name: 'wallet.low',
        data: {
          wallet: { balanceCents: 400, effectiveCents: 400, nextDayCents: 17, resumeCostCents: 0, activeKeywords: 1, pausedKeywords: 0 },
          lastCreditCents: 2000,
          at: '2028-03-04T13:00:00.000Z',
        },
      },
    ]);
    await chargeMentions(sql, { id: keyword.id, workspaceId }, 2, new Date('2028-03-04T14:00:00Z'));
    expect((await eventsOf(sql, workspaceId)).filter((event) => event.name === 'wallet.low')).toHaveLength(2);
  });
});
