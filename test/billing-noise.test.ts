import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../runtime/clock.ts';
import type { Sql } from '../runtime/database.ts';
import { creditWalletByOperator } from '../subgraphs/billing/credits.ts';
import { chargeDailyKeywordFees } from '../subgraphs/billing/daily-tick.ts';
import { applyNoiseBrake, type BrakedKeyword } from '../subgraphs/keywords/noise-brake.ts';
import { addKeywords, eventsOf, keywordRow, leaveInWallet, newWorkspace, seedScoredMatches } from './billing-seed.ts';
import { startTestEarshot, type TestEarshot } from './harness.ts';

const now = new Date('2028-03-20T12:00:00.000Z');
const fiveDaysAgo = new Date('2028-03-15T12:00:00.000Z');
const clock = manualClock(now);
let earshot: TestEarshot;
let sql: Sql;

beforeAll(async () => {
  earshot = await startTestEarshot({}, { clock });
  sql = earshot.sql;
});
afterAll(() => earshot?.stop());

const brake = (keywords: BrakedKeyword[]) => sql.begin((tx) => applyNoiseBrake(tx, keywords, now)) as Promise<string[]>;

/** A workspace on its welcome credit, settled for today, with one keyword the brake has muted. */
async function mutedForNoise() {
  const { workspaceId, apiKey } = await newWorkspace(sql);
  const [keyword] = await addKeywords(sql, workspaceId, 1);
  await chargeDailyKeywordFees(sql, '2028-03-20');
  await seedScoredMatches(sql, keyword, { relevant: 5, filtered: 15 }, fiveDaysAgo);
  expect(await brake([keyword])).toEqual([keyword.id]);
  return { workspaceId, apiKey, keyword };
}

const patch = (apiKey: string, id: string, body: unknown) => earshot.rest('PATCH', `/v1/keywords/${id}`, { key: apiKey, body });

describe('the noise brake (spec 3.1)', () => {
  it('mutes a keyword on welcome credit with 20 scored matches under 30% relevant in 14 days, recording no event', async () => {
    const { workspaceId, apiKey, keyword } = await mutedForNoise();
    expect(await keywordRow(sql, keyword.id)).toMatchObject({ muted: true, pausedForNoise: true, pausedForBalance: false });
    const view = (await earshot.rest('GET', `/v1/keywords/${keyword.id}`, { key: apiKey })).body;
    expect(view).toMatchObject({ muted: true, pausedForNoise: true, stats: { health: 'paused', noise: { scored: 20, relevant: 5, noisy: true } } });
    expect(await eventsOf(sql, workspaceId)).toEqual([]);
  });

  it('spares 30% relevant, 19 scored, matches older than 14 days, and keywords already muted', async () => {
    const { workspaceId } = await newWorkspace(sql);
    const [atThirty, nineteen, old, muted] = await addKeywords(sql, workspaceId, 4);
    await seedScoredMatches(sql, atThirty, { relevant: 6, filtered: 14 }, fiveDaysAgo);
    await seedScoredMatches(sql, nineteen, { relevant: 0, filtered: 19 }, fiveDaysAgo);
    await seedScoredMatches(sql, old, { relevant: 0, filtered: 20 }, new Date('2028-03-05T12:00:00Z'));
    await seedScoredMatches(sql, muted, { relevant: 0, filtered: 20 }, fiveDaysAgo);
    await sql`update keywords set muted = true where id = ${muted.id}`;
    expect(await brake([atThirty, nineteen, old, muted])).toEqual([]);
    expect(await keywordRow(sql, muted.id)).toMatchObject({ muted: true, pausedForNoise: false });
  });

  it('spares a workspace past its welcome credit', async () => {
    const { workspaceId } = await newWorkspace(sql);
    await creditWalletByOperator(sql, { workspaceId, cents: 2000, at: now });
    const [keyword] = await addKeywords(sql, workspaceId, 1);
    await seedScoredMatches(sql, keyword, { relevant: 0, filtered: 25 }, fiveDaysAgo);
    expect(await brake([keyword])).toEqual([]);
  });

  it('resumes on a change of excluded terms when the balance covers another day, and judges the keyword afresh', async () => {
    const { apiKey, keyword } = await mutedForNoise();
    const changed = await patch(apiKey, keyword.id, { matching: { excludedTerms: ['giveaway'] } });
    expect(changed.body).toMatchObject({ muted: false, pausedForNoise: false });
    expect(await brake([keyword])).toEqual([]);
  });

  it.each([
    ['required terms', { matching: { requiredTerms: ['api'] } }],
    ['platforms', { platforms: ['hackernews'] }],
    ['context', { context: 'The developer tool, not the fruit' }],
  ])('resumes on a change of %s too', async (_what, body) => {
    const { apiKey, keyword } = await mutedForNoise();
    expect((await patch(apiKey, keyword.id, body)).body).toMatchObject({ muted: false, pausedForNoise: false });
  });

  it('stays paused on a change when the balance cannot cover another day, and on a change of anything else', async () => {
    const { workspaceId, apiKey, keyword } = await mutedForNoise();
    expect((await patch(apiKey, keyword.id, { kind: 'competitor' })).body).toMatchObject({ muted: true, pausedForNoise: true });
    await leaveInWallet(sql, workspaceId, 249);
    expect((await patch(apiKey, keyword.id, { context: 'Something else' })).body).toMatchObject({ muted: true, pausedForNoise: true });
  });

  it('is not resumed by a top-up, but is by unmuting', async () => {
    const { workspaceId, apiKey, keyword } = await mutedForNoise();
    await creditWalletByOperator(sql, { workspaceId, cents: 2000, at: now });
    expect(await keywordRow(sql, keyword.id)).toMatchObject({ muted: true, pausedForNoise: true });
    expect((await patch(apiKey, keyword.id, { muted: false })).body).toMatchObject({ muted: false, pausedForNoise: false });
    expect(await eventsOf(sql, workspaceId)).toEqual([]);
  });
});
