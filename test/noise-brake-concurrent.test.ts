import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sql } from '../runtime/database.ts';
import { scoreWithNoiseBrake } from '../subgraphs/keywords/index.ts';
import { type MentionRow, recordScores } from '../subgraphs/mentions/index.ts';
import { addKeywords, keywordRow, newWorkspace, seedScoredMatches, storeUnscoredMatch } from './billing-seed.ts';
import { openTestDatabase } from './harness.ts';

let sql: Sql;
beforeAll(async () => {
  ({ sql } = await openTestDatabase());
});
afterAll(async () => {
  await sql?.end();
});

const day = 86_400_000;

const filtered = { relevance: 10, sentiment: 'neutral' as const, intents: [], automated: false, language: 'en', note: '' };

describe('scoring batches of one keyword at once', () => {
  // Workers score at once: each batch counted its own scores and those committed, not the other's still open, so 19 and 19 made no brake at 20.
  it('brake the keyword when together they take it to 20 scored matches under 30% relevant', async () => {
    const { workspaceId } = await newWorkspace(sql, 'Noisy together');
    const [keyword] = await addKeywords(sql, workspaceId, 1);
    const now = new Date();
    await seedScoredMatches(sql, keyword, { relevant: 0, filtered: 18 }, new Date(now.getTime() - day));
    const batches = [await storeUnscoredMatch(sql, keyword, now), await storeUnscoredMatch(sql, keyword, now)];

    let counted = 0;
    let bothCounted: () => void = () => {};
    const meeting = new Promise<void>((resolve) => (bothCounted = resolve));
    const scoreOne = (mention: MentionRow) =>
      sql.begin(async (tx) => {
        await scoreWithNoiseBrake(tx, [keyword], now, () => recordScores(tx, [{ mention, classification: filtered, commentsEnabled: false }], [], now));
        if (++counted === batches.length) bothCounted();
        // Each batch stays open until the other has counted too, unless the other waits for it.
        await Promise.race([meeting, sleep(1500)]);
      });
    await Promise.all(batches.map(scoreOne));

    expect(await keywordRow(sql, keyword.id)).toMatchObject({ muted: true, pausedForNoise: true });
  });
});
