import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../runtime/clock.ts';
import { newId } from '../runtime/ids.ts';
import { chargeMatchedItem } from '../subgraphs/billing/charging.ts';
import { chargeDailyKeywordFees } from '../subgraphs/billing/daily-tick.ts';
import { monthBounds } from '../subgraphs/billing/keyword-cost-store.ts';
import { chargeMentions } from './billing-seed.ts';
import { startTestEarshot, type TestEarshot } from './harness.ts';

const clock = manualClock(new Date('2028-03-10T12:00:00.000Z'));
let earshot: TestEarshot;

beforeAll(async () => {
  earshot = await startTestEarshot({}, { clock });
});
afterAll(() => earshot?.stop());

const zeroCost = { keywordDays: 0, keywordCents: 0, billableMentions: 0, mentionCents: 0, billableComments: 0, commentCents: 0, totalCents: 0 };

describe('GET /v1/billing/wallet', () => {
  it('shows a new wallet in full: the welcome credit, bounds and settings', async () => {
    const { apiKey } = await earshot.createWorkspace();
    const response = await earshot.rest('GET', '/v1/billing/wallet', { key: apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      status: 'funded',
      balanceCents: 580,
      pendingCents: 0,
      effectiveCents: 580,
      dailyBurnCents: 0,
      daysLeft: null,
      nextDayCents: 0,
      resumeCostCents: 0,
      activeKeywords: 0,
      pausedKeywords: 0,
      cappedKeywords: 0,
      mutedKeywords: 0,
      lastCreditCents: 580,
      lowBalanceCents: 116,
      onWelcomeCredit: true,
      welcomeCredit: { cents: 580, active: true, capMentions: 200, capPer: 'month' },
      lastTopUp: null,
      topUpBounds: { minCents: 2000, maxCents: 500000 },
      autoRecharge: { enabled: false, thresholdCents: null, amountCents: null, state: 'off', card: null, lastAttempt: null },
      thisMonth: zeroCost,
    });
    expect((await earshot.rest('GET', '/v1/billing/wallet')).status).toBe(401);
  });

  it('counts keywords by state and burns a day of the running ones plus the last week\'s average item spend', async () => {
    const { apiKey, workspace } = await earshot.createWorkspace();
    const ids: string[] = [];
    for (const term of ['alpha', 'beta', 'gamma']) ids.push((await earshot.rest('POST', '/v1/keywords', { key: apiKey, body: { term } })).body.id);
    await earshot.rest('PATCH', `/v1/keywords/${ids[2]}`, { key: apiKey, body: { muted: true } });
    await chargeMentions(earshot.sql, { id: ids[0], workspaceId: workspace.id }, 35, new Date('2028-03-05T08:00:00Z'));
    await chargeDailyKeywordFees(earshot.sql, '2028-03-10');
    await chargeMentions(earshot.sql, { id: ids[1], workspaceId: workspace.id }, 2, clock.now());
    // Balance: 8700 − 35·12 − 2·250 − 2·12 = 7756 fifteenths = 517 cents. Burn: 500 + 420/7 = 560 a day.
    expect((await earshot.rest('GET', '/v1/billing/wallet', { key: apiKey })).body).toMatchObject({
      status: 'funded',
      balanceCents: 517,
      pendingCents: 0,
      effectiveCents: 517,
      dailyBurnCents: 37,
      daysLeft: 13,
      nextDayCents: 33,
      activeKeywords: 2,
      pausedKeywords: 0,
      mutedKeywords: 1,
      thisMonth: { keywordDays: 2, keywordCents: 33, billableMentions: 37, mentionCents: 30, totalCents: 63 },
    });
    expect((await earshot.rest('GET', '/v1/usage', { key: apiKey })).body).toEqual({
      balanceCents: 517,
      effectiveCents: 517,
      dailyBurnCents: 37,
      daysLeft: 13,
      activeKeywords: 2,
      pausedKeywords: 0,
      matchesToday: 2,
      commentsToday: 0,
      monthToDateCents: 63,
    });
  });
});

describe('GET /v1/usage/breakdown', () => {
  it("gives every keyword a row equal to its stats.cost, deleted ones included, and the month's totals", async () => {
    const { apiKey, workspace } = await earshot.createWorkspace();
    const [kept, quiet, deleted] = await Promise.all(
      ['kept', 'quiet', 'deleted'].map(async (term) => (await earshot.rest('POST', '/v1/keywords', { key: apiKey, body: { term } })).body),
    );
    await chargeDailyKeywordFees(earshot.sql, '2028-03-09');
    await chargeMentions(earshot.sql, { id: kept.id, workspaceId: workspace.id }, 3, new Date('2028-03-09T10:00:00Z'));
    await earshot.sql.begin((tx) =>
      chargeMatchedItem(tx, { workspaceId: workspace.id, keywordId: kept.id, kind: 'comment', itemId: newId('cmt'), at: new Date('2028-03-09T11:00:00Z') }),
    );
    await chargeMentions(earshot.sql, { id: deleted.id, workspaceId: workspace.id }, 1, new Date('2028-03-09T10:00:00Z'));
    await earshot.rest('DELETE', `/v1/keywords/${deleted.id}`, { key: apiKey });

    const breakdown = await earshot.rest('GET', '/v1/usage/breakdown?month=2028-03', { key: apiKey });
    expect(breakdown.status).toBe(200);
    const rows = Object.fromEntries(breakdown.body.keywords.map((row: any) => [row.keywordId, row]));
    for (const keyword of [kept, quiet]) {
      const stats = (await earshot.rest('GET', `/v1/keywords/${keyword.id}`, { key: apiKey })).body.stats;
      expect(rows[keyword.id]).toEqual({ keywordId: keyword.id, term: keyword.term, deleted: false, ...stats.cost });
    }
    expect(rows[kept.id]).toMatchObject({ keywordDays: 1, keywordCents: 17, billableMentions: 3, mentionCents: 2, billableComments: 1, commentCents: 1, totalCents: 20 });
    expect(rows[deleted.id]).toEqual({ keywordId: deleted.id, term: null, deleted: true, ...zeroCost, keywordDays: 1, keywordCents: 17, billableMentions: 1, mentionCents: 1, totalCents: 18 });
    // Totals round each figure once on the month's sum: 3 keyword days are 50 cents, not 3 × 17.
    expect(breakdown.body.totals).toEqual({ keywordDays: 3, keywordCents: 50, billableMentions: 4, mentionCents: 3, billableComments: 1, commentCents: 1, totalCents: 54 });
    expect((await earshot.rest('GET', '/v1/usage/breakdown', { key: apiKey })).body.month).toBe('2028-03');
    expect((await earshot.rest('GET', '/v1/usage/breakdown?month=2028-02', { key: apiKey })).body.keywords.every((row: any) => row.totalCents === 0)).toBe(true);
  });

  it.each(['2028-13', '2028-3', 'march'])('refuses month=%s with 400 validation_error', async (month) => {
    const { apiKey } = await earshot.createWorkspace();
    const response = await earshot.rest('GET', `/v1/usage/breakdown?month=${month}`, { key: apiKey });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'validation_error', field: 'month' });
  });

  // 9999-12 ends in the year 10000, which PostgreSQL cannot read back (it failed with 500);
  // 0000 is before the year 1, and Date.UTC read 0000 to 0099 as 1900 to 1999.
  it.each(['0000-01', '9999-12'])('refuses month=%s, whose bounds cannot be stored, with 400 validation_error', async (month) => {
    const { apiKey } = await earshot.createWorkspace();
    const response = await earshot.rest('GET', `/v1/usage/breakdown?month=${month}`, { key: apiKey });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'validation_error', field: 'month', message: 'month: must be a month from 0001-01 to 9999-11' });
  });

  it.each(['0001-01', '0099-05', '9999-11'])('answers month=%s, far from any charge, with its keywords at zero cost', async (month) => {
    const { apiKey } = await earshot.createWorkspace();
    const keyword = (await earshot.rest('POST', '/v1/keywords', { key: apiKey, body: { term: 'far month' } })).body;
    const response = await earshot.rest('GET', `/v1/usage/breakdown?month=${month}`, { key: apiKey });
    expect(response.status).toBe(200);
    const created = month > '2028-03';
    expect(response.body).toEqual({ month, keywords: created ? [{ keywordId: keyword.id, term: 'far month', deleted: false, ...zeroCost }] : [], totals: zeroCost });
  });
});

describe('monthBounds', () => {
  it('reads the years 0001 to 0099 as written', () => {
    expect(monthBounds('0099-12')).toEqual({ from: new Date('0099-12-01T00:00:00.000Z'), to: new Date('0100-01-01T00:00:00.000Z') });
  });
});

describe('usageDays (GraphQL)', () => {
  it('lists every day of the window, oldest first, with what it cost and matched (keyword days included)', async () => {
    const { apiKey, workspace } = await earshot.createWorkspace();
    const keyword = (await earshot.rest('POST', '/v1/keywords', { key: apiKey, body: { term: 'daily chart' } })).body;
    await chargeDailyKeywordFees(earshot.sql, '2028-03-08');
    await chargeMentions(earshot.sql, { id: keyword.id, workspaceId: workspace.id }, 5, new Date('2028-03-08T23:59:00Z'));
    await chargeMentions(earshot.sql, { id: keyword.id, workspaceId: workspace.id }, 2, new Date('2028-03-10T01:00:00Z'));

    const response = await earshot.graphql('{ usageDays(days: 3) { day spentCents matches comments } }', {}, apiKey);
    expect(response.body).toEqual({
      data: {
        usageDays: [
          // A keyword day is 500/30 cents (16.67) and a mention 0.8 cents: 16.67 + 4 = 20.67, rounded once.
          { day: '2028-03-08', spentCents: 21, matches: 5, comments: 0 },
          { day: '2028-03-09', spentCents: 0, matches: 0, comments: 0 },
          { day: '2028-03-10', spentCents: 2, matches: 2, comments: 0 },
        ],
      },
    });
    expect((await earshot.graphql('{ usageDays { day } }', {}, apiKey)).body.data.usageDays).toHaveLength(30);
    const refused = await earshot.graphql('{ usageDays(days: 91) { day } }', {}, apiKey);
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'validation_error', field: 'days' });
  });
});

describe('PUT /v1/billing/auto-recharge', () => {
  it('stores the settings and reports them in the wallet', async () => {
    const { apiKey } = await earshot.createWorkspace();
    const body = { enabled: true, thresholdCents: 500, amountCents: 5000 };
    const response = await earshot.rest('PUT', '/v1/billing/auto-recharge', { key: apiKey, body });
    // No card saved yet: nothing can be charged until one is (test/billing-auto-recharge.test.ts).
    const reported = { ...body, state: 'needs_card', card: null, lastAttempt: null };
    expect(response).toMatchObject({ status: 200, body: { autoRecharge: reported } });
    expect((await earshot.rest('GET', '/v1/billing/wallet', { key: apiKey })).body.autoRecharge).toEqual(reported);
    const off = await earshot.rest('PUT', '/v1/billing/auto-recharge', { key: apiKey, body: { enabled: false } });
    expect(off.body.autoRecharge).toEqual({ enabled: false, thresholdCents: null, amountCents: null, state: 'off', card: null, lastAttempt: null });
  });

  it.each([
    [{ enabled: true, thresholdCents: 500 }, 'amountCents', 'is required when enabled'],
    [{ enabled: true, thresholdCents: 500, amountCents: 1999 }, 'amountCents', 'must be at least 2000 ($20)'],
    [{ enabled: true, thresholdCents: 500, amountCents: 500_001 }, 'amountCents', 'must be at most 500000 ($5,000)'],
    [{ enabled: true, thresholdCents: 500, amountCents: 2000.5 }, 'amountCents', 'must be whole cents'],
    [{ enabled: true, thresholdCents: -1, amountCents: 2000 }, 'thresholdCents', 'must be 0 or more'],
    [{ enabled: true, thresholdCents: 500.5, amountCents: 2000 }, 'thresholdCents', 'must be whole cents'],
  ])('refuses %j with 400 validation_error naming %s', async (body, field, rule) => {
    const { apiKey } = await earshot.createWorkspace();
    const response = await earshot.rest('PUT', '/v1/billing/auto-recharge', { key: apiKey, body });
    expect(response.status).toBe(400);
    // The same words as a top-up's amount: a recharge is a top-up paid with the saved card.
    expect(response.body.error).toMatchObject({ code: 'validation_error', field, message: `${field}: ${rule}` });
  });

  it('refuses a read-only key with 403 read_only_key', async () => {
    const { apiKey } = await earshot.createWorkspace();
    const readKey = (await earshot.rest('POST', '/v1/api-keys', { key: apiKey, body: { name: 'reader', scope: 'read' } })).body.key;
    const response = await earshot.rest('PUT', '/v1/billing/auto-recharge', { key: readKey, body: { enabled: false } });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('read_only_key');
  });
});

describe('openapi.json', () => {
  it('documents the billing routes with named schemas, and the webhook as public', async () => {
    const document = (await earshot.rest('GET', '/v1/openapi.json')).body;
    expect(document.paths['/v1/billing/wallet'].get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Wallet' });
    expect(document.paths['/v1/usage/breakdown'].get.parameters).toEqual([expect.objectContaining({ name: 'month', in: 'query', required: false })]);
    expect(document.paths['/v1/billing/stripe/webhook'].post.security).toEqual([]);
    for (const name of ['Wallet', 'Usage', 'UsageBreakdown', 'UsageBreakdownRow', 'CostTotals', 'TopUp', 'StripeWebhookReceipt']) {
      expect(document.components.schemas[name], name).toBeDefined();
    }
    expect(Object.keys(document.components.schemas.Wallet.properties)).toEqual(expect.arrayContaining(['balanceCents', 'effectiveCents', 'daysLeft', 'topUpBounds']));
  });
});
