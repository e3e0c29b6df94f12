import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NormalizedPost } from '../vocabulary/normalized-post.ts';
import { enqueueMentionAlerts } from '../subgraphs/team/mention-alerts.ts';
import { eventually, startTestEarshot, type TestEarshot } from './harness.ts';
import { storeMatchedPosts } from '../subgraphs/mentions/mention-store.ts';
import { redditPost, relevantRustPosts, rustContext, storeAndScore as storeAndScoreMentions } from './scored-mentions.ts';
import { signatureMatches, startWebhookReceiver, type WebhookReceiver } from './fake-upstreams/webhook-receiver.ts';

let earshot: TestEarshot;
let key: string;
let workspaceId: string;
let rust: string;
let cargo: string;
const receivers: WebhookReceiver[] = [];

const context = rustContext;

beforeAll(async () => {
  earshot = await startTestEarshot({ env: { EARSHOT_ALLOW_PRIVATE_URLS: '1', EARSHOT_RETRY_DELAY_S: '1' } });
  const created = await earshot.createWorkspace('Acme');
  key = created.apiKey;
  workspaceId = created.workspace.id;
  rust = (await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'Rust', context } })).body.id;
  cargo = (await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'cargo', context } })).body.id;
});
afterAll(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await earshot?.stop();
});

async function channel() {
  const receiver = await startWebhookReceiver();
  receivers.push(receiver);
  const created = (await earshot.rest('POST', '/v1/channels', { key, body: { kind: 'webhook', url: receiver.url } })).body;
  return { receiver, id: created.id as string, secret: created.config.secret as string };
}

const post = redditPost;
const storeAndScore = (items: { post: NormalizedPost; keywordIds: string[] }[]) => storeAndScoreMentions(earshot, workspaceId, items);
const relevantPosts = relevantRustPosts;

describe('instant alerts', () => {
  it('sends every relevant mention passing a rule, data exactly as GET /v1/mentions/{id}, signed', async () => {
    const everything = await channel();
    const questions = await channel();
    const all = (await earshot.rest('POST', '/v1/alerts', { key, body: { name: 'All', channelIds: [everything.id], filter: { keywordIds: [rust] } } })).body;
    const asked = (await earshot.rest('POST', '/v1/alerts', { key, body: { name: 'Asked', event: 'mention.question', channelIds: [questions.id], filter: { keywordIds: [rust] } } })).body;
    const ids = await storeAndScore([
      ...relevantPosts.map((text) => ({ post: post(text), keywordIds: [rust] })),
      { post: post('The old gate has rust all over it, need a wire brush'), keywordIds: [rust] },
    ]);
    const expected = (await earshot.rest('GET', `/v1/mentions?alertId=${all.id}&limit=100`, { key })).body.data.map((m: any) => m.id).sort();
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(ids.length);
    await eventually(async () => everything.receiver.received.length, (n) => n >= expected.length);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(everything.receiver.received).toHaveLength(expected.length);
    const bodies = everything.receiver.bodies();
    expect(bodies.map((body) => body.data.id).sort()).toEqual(expected);
    for (const [index, body] of bodies.entries()) {
      expect(signatureMatches(everything.receiver.received[index], everything.secret)).toBe(true);
      expect(body).toMatchObject({ id: expect.stringMatching(/^dlv_/), event: 'mention.matched', alert: { id: all.id, name: 'All' } });
      // The payload shows the mention as it was when built; once delivered, the mention says so.
      const current = (await earshot.rest('GET', `/v1/mentions/${body.data.id}`, { key })).body;
      expect(body.data).toEqual({ ...current, delivered: false });
      expect(current.delivered).toBe(true);
      expect(body.data.relevant).toBe(true);
      expect(body.data.classification).not.toBeNull();
    }
    const expectedQuestions = (await earshot.rest('GET', `/v1/mentions?alertId=${asked.id}&limit=100`, { key })).body.data.map((m: any) => m.id).sort();
    await eventually(async () => questions.receiver.received.length, (n) => n >= expectedQuestions.length);
    expect(questions.receiver.bodies().map((body) => body.data.id).sort()).toEqual(expectedQuestions);
    for (const body of questions.receiver.bodies()) expect(body.data.classification.intents).toContain('question');

    const log = (await earshot.rest('GET', `/v1/channels/${everything.id}/deliveries`, { key })).body.data;
    expect(log).toHaveLength(expected.length);
    expect(log[0]).toMatchObject({ kind: 'mention', status: 'delivered', alert: { id: all.id, name: 'All' }, mention: { id: expect.stringMatching(/^mm_/), platform: 'reddit' }, event: null });

    // Enqueueing again (a scoring job run twice) delivers nothing more.
    expect(await enqueueMentionAlerts(earshot.sql, ids.map((id) => ({ id, workspaceId })), new Date())).toBe(0);
  });

  it('sends a post matching two keywords twice, never ignored mentions or muted authors', async () => {
    const target = await channel();
    await earshot.rest('POST', '/v1/alerts', {
      key,
      body: { name: 'Both', channelIds: [target.id], filter: { keywordIds: [rust, cargo], mutedAuthors: ['Grumpy'] } },
    });
    const stored = await storeMatchedPosts(earshot.sql, [
      { post: post(relevantPosts[0]), matches: [rust, cargo].map((keywordId) => ({ keywordId, workspaceId, fuzzy: false })) },
      { post: post(relevantPosts[1], 'grumpy'), matches: [{ keywordId: rust, workspaceId, fuzzy: false }] },
      { post: post(relevantPosts[2]), matches: [{ keywordId: rust, workspaceId, fuzzy: false }] },
    ]);
    const [twiceA, twiceB, muted, ignored] = stored.map((mention) => mention.id);
    expect((await earshot.rest('PATCH', `/v1/mentions/${ignored}`, { key, body: { status: 'ignored' } })).status).toBe(200);
    await earshot.sendJob('score', { mentionIds: [twiceA, twiceB, muted, ignored] });
    await eventually(
      async () => earshot.sql<{ n: number }[]>`select count(*)::int as n from mentions where id = any(${[twiceA, twiceB, muted, ignored]}) and relevance is not null`,
      ([row]) => row.n === 4,
    );
    const relevant = (await earshot.rest('GET', `/v1/mentions?relevant=true&limit=100`, { key })).body.data.map((m: any) => m.id);
    const expected = [twiceA, twiceB].filter((id) => relevant.includes(id)).sort();
    expect(expected).toHaveLength(2);
    expect(relevant).toContain(muted);
    await eventually(async () => target.receiver.received.length, (n) => n >= expected.length);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const sent = target.receiver.bodies();
    expect(sent.map((body) => body.data.id).sort()).toEqual(expected);
    expect(new Set(sent.map((body) => body.data.keyword.term))).toEqual(new Set(['Rust', 'cargo']));
  });

  it('does not retry an alert whose mention was marked done meanwhile', async () => {
    const target = await channel();
    await earshot.rest('POST', '/v1/alerts', { key, body: { name: 'Retried', channelIds: [target.id], filter: { keywordIds: [cargo] } } });
    target.receiver.answerNext({ status: 503 });
    const [id] = await storeAndScore([{ post: post(relevantPosts[0]), keywordIds: [cargo] }]);
    await eventually(async () => target.receiver.received.length, (n) => n >= 1);
    expect((await earshot.rest('PATCH', `/v1/mentions/${id}`, { key, body: { status: 'done' } })).status).toBe(200);
    const log = await eventually(async () => (await earshot.rest('GET', `/v1/channels/${target.id}/deliveries`, { key })).body.data, (entries) => entries[0]?.status === 'failed');
    expect(log[0]).toMatchObject({ status: 'failed', attempts: 2, error: 'the mention was marked done before it could be sent' });
    expect(target.receiver.received).toHaveLength(1);
  });

  /** The person a mention's author is in this workspace. */
  const personOf = async (mentionId: string) =>
    (await earshot.graphql(`query($id: ID!) { mention(id: $id) { person { id } } }`, { id: mentionId }, key)).body.data.mention.person.id as string;

  it('never sends the mentions of a muted person, and sends them again once unmuted', async () => {
    const target = await channel();
    await earshot.rest('POST', '/v1/alerts', { key, body: { name: 'People', channelIds: [target.id], filter: { keywordIds: [rust] } } });
    const stored = await storeMatchedPosts(earshot.sql, [
      { post: post(relevantPosts[0], 'mutedperson'), matches: [{ keywordId: rust, workspaceId, fuzzy: false }] },
      { post: post(relevantPosts[1], 'heardperson'), matches: [{ keywordId: rust, workspaceId, fuzzy: false }] },
    ]);
    const [muted, heard] = stored.map((mention) => mention.id);
    expect((await earshot.rest('PATCH', `/v1/people/${await personOf(muted)}`, { key, body: { muted: true } })).status).toBe(200);
    await earshot.sendJob('score', { mentionIds: [muted, heard] });
    await eventually(async () => target.receiver.received.length, (n) => n >= 1);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(target.receiver.bodies().map((body) => body.data.id)).toEqual([heard]);

    await earshot.rest('PATCH', `/v1/people/${await personOf(muted)}`, { key, body: { muted: false } });
    const [again] = await storeMatchedPosts(earshot.sql, [{ post: post(relevantPosts[2], 'mutedperson'), matches: [{ keywordId: rust, workspaceId, fuzzy: false }] }]);
    await earshot.sendJob('score', { mentionIds: [again.id] });
    await eventually(async () => target.receiver.received.length, (n) => n >= 2);
    expect(target.receiver.bodies().map((body) => body.data.id)).toEqual([heard, again.id]);
  });

  it('does not retry an alert whose author was muted meanwhile', async () => {
    const target = await channel();
    await earshot.rest('POST', '/v1/alerts', { key, body: { name: 'Muted later', channelIds: [target.id], filter: { keywordIds: [cargo] } } });
    target.receiver.answerNext({ status: 503 });
    const [id] = await storeAndScore([{ post: post(relevantPosts[1], 'mutedlater'), keywordIds: [cargo] }]);
    await eventually(async () => target.receiver.received.length, (n) => n >= 1);
    expect((await earshot.rest('PATCH', `/v1/people/${await personOf(id)}`, { key, body: { muted: true } })).status).toBe(200);
    const log = await eventually(async () => (await earshot.rest('GET', `/v1/channels/${target.id}/deliveries`, { key })).body.data, (entries) => entries[0]?.status === 'failed');
    expect(log[0]).toMatchObject({ status: 'failed', attempts: 2, error: "the mention's author was muted before it could be sent" });
    expect(target.receiver.received).toHaveLength(1);
  });
});
