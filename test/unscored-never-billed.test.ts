import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NormalizedPost } from '../vocabulary/normalized-post.ts';
import { ingestPosts } from '../jobs/ingest-posts.ts';
import { createLogger } from '../runtime/logger.ts';
import { type ChatCompletionRequest, completion, startFakeChatCompletions } from './fake-upstreams/chat-completions.ts';
import type { FakeResponse, FakeUpstream } from './fake-upstreams/fake-server.ts';
import { countOf, eventually, startTestEarshot, type TestEarshot, unreachableUpstreams } from './harness.ts';

/**
 * Spec 2.5: `stats.unscored` is "not scored yet or failed to score (never
 * billed)". With the classifier an OpenAI-compatible endpoint
 * (EARSHOT_CLASSIFIER_URL) that fails, matches stay stored and unscored and
 * cost nothing (and count in neither `stats.mentions`, the number billing
 * counts, nor `stats.thisMonth`, the count a cap compares against); once it
 * answers again, the scoring job's retry charges each of them once.
 */

const modelKey = 'sk-test-unscored';
const matches = 15;
let model: FakeUpstream & { baseUrl: string };
let earshot: TestEarshot;
let classifierDown = true;

const serverError: FakeResponse = { status: 500, body: { error: { message: 'The server had an error while processing your request.', type: 'server_error' } } };

/** Every post the request names, judged relevant: what a healthy model answers. */
function judged(request: ChatCompletionRequest): FakeResponse {
  const { posts } = JSON.parse(request.messages.find((message) => message.role === 'user')!.content) as { posts: { id: string }[] };
  const classifications = posts.map(({ id }) => ({ id, relevance: 82, sentiment: 'positive', intents: ['praise'], automated: false, language: 'en', note: 'Praises the app.' }));
  return completion(JSON.stringify({ classifications }));
}

beforeAll(async () => {
  model = await startFakeChatCompletions({ apiKey: modelKey, answer: (request) => (classifierDown ? serverError : judged(request)) });
  earshot = await startTestEarshot({ env: { ...unreachableUpstreams, EARSHOT_CLASSIFIER_URL: model.baseUrl, EARSHOT_CLASSIFIER_KEY: modelKey } });
});
afterAll(async () => {
  await earshot?.stop();
  await model?.close();
});

const post = (i: number): NormalizedPost => ({
  platform: 'hackernews',
  externalId: `unscored-${i}`,
  url: `https://news.ycombinator.com/item?id=${7_000_000 + i}`,
  text: `Quokkadex made our standups shorter, post ${i}`,
  publishedAt: new Date(),
  replyTo: null,
  links: [],
  author: { platformId: `user${i}`, name: `user${i}`, handle: `user${i}`, url: `https://news.ycombinator.com/user?id=user${i}`, avatarUrl: null, followers: null },
});

describe('a classifier endpoint that fails', { timeout: 90_000 }, () => {
  it('leaves the matches stored, unscored and unbilled; once it recovers, the retry charges each of them once', async () => {
    const { workspace, apiKey: key } = await earshot.createWorkspace();
    const created = await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'Quokkadex', platforms: ['hackernews'] } });
    expect(created.status).toBe(201);
    const keywordId = created.body.id as string;
    const before = (await earshot.rest('GET', '/v1/usage', { key })).body;
    const mentionIds = async () => (await earshot.sql<{ id: string }[]>`select id from mentions where keyword_id = ${keywordId}`).map((row) => row.id);
    const charges = () =>
      countOf(earshot.sql`select count(distinct idempotency_key)::int as n from ledger_entries where kind = 'mention' and workspace_id = ${workspace.id}`);
    const chargeRows = () => countOf(earshot.sql`select count(*)::int as n from ledger_entries where kind = 'mention' and workspace_id = ${workspace.id}`);

    // Ingested as a poll does, its scoring jobs sent to this Earshot's workers.
    const context = { sql: earshot.sql, log: createLogger('silent'), send: earshot.sendJob };
    const posts = Array.from({ length: matches }, (_, i) => post(i));
    const { stored } = await ingestPosts(context, posts, () => [{ keywordId, workspaceId: workspace.id, fuzzy: false }]);
    expect(stored).toHaveLength(matches);

    // The scoring job asked the model, which failed: every match is marked failed, none scored.
    const failed = await eventually(
      () => countOf(earshot.sql`select count(*)::int as n from mentions where keyword_id = ${keywordId} and classification_failed and relevance is null`),
      (n) => n === matches,
    );
    expect(failed).toBe(matches);
    expect(model.requests.length).toBeGreaterThan(0);

    expect(await charges()).toBe(0);
    const whileDown = (await earshot.rest('GET', '/v1/usage', { key })).body;
    expect({ balanceCents: whileDown.balanceCents, matchesToday: whileDown.matchesToday, monthToDateCents: whileDown.monthToDateCents }).toEqual({
      balanceCents: before.balanceCents,
      matchesToday: 0,
      monthToDateCents: before.monthToDateCents,
    });
    const breakdown = (await earshot.rest('GET', '/v1/usage/breakdown', { key })).body;
    expect(breakdown.totals).toMatchObject({ billableMentions: 0, mentionCents: 0 });
    const keyword = (await earshot.rest('GET', `/v1/keywords/${keywordId}`, { key })).body;
    expect({ used: keyword.cap.used, billableMentions: keyword.stats.cost.billableMentions }).toEqual({ used: 0, billableMentions: 0 });
    // 2.1.4: `mentions` is "the number billing counts", `thisMonth` "the count a cap compares against": neither counts what was not charged.
    expect({ mentions: keyword.stats.mentions, thisMonth: keyword.stats.thisMonth, last7d: keyword.stats.last7d }).toEqual({ mentions: 0, thisMonth: 0, last7d: 0 });
    const health = (await earshot.rest('GET', `/v1/keywords/${keywordId}/health`, { key })).body;
    expect(health.stats).toMatchObject({ matches, unscored: matches, relevant: 0, filtered: 0 });
    // Stored and visible, marked failed.
    const listed = (await earshot.rest('GET', `/v1/mentions?relevant=false&keywordId=${keywordId}&limit=100`, { key })).body.data;
    expect(listed).toHaveLength(matches);
    expect(listed.every((mention: any) => mention.classification === null || mention.classification.failed === true)).toBe(true);

    // The model answers again; the retries, due 30 s after the failure, are brought forward to now.
    classifierDown = false;
    await earshot.sql`update pgboss.job set start_after = now() where name = 'score' and state in ('created', 'retry')`;
    const scored = await eventually(
      () => countOf(earshot.sql`select count(*)::int as n from mentions where keyword_id = ${keywordId} and relevance is not null`),
      (n) => n === matches,
      60_000,
    );
    expect(scored).toBe(matches);

    // Scored once more by hand (a job run again): nothing more is charged.
    await earshot.sendJob('score', { mentionIds: await mentionIds() });
    await eventually(
      () => countOf(earshot.sql`select count(*)::int as n from pgboss.job where name = 'score' and state in ('created', 'retry', 'active')`),
      (n) => n === 0,
    );

    expect({ charges: await charges(), rows: await chargeRows() }).toEqual({ charges: matches, rows: matches });
    const recovered = (await earshot.rest('GET', '/v1/usage', { key })).body;
    // 15 mentions at $0.008: 12 cents.
    expect({ balanceCents: recovered.balanceCents, matchesToday: recovered.matchesToday }).toEqual({ balanceCents: before.balanceCents - 12, matchesToday: matches });
    const charged = (await earshot.rest('GET', `/v1/keywords/${keywordId}`, { key })).body;
    expect({ used: charged.cap.used, mentions: charged.stats.mentions, thisMonth: charged.stats.thisMonth }).toEqual({ used: matches, mentions: matches, thisMonth: matches });
    expect((await earshot.rest('GET', `/v1/keywords/${keywordId}/health`, { key })).body.stats).toMatchObject({ matches, unscored: 0, relevant: matches });
  });
});
