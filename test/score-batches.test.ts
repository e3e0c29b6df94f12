import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import type { JobContext } from '../jobs/job-definition.ts';
import { scoreQueue } from '../jobs/score/index.ts';
import { systemClock } from '../runtime/clock.ts';
import { createLogger } from '../runtime/logger.ts';
import { creditWalletByOperator } from '../subgraphs/billing/credits.ts';
import { recordScores } from '../subgraphs/mentions/index.ts';
import { apolloVerdicts } from './apollo-verdicts.ts';
import { addKeywords, newWorkspace, storeUnscoredMatch } from './billing-seed.ts';
import { openTestDatabase, testSecrets } from './harness.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Five scoring jobs of four unscored mentions each, of one keyword of the workspace. */
async function unscoredBatch(sql: postgres.Sql, workspaceId: string) {
  const [keyword] = await addKeywords(sql, workspaceId, 1, { term: 'keyword', platforms: ['hackernews'] });
  const payloads = [];
  for (let job = 0; job < 5; job++) {
    const mentionIds = [];
    for (let i = 0; i < 4; i++) mentionIds.push((await storeUnscoredMatch(sql, keyword, new Date())).id);
    payloads.push({ mentionIds, attempt: 0 });
  }
  return payloads;
}

/** A pool as connect() makes it that notes every statement it sends. */
function countingPool(url: string) {
  const statements: string[] = [];
  const counted = postgres(url, { max: 2, onnotice: () => {}, transform: { column: { from: postgres.toCamel } }, debug: (_connection, query) => statements.push(query) });
  cleanups.push(() => counted.end());
  return { counted, statements, named: (name: string) => statements.filter((statement) => statement.includes(`/* ${name} */`)).length };
}

/** Scores the jobs as one batch on a pool of its own, counting its statements. */
async function scoreCounted(url: string, payloads: { mentionIds: string[]; attempt: number }[]) {
  const { counted, statements, named } = countingPool(url);
  // Its array types learned first, as connectWithArrayTypes does.
  await counted`select 1`;
  statements.length = 0;
  const context: JobContext = { sql: counted, clock: systemClock, log: createLogger('silent'), config: { pollIntervalSeconds: 300, env: {} }, secrets: testSecrets, send: async () => null };
  await scoreQueue.handle(payloads, context);
  return { named, transactions: statements.filter((statement) => /^begin\b/i.test(statement.trim())).length };
}

describe('a batch of scoring jobs', () => {
  // Job by job, a backlog (after a restart, 630 mentions) drained at one set of round trips per 20 mentions.
  it('is scored in one pass: its mentions and keywords read once, scored in one transaction, every one of them scored', async () => {
    const { url, sql } = await openTestDatabase();
    cleanups.push(() => sql.end());
    const { workspaceId } = await newWorkspace(sql);
    const { named, transactions } = await scoreCounted(url, await unscoredBatch(sql, workspaceId));
    // The mentions are read whole once, before classifying: their workspace has no alert rule or Slack notifications to build bodies for.
    expect({ keywordReads: named('findKeywordsByIdsAnyWorkspace'), mentionReads: named('findMentionsByIds'), transactions }).toEqual({ keywordReads: 1, mentionReads: 1, transactions: 1 });
    // On its welcome credit, the workspace's keywords are looked at by the noise brake.
    expect(named('findRunningKeywords')).toBe(1);
    const [{ unscored }] = await sql<{ unscored: number }[]>`select count(*)::int as unscored from mentions where relevance is null`;
    expect(unscored).toBe(0);
  });

  it('reads no keyword for the noise brake when every workspace scored is past its welcome credit', async () => {
    const { url, sql } = await openTestDatabase();
    cleanups.push(() => sql.end());
    const { workspaceId } = await newWorkspace(sql);
    await creditWalletByOperator(sql, { workspaceId, cents: 2000, at: new Date() });
    const { named } = await scoreCounted(url, await unscoredBatch(sql, workspaceId));
    expect({ walletReads: named('workspacesOnWelcomeCredit'), brakeKeywordReads: named('findRunningKeywords') }).toEqual({ walletReads: 1, brakeKeywordReads: 0 });
    // Before the day's tick, charging counts the wallet's keywords once, for its balance and its running keywords alike
    // (billing's look before classifying counts none).
    expect(named('countKeywordRunStates')).toBe(1);
  });

  it('starts the thread watches of a batch\'s relevant mentions in one statement', async () => {
    const { url, sql } = await openTestDatabase();
    cleanups.push(() => sql.end());
    const { workspaceId } = await newWorkspace(sql);
    const [keyword] = await addKeywords(sql, workspaceId, 1, { term: 'keyword', platforms: ['hackernews'] });
    const at = new Date();
    const mentions = [await storeUnscoredMatch(sql, keyword, at), await storeUnscoredMatch(sql, keyword, at), await storeUnscoredMatch(sql, keyword, at)];
    const { counted, named } = countingPool(url);
    await counted`select 1`;
    const relevant = { relevance: 90, sentiment: 'neutral' as const, intents: [], automated: false, language: 'en', note: '' };
    await counted.begin((tx) => recordScores(tx, mentions.map((mention) => ({ mention, classification: relevant, commentsEnabled: true })), [], at));
    const [{ watched }] = await sql<{ watched: number }[]>`select count(*)::int as watched from comment_watches where mention_id = any(${mentions.map((mention) => mention.id)})`;
    expect({ watched, statements: named('watchThreads') }).toEqual({ watched: 3, statements: 1 });
  });

  // Each keyword's verdicts teach its own scores (issue 19): the job learns one model a keyword and hands each mention its keyword's.
  it('scores each mention with what its own keyword\'s verdicts taught, in one batch', async () => {
    const { sql } = await openTestDatabase();
    cleanups.push(() => sql.end());
    const at = new Date();
    const [taught] = await addKeywords(sql, (await newWorkspace(sql)).workspaceId, 1, { term: 'Apollo', kind: 'brand' });
    const [untaught] = await addKeywords(sql, (await newWorkspace(sql)).workspaceId, 1, { term: 'Apollo', kind: 'brand' });
    for (const verdict of apolloVerdicts) {
      const judged = await storeUnscoredMatch(sql, taught, at, verdict.text);
      await sql`update mentions set verdict_relevant = ${verdict.relevant} where id = ${judged.id}`;
    }
    const spaceProgram = 'Apollo 17 moon mission photos get a NASA remaster';
    const mentionIds = [(await storeUnscoredMatch(sql, taught, at, spaceProgram)).id, (await storeUnscoredMatch(sql, untaught, at, spaceProgram)).id];
    const context: JobContext = { sql, clock: systemClock, log: createLogger('silent'), config: { pollIntervalSeconds: 300, env: {} }, secrets: testSecrets, send: async () => null };
    await scoreQueue.handle([{ mentionIds, attempt: 0 }], context);

    const scores = await sql<{ id: string; relevance: number }[]>`select id, relevance from mentions where id = any(${sql.array(mentionIds)})`;
    const relevanceOf = (id: string) => scores.find((row) => row.id === id)!.relevance;
    expect(relevanceOf(mentionIds[0])).toBeLessThan(40);
    expect(relevanceOf(mentionIds[1])).toBeGreaterThanOrEqual(40);
  });
});
