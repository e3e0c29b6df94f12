import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sql } from '../runtime/database.ts';
import { recordPollFailure, syncKeywordPolls } from '../subgraphs/keywords/index.ts';
import { addKeywords, newWorkspace } from './billing-seed.ts';
import { openTestDatabase } from './harness.ts';

let sql: Sql;
beforeAll(async () => {
  ({ sql } = await openTestDatabase());
});
afterAll(async () => {
  await sql?.end();
});

describe('failed polls of one platform at once', () => {
  // Polls of a batch run at once: without a lock per platform, each read "no step reached yet" and all reported step 1.
  it('report each back-off step once, by one poll, however many fail together', async () => {
    const { workspaceId } = await newWorkspace(sql, 'Failing together');
    const keywords = await addKeywords(sql, workspaceId, 12, { platforms: ['hackernews'] });
    for (const keyword of keywords) await syncKeywordPolls(sql, keyword.id, ['hackernews'], new Date());

    const failAll = () =>
      Promise.all(
        keywords.map((keyword) =>
          recordPollFailure(sql, { platform: 'hackernews', keywordIds: [keyword.id], error: 'HTTP 503', now: new Date(), baseIntervalSeconds: 1 }),
        ),
      );
    const reportedSteps = async () => (await failAll()).filter((failure) => failure.backoffStep > failure.platformBackoffStepBefore).map((failure) => failure.backoffStep);

    expect(await reportedSteps()).toEqual([1]);
    expect(await reportedSteps()).toEqual([2]);
  });
});
