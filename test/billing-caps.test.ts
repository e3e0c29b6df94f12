import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capPeriodsQueue } from '../jobs/cap-periods/index.ts';
import { jobDefinitions } from '../jobs/index.ts';
import { manualClock } from '../runtime/clock.ts';
import { connect, type Sql } from '../runtime/database.ts';
import { newId } from '../runtime/ids.ts';
import { createLogger } from '../runtime/logger.ts';
import { resumeCapsAtPeriodTurn } from '../subgraphs/billing/cap-transitions.ts';
import { chargeMatchedItem, type ChargeOutcome } from '../subgraphs/billing/charging.ts';
import { creditWalletByOperator } from '../subgraphs/billing/credits.ts';
import { chargeDailyKeywordFees } from '../subgraphs/billing/daily-tick.ts';
import { keywordDayFifteenths } from '../subgraphs/billing/prices.ts';
import { addKeywords, chargeMentions, eventsOf, keywordRow, leaveInWallet, newWorkspace, wallet } from './billing-seed.ts';
import { startTestEarshot, testSecrets, type TestEarshot } from './harness.ts';

const clock = manualClock(new Date('2028-03-08T09:00:00.000Z'));
let earshot: TestEarshot;
let sql: Sql;

beforeAll(async () => {
  earshot = await startTestEarshot({}, { clock });
  sql = earshot.sql;
});
afterAll(() => earshot?.stop());

/** A workspace past its welcome credit, so keywords carry their own caps. */
async function paidWorkspace() {
  const seeded = await newWorkspace(sql);
  await creditWalletByOperator(sql, { workspaceId: seeded.workspaceId, cents: 2000, at: clock.now() });
  return seeded;
}

const getKeyword = async (apiKey: string, id: string) => (await earshot.rest('GET', `/v1/keywords/${id}`, { key: apiKey })).body;
const charged = { charged: true };
const capped = { charged: false, reason: 'capped' };

describe('reaching the cap (spec 3.1)', () => {
  it('caps the keyword with resumesAt and keyword.capped; it stays unmuted, refuses more items and is still charged its day', async () => {
    const { workspaceId, apiKey } = await paidWorkspace();
    const [keyword] = await addKeywords(sql, workspaceId, 1, { cap: { mentions: 3, per: 'day' } });
    const at = new Date('2028-03-08T10:00:00.000Z');
    expect(await chargeMentions(sql, keyword, 4, at)).toEqual([charged, charged, charged, capped]);
    const view = await getKeyword(apiKey, keyword.id);
    expect(view).toMatchObject({
      muted: false,
      pausedForCap: true,
      cap: { mentions: 3, per: 'day', used: 3, welcome: false, own: 3, ownPer: 'day', resumesAt: '2028-03-09T00:00:00.000Z' },
      stats: { health: 'capped', cost: { billableMentions: 3, mentionCents: 2 } },
    });
    expect(await eventsOf(sql, workspaceId)).toEqual([
      {
        name: 'keyword.capped',
        data: {
          keyword: { id: keyword.id, term: keyword.term, kind: 'brand' },
          cap: { mentions: 3 },
          thisMonth: 3,
          pausedAt: at.toISOString(),
          resumesAt: '2028-03-09T00:00:00.000Z',
        },
      },
    ]);
    await chargeDailyKeywordFees(sql, '2028-03-09');
    expect((await sql`select count(*)::int as days from ledger_entries where keyword_id = ${keyword.id} and kind = 'keyword_day'`)[0].days).toBe(1);
  });

  it('counts a week begun in the month before for a weekly cap, and only this month for thisMonth', async () => {
    const { workspaceId } = await paidWorkspace();
    const [keyword] = await addKeywords(sql, workspaceId, 1, { cap: { mentions: 3, per: 'week' } });
    // Monday 2028-02-28 starts the week; 2 items on the 29th, then March's first fills the cap.
    expect(await chargeMentions(sql, keyword, 2, new Date('2028-02-29T10:00:00.000Z'))).toEqual([charged, charged]);
    const at = new Date('2028-03-01T10:00:00.000Z');
    expect(await chargeMentions(sql, keyword, 2, at)).toEqual([charged, capped]);
    const cappedEvents = (await eventsOf(sql, workspaceId)).filter((event) => event.name === 'keyword.capped');
    expect(cappedEvents.map((event) => event.data)).toEqual([
      { keyword: { id: keyword.id, term: keyword.term, kind: 'brand' }, cap: { mentions: 3 }, thisMonth: 1, pausedAt: at.toISOString(), resumesAt: '2028-03-06T00:00:00.000Z' },
    ]);
  });

  it('counts delivered comments with matched mentions, and refuses muted keywords and items charged before', async () => {
    const { workspaceId } = await paidWorkspace();
    const [keyword, muted] = await addKeywords(sql, workspaceId, 2, { cap: { mentions: 2, per: 'month' } });
    const at = new Date('2028-03-08T10:00:00.000Z');
    const charge = (item: { keywordId: string; kind: 'mention' | 'comment'; itemId: string }) =>
      sql.begin((tx) => chargeMatchedItem(tx, { workspaceId, at, ...item })) as Promise<ChargeOutcome>;
    expect(await charge({ keywordId: keyword.id, kind: 'mention', itemId: 'mm_a' })).toEqual(charged);
    expect(await charge({ keywordId: keyword.id, kind: 'mention', itemId: 'mm_a' })).toEqual({ charged: false, reason: 'already_charged' });
    expect(await charge({ keywordId: keyword.id, kind: 'comment', itemId: 'cmt_a' })).toEqual(charged);
    expect(await charge({ keywordId: keyword.id, kind: 'comment', itemId: 'cmt_b' })).toEqual(capped);
    expect(await keywordRow(sql, keyword.id)).toMatchObject({ pausedForCap: true });
    await sql`update keywords set muted = true where id = ${muted.id}`;
    expect(await charge({ keywordId: muted.id, kind: 'mention', itemId: 'mm_b' })).toEqual({ charged: false, reason: 'muted' });
  });
});

describe('a new cap period (UTC)', () => {
  it.each([
    ['day', '2028-03-08T10:00:00Z', '2028-03-08T23:59:59Z', '2028-03-09T00:00:00.000Z'],
    ['week', '2028-03-08T10:00:00Z', '2028-03-12T23:59:59Z', '2028-03-13T00:00:00.000Z'],
    ['month', '2028-02-29T10:00:00Z', '2028-02-29T23:59:59Z', '2028-03-01T00:00:00.000Z'],
  ] as const)('resumes a keyword capped per %s when its next period starts, with month_turned', async (per, chargedAt, before, turn) => {
    const { workspaceId, apiKey } = await paidWorkspace();
    const [keyword] = await addKeywords(sql, workspaceId, 1, { cap: { mentions: 2, per } });
    await chargeMentions(sql, keyword, 2, new Date(chargedAt));
    clock.set(new Date(chargedAt));
    expect((await getKeyword(apiKey, keyword.id)).cap).toMatchObject({ used: 2, resumesAt: turn });

    await resumeCapsAtPeriodTurn(sql, new Date(before));
    expect(await keywordRow(sql, keyword.id)).toMatchObject({ pausedForCap: true });
    clock.set(new Date(turn));
    await capPeriodsQueue.handle([{}], { sql, clock, log: createLogger('silent'), config: { pollIntervalSeconds: 300, env: {} }, secrets: testSecrets, send: async () => null });
    expect(await keywordRow(sql, keyword.id)).toMatchObject({ pausedForCap: false, muted: false });
    expect((await getKeyword(apiKey, keyword.id)).cap).toMatchObject({ used: 0, resumesAt: null });
    expect((await eventsOf(sql, workspaceId)).at(-1)).toEqual({
      name: 'keyword.resumed',
      data: { keyword: { id: keyword.id, term: keyword.term, kind: 'brand' }, reason: 'month_turned', resumedAt: turn },
    });
    expect(await chargeMentions(sql, keyword, 1, new Date(turn))).toEqual([charged]);
  });

  it('is a pg-boss queue scheduled at UTC midnight', () => {
    expect(jobDefinitions).toContain(capPeriodsQueue);
    expect(capPeriodsQueue.schedule).toEqual({ cron: '0 0 * * *', payload: {} });
  });

  it('counts a leap day in February and charges it to February', async () => {
    const { workspaceId, apiKey } = await paidWorkspace();
    const [keyword] = await addKeywords(sql, workspaceId, 1);
    for (const day of ['2028-02-28', '2028-02-29', '2028-03-01']) await chargeDailyKeywordFees(sql, day);
    const breakdown = async (month: string) =>
      (await earshot.rest('GET', `/v1/usage/breakdown?month=${month}`, { key: apiKey })).body.keywords.find((row: any) => row.keywordId === keyword.id);
    expect(await breakdown('2028-02')).toMatchObject({ keywordDays: 2, keywordCents: 33 });
    expect(await breakdown('2028-03')).toMatchObject({ keywordDays: 1, keywordCents: 17 });
  });
});

const patch = (apiKey: string, id: string, cap: unknown) => earshot.rest('PATCH', `/v1/keywords/${id}`, { key: apiKey, body: { cap } });

describe('PATCH cap (spec 3.1)', () => {
  it('resumes at once with cap_raised above the count, and with cap_removed for null', async () => {
    clock.set(new Date('2028-03-08T11:00:00.000Z'));
    const { workspaceId, apiKey } = await paidWorkspace();
    const [keyword] = await addKeywords(sql, workspaceId, 1, { cap: { mentions: 2, per: 'month' } });
    await chargeMentions(sql, keyword, 2, clock.now());

    const notEnough = await patch(apiKey, keyword.id, { mentions: 2, per: 'month' });
    expect(notEnough.body).toMatchObject({ pausedForCap: true, cap: { mentions: 2, used: 2 } });
    const raised = await patch(apiKey, keyword.id, { mentions: 3 });
    expect(raised.body).toMatchObject({ pausedForCap: false, cap: { mentions: 3, used: 2, resumesAt: null } });
    await chargeMentions(sql, keyword, 1, clock.now());
    const removed = await patch(apiKey, keyword.id, null);
    expect(removed.body).toMatchObject({ pausedForCap: false, cap: null });
    const reasons = (await eventsOf(sql, workspaceId)).map((event) => [event.name, event.data.reason ?? null]);
    expect(reasons).toEqual([
      ['keyword.capped', null],
      ['keyword.resumed', 'cap_raised'],
      ['keyword.capped', null],
      ['keyword.resumed', 'cap_removed'],
    ]);
  });

  it('caps at once when set at or under the current count, and a shorter period can resume', async () => {
    clock.set(new Date('2028-03-08T11:00:00.000Z'));
    const { workspaceId, apiKey } = await paidWorkspace();
    const [keyword] = await addKeywords(sql, workspaceId, 1);
    await chargeMentions(sql, keyword, 3, new Date('2028-03-07T11:00:00.000Z'));
    await chargeMentions(sql, keyword, 1, clock.now());
    const atCount = await patch(apiKey, keyword.id, { mentions: 4, per: 'month' });
    expect(atCount.body).toMatchObject({ muted: false, pausedForCap: true, cap: { mentions: 4, per: 'month', used: 4, resumesAt: '2028-04-01T00:00:00.000Z' } });
    expect((await eventsOf(sql, workspaceId)).at(-1)).toMatchObject({ name: 'keyword.capped', data: { cap: { mentions: 4 }, thisMonth: 4 } });
    const daily = await patch(apiKey, keyword.id, { mentions: 4, per: 'day' });
    expect(daily.body).toMatchObject({ pausedForCap: false, cap: { mentions: 4, per: 'day', used: 1 } });
    expect((await eventsOf(sql, workspaceId)).at(-1)).toMatchObject({ name: 'keyword.resumed', data: { reason: 'cap_raised' } });
  });
});

describe('muting by hand (spec 3.1)', () => {
  it('mutes and unmutes with no account event, and a muted keyword is neither charged a day nor matched', async () => {
    const { workspaceId, apiKey } = await paidWorkspace();
    const [keyword] = await addKeywords(sql, workspaceId, 1);
    expect((await earshot.rest('PATCH', `/v1/keywords/${keyword.id}`, { key: apiKey, body: { muted: true } })).body).toMatchObject({ muted: true });
    expect(await chargeMentions(sql, keyword, 1, clock.now())).toEqual([{ charged: false, reason: 'muted' }]);
    await chargeDailyKeywordFees(sql, '2028-03-20');
    expect((await earshot.rest('PATCH', `/v1/keywords/${keyword.id}`, { key: apiKey, body: { muted: false } })).body).toMatchObject({ muted: false });
    expect((await sql`select count(*)::int as charges from ledger_entries where keyword_id = ${keyword.id}`)[0].charges).toBe(0);
    expect(await eventsOf(sql, workspaceId)).toEqual([]);
  });
});

describe('the welcome cap (spec 2.1.1)', () => {
  it('applies 200 a month on welcome credit whatever the own cap, and hands the own cap back at the first top-up', async () => {
    clock.set(new Date('2028-03-08T12:00:00.000Z'));
    const { workspaceId, apiKey } = await newWorkspace(sql);
    const [own, none] = await addKeywords(sql, workspaceId, 2);
    expect((await patch(apiKey, own.id, { mentions: 5, per: 'day' })).body).toMatchObject({
      pausedForCap: false,
      cap: { mentions: 200, per: 'month', used: 0, welcome: true, own: 5, ownPer: 'day', resumesAt: null },
    });
    expect(await chargeMentions(sql, own, 6, clock.now())).toEqual(Array(6).fill(charged));
    const outcomes = await chargeMentions(sql, none, 201, clock.now());
    expect(outcomes.filter((outcome) => outcome.charged)).toHaveLength(200);
    expect(outcomes.at(-1)).toEqual(capped);
    expect((await getKeyword(apiKey, none.id)).cap).toMatchObject({ mentions: 200, used: 200, welcome: true, own: null, resumesAt: '2028-04-01T00:00:00.000Z' });

    await creditWalletByOperator(sql, { workspaceId, cents: 2000, at: clock.now() });
    expect((await getKeyword(apiKey, own.id))).toMatchObject({
      pausedForCap: true,
      cap: { mentions: 5, per: 'day', used: 6, welcome: false, own: 5, ownPer: 'day', resumesAt: '2028-03-09T00:00:00.000Z' },
    });
    expect((await getKeyword(apiKey, none.id))).toMatchObject({ pausedForCap: false, cap: null });
    const events = (await eventsOf(sql, workspaceId)).map((event) => [event.name, (event.data.keyword as { id: string }).id, event.data.reason ?? null]);
    expect(events).toEqual([
      ['keyword.capped', none.id, null],
      ['keyword.capped', own.id, null],
      ['keyword.resumed', none.id, 'cap_removed'],
    ]);
  });
});

describe('charging from two connections at once', () => {
  const pools: Sql[] = [];
  afterAll(() => Promise.all(pools.map((pool) => pool.end())));

  async function chargeConcurrently(keyword: { id: string; workspaceId: string }, items: number): Promise<ChargeOutcome[]> {
    const [first, second] = [connect(earshot.databaseUrl, { max: 5 }), connect(earshot.databaseUrl, { max: 5 })];
    pools.push(first, second);
    return Promise.all(
      Array.from({ length: items }, (_, i) =>
        (i % 2 ? first : second).begin((tx) =>
          chargeMatchedItem(tx, { workspaceId: keyword.workspaceId, keywordId: keyword.id, kind: 'mention', itemId: newId('mm'), at: clock.now() }),
        ) as Promise<ChargeOutcome>,
      ),
    );
  }

  it('never takes a keyword past its cap', async () => {
    const { workspaceId } = await paidWorkspace();
    const [keyword] = await addKeywords(sql, workspaceId, 1, { cap: { mentions: 5, per: 'month' } });
    const outcomes = await chargeConcurrently(keyword, 30);
    expect(outcomes.filter((outcome) => outcome.charged)).toHaveLength(5);
    expect(outcomes.filter((outcome) => !outcome.charged && outcome.reason === 'capped')).toHaveLength(25);
    expect((await sql`select count(*)::int as items from ledger_entries where keyword_id = ${keyword.id} and kind = 'mention'`)[0].items).toBe(5);
    expect((await eventsOf(sql, workspaceId)).filter((event) => event.name === 'keyword.capped')).toHaveLength(1);
  });

  it('never charges past the item that leaves the wallet short of a day of its keyword, and pauses it once', async () => {
    const { workspaceId } = await paidWorkspace();
    const [keyword] = await addKeywords(sql, workspaceId, 1);
    await chargeDailyKeywordFees(sql, '2028-03-08');
    await leaveInWallet(sql, workspaceId, keywordDayFifteenths + 3 * 12 - 1);
    const outcomes = await chargeConcurrently(keyword, 20);
    expect(outcomes.filter((outcome) => outcome.charged)).toHaveLength(3);
    expect(outcomes.filter((outcome) => !outcome.charged && outcome.reason === 'muted')).toHaveLength(17);
    expect((await wallet(sql, workspaceId)).balanceFifteenths).toBe(keywordDayFifteenths - 1);
    expect((await eventsOf(sql, workspaceId)).map((event) => event.name)).toEqual(['wallet.low', 'keyword.paused_for_balance', 'wallet.paused']);
  });
});
