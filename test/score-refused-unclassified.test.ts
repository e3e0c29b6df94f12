import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestPosts } from '../jobs/ingest-posts.ts';
import { createLogger } from '../runtime/logger.ts';
import { chargeMatchedItems } from '../subgraphs/billing/charging.ts';
import { creditWalletByOperator } from '../subgraphs/billing/credits.ts';
import type { NormalizedPost } from '../vocabulary/normalized-post.ts';
import { addKeywords, eventsOf, keywordRow, leaveInWallet, newWorkspace } from './billing-seed.ts';
import { type ChatCompletionRequest, completion, startFakeChatCompletions } from './fake-upstreams/chat-completions.ts';
import type { FakeResponse, FakeUpstream } from './fake-upstreams/fake-server.ts';
import { countOf, eventually, startTestEarshot, type TestEarshot, unreachableUpstreams } from './harness.ts';

/**
 * A match the charge will refuse (a keyword at its cap, a wallet that
 * cannot pay) is not sent to the classifier, a paid call per match with an
 * OpenAI-compatible endpoint: the scoring job asks billing first, and the
 * scoring transaction discards what the charge still refuses, as it did
 * when the match had been classified. One the charge would take by then
 * (a cap raised meanwhile) stays stored and unscored, uncharged, and is
 * scored and charged by the next run.
 */

const modelKey = 'sk-test-refused';
let model: FakeUpstream & { baseUrl: string };
let earshot: TestEarshot;
/** Runs before the model answers a request, and is waited for: the test's hook between billing's look and the charge. */
let beforeAnswer: (externalIds: string[]) => Promise<void> = async () => {};
/** The posts each request asked about, by external id, in order. */
const asked: string[][] = [];

const postsOf = (request: ChatCompletionRequest) =>
  (JSON.parse(request.messages.find((message) => message.role === 'user')!.content) as { posts: { id: string }[] }).posts.map(({ id }) => id);

async function judged(request: ChatCompletionRequest): Promise<FakeResponse> {
  const ids = postsOf(request);
  const externalIds = (await earshot.sql<{ externalId: string }[]>`select p.external_id from mentions m join posts p on p.id = m.post_id where m.id = any(${ids})`).map(
    (row) => row.externalId,
  );
  asked.push(externalIds);
  await beforeAnswer(externalIds);
  const classifications = ids.map((id) => ({ id, relevance: 82, sentiment: 'positive', intents: ['praise'], automated: false, language: 'en', note: 'Praises the app.' }));
  return completion(JSON.stringify({ classifications }));
}

beforeAll(async () => {
  model = await startFakeChatCompletions({ apiKey: modelKey, answer: judged });
  earshot = await startTestEarshot({ env: { ...unreachableUpstreams, EARSHOT_CLASSIFIER_URL: model.baseUrl, EARSHOT_CLASSIFIER_KEY: modelKey } });
});
afterAll(async () => {
  await earshot?.stop();
  await model?.close();
});

let postCount = 0;
const post = (prefix: string): NormalizedPost => {
  const i = ++postCount;
  return {
    platform: 'hackernews',
    externalId: `${prefix}-${i}`,
    url: `https://news.ycombinator.com/item?id=${8_000_000 + i}`,
    text: `Quokkadex made our standups shorter, post ${i}`,
    publishedAt: new Date(),
    replyTo: null,
    links: [],
    author: { platformId: `user${i}`, name: `user${i}`, handle: `user${i}`, url: `https://news.ycombinator.com/user?id=user${i}`, avatarUrl: null, followers: null },
  };
};

/** A workspace past its welcome credit (so a keyword's own cap applies) with one keyword. */
async function paidKeyword(cap: { mentions: number; per: string } | null) {
  const { workspaceId, apiKey } = await newWorkspace(earshot.sql);
  await creditWalletByOperator(earshot.sql, { workspaceId, cents: 2000, at: new Date() });
  const [keyword] = await addKeywords(earshot.sql, workspaceId, 1, cap ? { cap } : {});
  return { workspaceId, apiKey, keyword };
}

/** Stores `count` exact matches of the keyword as a poll does (one scoring job for them all) and waits until none is left unscored. */
async function ingestAndScore(keyword: { id: string; workspaceId: string }, prefix: string, count: number): Promise<string[]> {
  const posts = Array.from({ length: count }, () => post(prefix));
  const context = { sql: earshot.sql, log: createLogger('silent'), send: earshot.sendJob };
  const { stored } = await ingestPosts(context, posts, () => [{ keywordId: keyword.id, workspaceId: keyword.workspaceId, fuzzy: false }]);
  expect(stored).toHaveLength(count);
  await eventually(
    () => countOf(earshot.sql`select count(*)::int as n from mentions where keyword_id = ${keyword.id} and relevance is null`),
    (n) => n === 0,
    30_000,
  );
  await eventually(
    () => countOf(earshot.sql`select count(*)::int as n from pgboss.job where name = 'score' and state in ('created', 'retry', 'active')`),
    (n) => n === 0,
  );
  return posts.map((p) => p.externalId);
}

const askedAbout = (externalIds: readonly string[]) => asked.flat().filter((id) => externalIds.includes(id));
const keptMentions = (keywordId: string) => countOf(earshot.sql`select count(*)::int as n from mentions where keyword_id = ${keywordId}`);
const mentionCharges = (workspaceId: string) =>
  countOf(earshot.sql`select count(*)::int as n from ledger_entries where kind = 'mention' and workspace_id = ${workspaceId}`);

describe('matches the charge will refuse', { timeout: 90_000 }, () => {
  it('a keyword with a cap of 3 and 10 matches in one batch: the model is asked about 3, the other 7 are discarded unasked', async () => {
    const { workspaceId, keyword } = await paidKeyword({ mentions: 3, per: 'month' });
    const first = await ingestAndScore(keyword, 'capped', 10);
    // 3 of the batch, each once, and those are the 3 kept: the batch's first 3 fill the cap, so none was in flight past it.
    expect(askedAbout(first)).toHaveLength(3);
    expect(new Set(askedAbout(first)).size).toBe(3);
    expect({ kept: await keptMentions(keyword.id), charges: await mentionCharges(workspaceId) }).toEqual({ kept: 3, charges: 3 });
    const kept = await earshot.sql<{ externalId: string }[]>`select p.external_id from mentions m join posts p on p.id = m.post_id where m.keyword_id = ${keyword.id}`;
    expect(kept.map((row) => row.externalId).sort()).toEqual([...askedAbout(first)].sort());
    const capped = (await eventsOf(earshot.sql, workspaceId)).filter((event) => event.name === 'keyword.capped');
    expect(capped).toHaveLength(1);
    expect(capped[0].data).toMatchObject({ cap: { mentions: 3 }, thisMonth: 3 });

    // At its cap: a later batch is not classified at all, and discarded with no new event.
    const later = await ingestAndScore(keyword, 'capped-later', 5);
    expect(askedAbout(later)).toEqual([]);
    expect({ kept: await keptMentions(keyword.id), charges: await mentionCharges(workspaceId) }).toEqual({ kept: 3, charges: 3 });
    expect((await eventsOf(earshot.sql, workspaceId)).filter((event) => event.name === 'keyword.capped')).toHaveLength(1);
  });

  it('a wallet that cannot pay an item: the model is asked about none, every match is discarded and the wallet pauses as before', async () => {
    const { workspaceId, keyword } = await paidKeyword(null);
    await leaveInWallet(earshot.sql, workspaceId, 0);
    const ids = await ingestAndScore(keyword, 'broke', 6);
    expect(askedAbout(ids)).toEqual([]);
    expect({ kept: await keptMentions(keyword.id), charges: await mentionCharges(workspaceId) }).toEqual({ kept: 0, charges: 0 });
    expect(await keywordRow(earshot.sql, keyword.id)).toMatchObject({ muted: true, pausedForBalance: true });
  });

  it('a cap raised between billing\'s look and the charge: the match is kept unscored and uncharged, queued again, then scored and charged once', async () => {
    const { workspaceId, apiKey, keyword } = await paidKeyword({ mentions: 1, per: 'month' });
    const seen: { relevance: number | null; classificationFailed: boolean; charges: number; attempt: number }[] = [];
    beforeAnswer = async (externalIds) => {
      if (!externalIds[0]?.startsWith('raised-')) return;
      if (seen.length === 0) {
        // Billing looked (cap 1: the second match is left unclassified); the charge has not run yet.
        const raised = await earshot.rest('PATCH', `/v1/keywords/${keyword.id}`, { key: apiKey, body: { cap: { mentions: 5, per: 'month' } } });
        expect(raised.status).toBe(200);
      }
      const [row] = await earshot.sql<{ relevance: number | null; classificationFailed: boolean; id: string }[]>`
        select m.id, m.relevance, m.classification_failed from mentions m join posts p on p.id = m.post_id where p.external_id = ${externalIds[0]}`;
      const [job] = await earshot.sql<{ attempt: number }[]>`
        select (data->>'attempt')::int as attempt from pgboss.job where name = 'score' and data->'mentionIds' ? ${row.id} order by created_on desc limit 1`;
      seen.push({
        relevance: row.relevance,
        classificationFailed: row.classificationFailed,
        charges: await countOf(earshot.sql`select count(*)::int as n from ledger_entries where idempotency_key = ${`mention:${row.id}`}`),
        attempt: job?.attempt ?? 0,
      });
    };
    try {
      const ids = await ingestAndScore(keyword, 'raised', 2);
      // One match a request: the second was left out of the first and asked about on the next run, at the same attempt.
      const requests = asked.filter((request) => request.some((id) => ids.includes(id)));
      expect(requests.map((request) => request.length)).toEqual([1, 1]);
      expect(requests.flat().sort()).toEqual([...ids].sort());
      expect(seen[1]).toEqual({ relevance: null, classificationFailed: false, charges: 0, attempt: 0 });
      expect({ kept: await keptMentions(keyword.id), charges: await mentionCharges(workspaceId) }).toEqual({ kept: 2, charges: 2 });
      const charged = await earshot.sql<{ key: string; n: number }[]>`
        select idempotency_key as key, count(*)::int as n from ledger_entries where kind = 'mention' and workspace_id = ${workspaceId} group by 1`;
      expect(charged.map((row) => row.n)).toEqual([1, 1]);
      expect((await earshot.rest('GET', `/v1/keywords/${keyword.id}`, { key: apiKey })).body.cap).toMatchObject({ mentions: 5, used: 2 });
    } finally {
      beforeAnswer = async () => {};
    }
  });

  it('a mention an older version charged at storage, its keyword now at its cap: scored on the next run, not queued again and again', async () => {
    const { workspaceId, keyword } = await paidKeyword({ mentions: 1, per: 'month' });
    // Stored with no scoring job, then charged as storing did before charging moved to scoring: that fills the cap.
    const context = { sql: earshot.sql, log: createLogger('silent'), send: async () => null };
    const legacy = post('legacy');
    const { stored } = await ingestPosts(context, [legacy], () => [{ keywordId: keyword.id, workspaceId, fuzzy: false }]);
    const [mention] = stored;
    await earshot.sql.begin((tx) => chargeMatchedItems(tx, [{ workspaceId, keywordId: keyword.id, kind: 'mention', itemId: mention.id, at: new Date() }]));

    await earshot.sendJob('score', { mentionIds: [mention.id] });
    await eventually(
      () => earshot.sql<{ relevance: number | null }[]>`select relevance from mentions where id = ${mention.id}`,
      (rows) => rows[0]?.relevance !== null,
      20_000,
    );
    expect(askedAbout([legacy.externalId])).toEqual([legacy.externalId]);
    expect(await mentionCharges(workspaceId)).toBe(1);
  });
});
