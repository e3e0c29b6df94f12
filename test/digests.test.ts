import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Intent } from '../vocabulary/classification-values.ts';
import type { NormalizedPost } from '../vocabulary/normalized-post.ts';
import { saveClassification, storeMatchedPost } from '../subgraphs/mentions/mention-store.ts';
import { insertChannel } from '../subgraphs/team/channel-store.ts';
import { eventually, startTestEarshot, type TestEarshot, waitersOnLocks } from './harness.ts';
import { signatureMatches, startWebhookReceiver, type WebhookReceiver } from './fake-upstreams/webhook-receiver.ts';

let earshot: TestEarshot;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  earshot = await startTestEarshot({ env: { EARSHOT_ALLOW_PRIVATE_URLS: '1', EARSHOT_RETRY_DELAY_S: '1' } });
});
afterAll(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await earshot?.stop();
});

let sequence = 0;
async function workspaceWithDigest(rule: Record<string, unknown> = {}) {
  const { apiKey: key, workspace } = await earshot.createWorkspace();
  const receiver = await startWebhookReceiver();
  receivers.push(receiver);
  const channel = (await earshot.rest('POST', '/v1/channels', { key, body: { kind: 'webhook', url: receiver.url } })).body;
  const keywords = [
    (await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'Acme' } })).body,
    (await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'Widget' } })).body,
  ];
  const digest = await earshot.rest('POST', '/v1/alerts', { key, body: { name: 'Morning', mode: 'daily', schedule: { hour: 8 }, channelIds: [channel.id], ...rule } });
  expect(digest.status).toBe(200);
  const mention = async (
    keywordId: string,
    options: { platform?: 'reddit' | 'hackernews'; handle?: string; sentiment?: 'positive' | 'negative' | 'neutral'; intents?: Intent[]; relevance?: number; scoredAt?: Date },
  ) => {
    const id = `d${++sequence}`;
    const handle = options.handle ?? `user${sequence}`;
    const post: NormalizedPost = {
      platform: options.platform ?? 'reddit', externalId: id, url: `https://example.com/${id}`, text: `post ${id}`, publishedAt: new Date(), replyTo: null, links: [],
      author: { platformId: handle, name: handle, handle, url: `https://example.com/u/${handle}`, avatarUrl: null, followers: 5 },
    };
    const [stored] = await storeMatchedPost(earshot.sql, post, [{ keywordId, workspaceId: workspace.id, fuzzy: false }]);
    await saveClassification(
      earshot.sql,
      stored.id,
      { relevance: options.relevance ?? 80, sentiment: options.sentiment ?? 'neutral', intents: options.intents ?? [], automated: false, language: 'en', note: '', priority: sequence },
      options.scoredAt ?? new Date(),
    );
    return stored.id;
  };
  return { key, receiver, channel, keywords, rule: digest.body, mention };
}

describe('digests', () => {
  it('run now: one digest per channel, each mention in exactly one section, counts per platform and keyword, muted people left out', async () => {
    const { key, receiver, channel, keywords, rule, mention } = await workspaceWithDigest({ filter: { mutedAuthors: ['troll'] } });
    const [acme, widget] = keywords;
    const negative = await mention(acme.id, { sentiment: 'negative' });
    const question = await mention(acme.id, { intents: ['question'], platform: 'hackernews' });
    const buyer = await mention(widget.id, { intents: ['buy_intent'], sentiment: 'positive' });
    const happy = await mention(widget.id, { sentiment: 'positive', intents: ['praise'] });
    const plain = await mention(acme.id, {});
    const muted = await mention(acme.id, { sentiment: 'negative', handle: 'troll' });
    const offTopic = await mention(acme.id, { relevance: 10 });

    const run = await earshot.rest('POST', `/v1/alerts/${rule.id}/run`, { key });
    expect(run.status).toBe(200);
    expect(rule.lastRunAt).toBeNull();
    expect(run.body).toEqual({ alertId: rule.id, from: expect.any(String), to: expect.any(String), mentions: 5, deliveryIds: [expect.stringMatching(/^dlv_/)] });
    expect(Date.parse(run.body.to) - Date.parse(run.body.from)).toBe(24 * 3_600_000);
    await eventually(async () => receiver.received.length, (n) => n >= 1);
    const [request] = receiver.received;
    expect(signatureMatches(request, channel.config.secret)).toBe(true);
    const body = JSON.parse(request.body);
    expect(body).toMatchObject({ id: run.body.deliveryIds[0], event: 'digest', alert: { id: rule.id, name: 'Morning' } });
    const ids = (list: any[]) => list.map((m) => m.id).sort();
    expect(ids(body.data.needsAttention)).toEqual([negative, question, buyer].sort());
    expect(ids(body.data.rest)).toEqual([happy, plain].sort());
    expect(body.data.mode).toBe('daily');
    expect(body.data.period).toEqual({ from: run.body.from, to: run.body.to });
    expect(body.data.counts).toEqual({
      total: 5,
      needsAttention: 3,
      rest: 2,
      byPlatform: [{ platform: 'reddit', count: 4 }, { platform: 'hackernews', count: 1 }],
      byKeyword: [{ keyword: { id: acme.id, term: 'Acme' }, count: 3 }, { keyword: { id: widget.id, term: 'Widget' }, count: 2 }],
    });
    // Each item is the mention as it was when the digest was built (spec 6.2's `delivered` rule).
    for (const item of body.data.rest) expect(item).toEqual({ ...(await earshot.rest('GET', `/v1/mentions/${item.id}`, { key })).body, delivered: false });

    const log = await eventually(async () => (await earshot.rest('GET', `/v1/channels/${channel.id}/deliveries`, { key })).body.data, (entries) => entries[0]?.status === 'delivered');
    expect(log[0]).toMatchObject({ kind: 'digest', status: 'delivered', alert: { id: rule.id, name: 'Morning' } });
    // Once accepted, every mention the digest listed was delivered; those it left out were not.
    const deliveredNow = async (id: string) => (await earshot.rest('GET', `/v1/mentions/${id}`, { key })).body.delivered;
    for (const id of [negative, question, buyer, happy, plain]) expect(await deliveredNow(id)).toBe(true);
    for (const id of [muted, offTopic]) expect(await deliveredNow(id)).toBe(false);

    const again = await earshot.rest('POST', `/v1/alerts/${rule.id}/run`, { key });
    expect(again.body).toMatchObject({ from: run.body.to, mentions: 0 });
  });

  // Found by a probe: a digest rule made after the day's mentions sent an empty first digest, covering only the
  // minutes since the rule was made.
  it("a rule's first run covers the period before it (a day for a daily rule), later runs what came since the last", async () => {
    const { key, receiver, rule, keywords, mention } = await workspaceWithDigest();
    const hour = 3_600_000;
    const yesterday = await mention(keywords[0].id, { scoredAt: new Date(Date.now() - 2 * hour) });
    await mention(keywords[0].id, { scoredAt: new Date(Date.now() - 25 * hour) });
    const first = await earshot.rest('POST', `/v1/alerts/${rule.id}/run`, { key });
    expect(first.body, JSON.stringify(first.body)).toMatchObject({ mentions: 1 });
    expect(Date.now() - Date.parse(first.body.from)).toBeGreaterThanOrEqual(24 * hour);
    const [delivered] = await eventually(async () => receiver.received, (received) => received.length === 1);
    expect(JSON.parse(delivered.body).data.rest.map((m: { id: string }) => m.id)).toEqual([yesterday]);
    const second = await earshot.rest('POST', `/v1/alerts/${rule.id}/run`, { key });
    expect(second.body).toMatchObject({ from: first.body.to, mentions: 0 });
  });

  // Found by a parallel probe: a run that waited for the rule behind a later run went back in time, ending before
  // it began and setting the rule's last run back, so the run after it sent that span's mentions a second time.
  it('run now behind a later run covers nothing and leaves the last run where the later one put it', async () => {
    const { key, rule } = await workspaceWithDigest();
    const later = new Date(Date.now() + 60_000);
    const { running } = await earshot.sql.begin(async (tx) => {
      await tx`select id from alert_rules where id = ${rule.id} for update`;
      const running = earshot.rest('POST', `/v1/alerts/${rule.id}/run`, { key });
      await waitersOnLocks(earshot.sql, 1);
      await tx`update alert_rules set last_run_at = ${later} where id = ${rule.id}`;
      // Handed out in an object: a promise returned from the transaction would be awaited before it commits.
      return { running };
    });
    const run = await running;
    expect(run.status).toBe(200);
    expect(run.body).toEqual({ alertId: rule.id, from: later.toISOString(), to: later.toISOString(), mentions: 0, deliveryIds: [] });
    expect((await earshot.rest('GET', `/v1/alerts/${rule.id}`, { key })).body.lastRunAt).toBe(later.toISOString());
  });

  it('leaves out a mention snoozed until later, as the rule feed does, and lists it once it woke (spec 3.3)', async () => {
    const { key, receiver, keywords, rule, mention } = await workspaceWithDigest();
    const awake = await mention(keywords[0].id, {});
    const snoozed = await mention(keywords[0].id, {});
    const woke = await mention(keywords[0].id, {});
    const snooze = async (id: string, until: Date) =>
      expect((await earshot.rest('PATCH', `/v1/mentions/${id}`, { key, body: { snoozedUntil: until.toISOString() } })).status).toBe(200);
    await snooze(snoozed, new Date(Date.now() + 86_400_000));
    await snooze(woke, new Date(Date.now() - 1000));
    const feed = (await earshot.rest('GET', `/v1/mentions?alertId=${rule.id}`, { key })).body.data.map((m: { id: string }) => m.id).sort();
    expect(feed).toEqual([awake, woke].sort());

    expect((await earshot.rest('POST', `/v1/alerts/${rule.id}/run`, { key })).body.mentions).toBe(2);
    await eventually(async () => receiver.received.length, (n) => n >= 1);
    const { data } = receiver.bodies()[0];
    expect([...data.needsAttention, ...data.rest].map((m: { id: string }) => m.id).sort()).toEqual(feed);
    expect(data.counts.total).toBe(2);
  });

  it('puts a complaint in needs attention whatever its sentiment: an unhappy post (spec 6.3)', async () => {
    const { key, receiver, keywords, rule, mention } = await workspaceWithDigest();
    const complaint = await mention(keywords[0].id, { intents: ['complaint'], sentiment: 'neutral' });
    const praise = await mention(keywords[0].id, { intents: ['praise'], sentiment: 'positive' });

    expect((await earshot.rest('POST', `/v1/alerts/${rule.id}/run`, { key })).status).toBe(200);
    await eventually(async () => receiver.received.length, (n) => n >= 1);
    const { data } = JSON.parse(receiver.received[0].body);
    expect(data.needsAttention.map((m: { id: string }) => m.id)).toEqual([complaint]);
    expect(data.rest.map((m: { id: string }) => m.id)).toEqual([praise]);
    expect(data.counts).toMatchObject({ total: 2, needsAttention: 1, rest: 1 });
  });

  it('sends a run with nothing new as a digest of zero mentions, so a quiet day reads apart from a missed digest (spec 6.3: one digest per run)', async () => {
    const { key, receiver, rule } = await workspaceWithDigest();
    const run = await earshot.rest('POST', `/v1/alerts/${rule.id}/run`, { key });
    expect(run.body).toMatchObject({ mentions: 0, deliveryIds: [expect.stringMatching(/^dlv_/)] });
    const [request] = await eventually(async () => receiver.received, (received) => received.length === 1);
    expect(JSON.parse(request.body)).toMatchObject({
      id: run.body.deliveryIds[0],
      event: 'digest',
      data: { counts: { total: 0, needsAttention: 0, rest: 0, byPlatform: [], byKeyword: [] }, needsAttention: [], rest: [] },
    });
  });

  it('answers not_a_digest for an instant rule', async () => {
    const { key } = await workspaceWithDigest();
    const instant = (await earshot.rest('POST', '/v1/alerts', { key, body: { name: 'Now' } })).body;
    const answer = await earshot.rest('POST', `/v1/alerts/${instant.id}/run`, { key });
    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe('not_a_digest');
  });

  it('sends at its hour on the scheduler tick, once, retrying a failed send', async () => {
    const { receiver, rule, mention, keywords } = await workspaceWithDigest();
    await mention(keywords[0].id, { sentiment: 'negative' });
    receiver.answerNext({ status: 503 });
    // The last run was more than a day ago, so the rule's hour has come.
    await earshot.sql`update alert_rules set last_run_at = now() - interval '25 hours' where id = ${rule.id}`;
    await eventually(async () => receiver.received.length, (n) => n >= 2, 15_000);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[0].body).toBe(receiver.received[1].body);
    expect(JSON.parse(receiver.received[0].body).data.counts.total).toBe(1);
  });

  it('retries a digest no channel took for 6 hours from its run, then fails it', async () => {
    const { key, receiver, rule, channel, mention, keywords } = await workspaceWithDigest({ name: 'Patient' });
    await mention(keywords[0].id, {});
    receiver.answerNext(...Array.from({ length: 50 }, () => ({ status: 503 })));
    expect((await earshot.rest('POST', `/v1/alerts/${rule.id}/run`, { key })).status).toBe(200);
    const [delivery] = await earshot.sql<{ id: string; giveUpAt: Date; createdAt: Date }[]>`select id, give_up_at, created_at from deliveries where alert_id = ${rule.id}`;
    expect(delivery.giveUpAt.getTime() - delivery.createdAt.getTime()).toBe(6 * 3_600_000);
    await eventually(async () => receiver.received.length, (n) => n >= 1);
    // The window closes: the next failure is the last.
    await earshot.sql`update deliveries set give_up_at = now() where id = ${delivery.id}`;
    const log = await eventually(async () => (await earshot.rest('GET', `/v1/channels/${channel.id}/deliveries`, { key })).body.data, (entries) => entries[0]?.status === 'failed');
    expect(log[0]).toMatchObject({ id: delivery.id, kind: 'digest', status: 'failed', error: 'HTTP 503' });
    expect(log[0].attempts).toBeGreaterThanOrEqual(2);
    expect(receiver.received).toHaveLength(log[0].attempts);
  });

  it('stops retrying a digest once another channel of the rule accepted it (spec 3.4)', async () => {
    const { apiKey: key, workspace } = await earshot.createWorkspace();
    const [down, up] = [await startWebhookReceiver(), await startWebhookReceiver()];
    receivers.push(down, up);
    const channels = [
      (await earshot.rest('POST', '/v1/channels', { key, body: { kind: 'webhook', url: down.url } })).body,
      (await earshot.rest('POST', '/v1/channels', { key, body: { kind: 'webhook', url: up.url } })).body,
    ];
    const keyword = (await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'Gizmo' } })).body;
    const rule = (await earshot.rest('POST', '/v1/alerts', { key, body: { name: 'Either', mode: 'daily', schedule: { hour: 8 }, channelIds: channels.map((c: { id: string }) => c.id) } })).body;
    const post: NormalizedPost = {
      platform: 'reddit', externalId: `either${++sequence}`, url: 'https://example.com/either', text: 'a gizmo post', publishedAt: new Date(), replyTo: null, links: [],
      author: { platformId: 'either', name: 'either', handle: 'either', url: 'https://example.com/u/either', avatarUrl: null, followers: 5 },
    };
    const [stored] = await storeMatchedPost(earshot.sql, post, [{ keywordId: keyword.id, workspaceId: workspace.id, fuzzy: false }]);
    await saveClassification(earshot.sql, stored.id, { relevance: 80, sentiment: 'neutral', intents: [], automated: false, language: 'en', note: '', priority: 1 }, new Date());
    down.answerNext(...Array.from({ length: 50 }, () => ({ status: 503 })));

    expect((await earshot.rest('POST', `/v1/alerts/${rule.id}/run`, { key })).status).toBe(200);
    const log = await eventually(async () => (await earshot.rest('GET', `/v1/channels/${channels[0].id}/deliveries`, { key })).body.data, (entries) => entries[0]?.status === 'failed', 15_000);
    expect(up.received).toHaveLength(1);
    expect(log[0]).toMatchObject({ kind: 'digest', status: 'failed', attempts: 2, error: 'another channel of the rule accepted this digest' });
    expect(down.received).toHaveLength(1);
  });

  it('hourly: at the start of every hour, covering the hour, with no schedule', async () => {
    const { key, receiver, rule: hourly, mention, keywords } = await workspaceWithDigest({ name: 'Hourly', mode: 'hourly', schedule: undefined });
    expect(hourly).toMatchObject({ mode: 'hourly', event: 'digest', schedule: null });
    await mention(keywords[0].id, { intents: ['question'] });
    // The last run was before the start of this hour, so the next one is due.
    await earshot.sql`update alert_rules set last_run_at = date_trunc('hour', now()) - interval '1 minute' where id = ${hourly.id}`;
    await eventually(async () => receiver.received.length, (n) => n >= 1, 15_000);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(receiver.received).toHaveLength(1);
    const body = JSON.parse(receiver.received[0].body);
    expect(body).toMatchObject({ event: 'digest', alert: { id: hourly.id, name: 'Hourly' }, data: { mode: 'hourly', counts: { total: 1, needsAttention: 1 } } });
    const [run] = await earshot.sql<{ lastRunAt: Date }[]>`select last_run_at from alert_rules where id = ${hourly.id}`;
    expect(Date.parse(body.data.period.to)).toBe(run.lastRunAt.getTime());
    // Retried only until the next hourly digest takes over.
    const [delivery] = await earshot.sql<{ giveUpAt: Date; createdAt: Date }[]>`select give_up_at, created_at from deliveries where alert_id = ${hourly.id}`;
    expect(delivery.giveUpAt.getTime() - delivery.createdAt.getTime()).toBe(3_600_000);
    const switched = await earshot.rest('PATCH', `/v1/alerts/${hourly.id}`, { key, body: { mode: 'daily', schedule: { hour: 7 } } });
    expect(switched.body).toMatchObject({ mode: 'daily', schedule: { hour: 7 } });
  });

  it('refuses an e-mail channel in an hourly rule, whichever side changes: 400 hourly_email_unsupported, nothing stored', async () => {
    const { apiKey: key, workspace } = await earshot.createWorkspace();
    const email = await insertChannel(earshot.sql, earshot.secrets, { workspaceId: workspace.id, kind: 'email', label: 'Inbox', url: null, headers: {}, events: [], target: { address: 'team@example.com', confirmed: true }, now: new Date() });
    const receiver = await startWebhookReceiver();
    receivers.push(receiver);
    const webhook = (await earshot.rest('POST', '/v1/channels', { key, body: { kind: 'webhook', url: receiver.url } })).body;
    const refusal = (answer: { status: number; body: any }) => {
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatchObject({ code: 'hourly_email_unsupported', field: 'channelIds', message: expect.stringContaining('e-mail') });
    };
    refusal(await earshot.rest('POST', '/v1/alerts', { key, body: { name: 'H', mode: 'hourly', channelIds: [webhook.id, email.id] } }));
    expect((await earshot.rest('GET', '/v1/alerts', { key })).body.data).toEqual([]);

    const hourly = (await earshot.rest('POST', '/v1/alerts', { key, body: { name: 'H', mode: 'hourly', channelIds: [webhook.id] } })).body;
    refusal(await earshot.rest('PATCH', `/v1/alerts/${hourly.id}`, { key, body: { channelIds: [webhook.id, email.id] } }));
    const daily = (await earshot.rest('POST', '/v1/alerts', { key, body: { name: 'D', mode: 'daily', schedule: { hour: 6 }, channelIds: [email.id] } })).body;
    expect(daily.channelIds).toEqual([email.id]);
    refusal(await earshot.rest('PATCH', `/v1/alerts/${daily.id}`, { key, body: { mode: 'hourly' } }));
    expect((await earshot.rest('GET', `/v1/alerts/${daily.id}`, { key })).body).toMatchObject({ mode: 'daily', channelIds: [email.id] });
    expect((await earshot.rest('GET', `/v1/alerts/${hourly.id}`, { key })).body.channelIds).toEqual([webhook.id]);
    // Becoming hourly while leaving e-mail in the same change is fine.
    const moved = await earshot.rest('PATCH', `/v1/alerts/${daily.id}`, { key, body: { mode: 'hourly', channelIds: [webhook.id] } });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ mode: 'hourly', schedule: null, channelIds: [webhook.id] });

    const viaGraphQL = await earshot.graphql('mutation($input: CreateAlertRuleInput!) { createAlertRule(input: $input) { id } }', { input: { name: 'G', mode: 'hourly', channelIds: [email.id] } }, key);
    expect(viaGraphQL.body.errors[0].extensions).toMatchObject({ code: 'hourly_email_unsupported', field: 'channelIds' });
  });
});
