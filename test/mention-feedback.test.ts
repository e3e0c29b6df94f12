import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NormalizedPost } from '../vocabulary/normalized-post.ts';
import { saveClassification, storeMatchedPost } from '../subgraphs/mentions/mention-store.ts';
import { startTestEarshot, type TestEarshot } from './harness.ts';

let earshot: TestEarshot;
let key: string;
let workspaceId: string;
let keywordId: string;

const post = (externalId: string): NormalizedPost => ({
  platform: 'reddit',
  externalId,
  url: `https://www.reddit.com/r/saas/comments/${externalId}/`,
  text: `Earshot saved our launch week (${externalId})`,
  publishedAt: new Date(Date.now() - 3_600_000),
  replyTo: null,
  links: [],
  subreddit: 'saas',
  author: { platformId: 't2_x', name: 'founder', handle: 'founder', url: 'https://www.reddit.com/user/founder', avatarUrl: null, followers: null },
});

async function seedMention(externalId: string, scored: boolean) {
  const [mention] = await storeMatchedPost(earshot.sql, post(externalId), [{ keywordId, workspaceId, fuzzy: false }]);
  if (scored) {
    await saveClassification(
      earshot.sql,
      mention.id,
      { relevance: 85, sentiment: 'positive', intents: ['praise'], automated: false, language: 'en', note: 'Praises the product.', priority: 60 },
      new Date(),
    );
  }
  return mention.id;
}

beforeAll(async () => {
  earshot = await startTestEarshot();
  const created = await earshot.createWorkspace('Acme');
  key = created.apiKey;
  workspaceId = created.workspace.id;
  keywordId = (await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'Earshot', platforms: [] } })).body.id;
});
afterAll(() => earshot?.stop());

describe('verdicts and triage on a mention (spec 2.4, 3.3, 4.3)', () => {
  it('writes a verdict through to the record and the keyword counts, keeps the original, and restores it on null', async () => {
    const id = await seedMention('v1', true);
    const before = await earshot.rest('GET', `/v1/keywords/${keywordId}`, { key });
    expect(before.body.stats).toMatchObject({ relevant: 1, feedback: { relevant: 0, notRelevant: 0 } });

    const rejected = await earshot.rest('PATCH', `/v1/mentions/${id}`, { key, body: { relevant: false, sentiment: 'negative' } });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ id, relevant: false });
    expect(rejected.body.classification).toEqual({
      relevance: 85,
      sentiment: 'negative',
      intents: ['praise'],
      automated: false,
      language: 'en',
      note: 'Praises the product.',
      failed: false,
      feedback: { relevant: false, sentiment: 'negative', original: { relevance: 85, relevant: true, sentiment: 'positive' } },
    });
    const after = await earshot.rest('GET', `/v1/keywords/${keywordId}`, { key });
    expect(after.body.stats).toMatchObject({ relevant: 0, mentions: 1, feedback: { relevant: 0, notRelevant: 1 } });
    // Verdicts never bill or unbill.
    expect(after.body.stats.cost).toEqual(before.body.stats.cost);
    expect((await earshot.rest('GET', '/v1/mentions', { key })).body.data.map((m: { id: string }) => m.id)).not.toContain(id);

    const withdrawn = await earshot.rest('PATCH', `/v1/mentions/${id}`, { key, body: { relevant: null, sentiment: null } });
    expect(withdrawn.body).toMatchObject({ relevant: true, classification: { sentiment: 'positive', feedback: null } });
    expect((await earshot.rest('GET', '/v1/mentions', { key })).body.data.map((m: { id: string }) => m.id)).toContain(id);
  });

  it('moves status, refuses a verdict before classification, and validates the body', async () => {
    const scored = await seedMention('v2', true);
    const done = await earshot.rest('PATCH', `/v1/mentions/${scored}`, { key, body: { status: 'done' } });
    expect(done.body.status).toBe('done');
    expect((await earshot.rest('GET', `/v1/mentions?status=done`, { key })).body.data.map((m: { id: string }) => m.id)).toEqual([scored]);

    const pending = await seedMention('v3', false);
    const early = await earshot.rest('PATCH', `/v1/mentions/${pending}`, { key, body: { relevant: true } });
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe('classification_pending');

    const bad = await earshot.rest('PATCH', `/v1/mentions/${scored}`, { key, body: { status: 'archived' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'validation_error', field: 'status' });

    const other = await earshot.createWorkspace('Other');
    const foreign = await earshot.rest('PATCH', `/v1/mentions/${scored}`, { key: other.apiKey, body: { status: 'open' } });
    expect(foreign.status).toBe(404);
  });
});
