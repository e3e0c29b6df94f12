import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestEarshot, type TestEarshot } from './harness.ts';
import { type FakeSlack, startFakeSlack } from './fake-upstreams/slack.ts';
import { redditPost, relevantRustPosts, rustContext, storeAndScore } from './scored-mentions.ts';

let slack: FakeSlack;
let earshot: TestEarshot;
let key: string;
let workspaceId: string;
let rust: string;

beforeAll(async () => {
  slack = await startFakeSlack();
  earshot = await startTestEarshot({
    env: {
      EARSHOT_SLACK_CLIENT_ID: slack.clientId,
      EARSHOT_SLACK_CLIENT_SECRET: slack.clientSecret,
      EARSHOT_SLACK_SIGNING_SECRET: 'signing-secret',
      EARSHOT_UPSTREAM_SLACK: slack.url,
      EARSHOT_PUBLIC_URL: 'https://app.example',
      EARSHOT_RETRY_DELAY_S: '1',
    },
  });
  const created = await earshot.createWorkspace('Acme');
  key = created.apiKey;
  workspaceId = created.workspace.id;
  await installSlack(key);
  rust = (await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'Rust', context: rustContext } })).body.id;
});
afterAll(async () => {
  await earshot?.stop();
  await slack?.close();
});

/** The install as a browser follows it: Earshot's install address, Slack's authorize page, back to the callback. */
async function installSlack(apiKey: string) {
  const start = await earshot.rest('GET', '/v1/slack/install', { key: apiKey });
  const authorize = await fetch(start.body.url, { redirect: 'manual' });
  const callback = new URL(authorize.headers.get('location')!);
  expect((await earshot.rest('GET', callback.pathname + callback.search)).status).toBe(200);
}

const deliveryLog = async (channelId: string) => (await earshot.rest('GET', `/v1/channels/${channelId}/deliveries`, { key })).body.data;

async function slackChannel(channelId = 'C0ALERTS01', channelName = 'alerts') {
  const answer = await earshot.rest('POST', '/v1/channels', { key, body: { kind: 'slack', label: 'Alerts', channelId, channelName } });
  expect(answer.status).toBe(200);
  return answer.body.id as string;
}

describe('Slack channels', () => {
  it('are created with the Slack channel in their config, and refuse a malformed channel id', async () => {
    const created = await earshot.rest('POST', '/v1/channels', { key, body: { kind: 'slack', channelId: 'C0ALERTS01', channelName: '#alerts' } });
    expect(created.body).toEqual({
      id: expect.stringMatching(/^dest_/),
      kind: 'slack',
      label: 'Slack #alerts',
      config: { url: null, headers: {}, events: [], secret: null, channelId: 'C0ALERTS01', channelName: 'alerts' },
      stats: { alerts: 0, activeAlerts: 0, lastDeliveryAt: null, last7d: { total: 0, failed: 0 } },
      createdAt: expect.any(String),
    });
    for (const [body, field] of [
      [{ kind: 'slack', label: 'x' }, 'channelId'],
      [{ kind: 'slack', channelId: '#alerts' }, 'channelId'],
      [{ kind: 'slack', channelId: 'C0ALERTS01', chatId: '123456789' }, 'chatId'],
      [{ kind: 'webhook', url: 'https://example.com/hook', channelId: 'C0ALERTS01' }, 'channelId'],
    ] as const) {
      const answer = await earshot.rest('POST', '/v1/channels', { key, body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error).toMatchObject({ code: 'validation_error', field });
    }
  });

  it('answers 409 slack_not_connected before the workspace installs the app, 501 slack_not_configured without the app settings', async () => {
    const other = await earshot.createWorkspace('Not installed');
    const body = { kind: 'slack', label: 'Alerts', channelId: 'C0ALERTS01' };
    const notConnected = await earshot.rest('POST', '/v1/channels', { key: other.apiKey, body });
    expect(notConnected.status).toBe(409);
    expect(notConnected.body.error).toMatchObject({ code: 'slack_not_connected', requestId: expect.any(String) });
    const bare = await startTestEarshot();
    try {
      const { apiKey } = await bare.createWorkspace();
      const notConfigured = await bare.rest('POST', '/v1/channels', { key: apiKey, body });
      expect(notConfigured.status).toBe(501);
      expect(notConfigured.body.error).toMatchObject({ code: 'slack_not_configured', requestId: expect.any(String) });
    } finally {
      await bare.stop();
    }
  });

  it('posts a test send with chat.postMessage', async () => {
    const id = await slackChannel('C0GENERAL1', 'general');
    const posted = slack.messages.length;
    expect((await earshot.rest('POST', `/v1/channels/${id}/test`, { key })).body).toEqual({ outcomes: [{ channelId: id, ok: true, error: null }] });
    const [message] = slack.messages.slice(posted);
    expect(message.channel).toBe('C0GENERAL1');
    expect(JSON.stringify(message.blocks)).toContain('This is a test delivery from Earshot. Your channel is set up.');
    expect(message.body).toMatchObject({ unfurl_links: false, unfurl_media: false });
    expect((await deliveryLog(id))[0]).toMatchObject({ kind: 'event', event: 'test', status: 'delivered', attempts: 1 });
  });

  it('posts a mention alert in Block Kit with a link to the post and the Interacted button', async () => {
    const id = await slackChannel();
    const rule = (await earshot.rest('POST', '/v1/alerts', { key, body: { name: 'Rust in Slack', channelIds: [id], filter: { keywordIds: [rust] } } })).body;
    const posted = slack.messages.length;
    const [mentionId] = await storeAndScore(earshot, workspaceId, [{ post: redditPost(relevantRustPosts[0], 'ferris'), keywordIds: [rust] }]);
    const [message] = await eventually(async () => slack.messages.slice(posted), (messages) => messages.length === 1);
    const mention = (await earshot.rest('GET', `/v1/mentions/${mentionId}`, { key })).body;
    expect(message.channel).toBe('C0ALERTS01');
    expect(message.text).toContain('New mention: “Rust” on Reddit');
    const buttons = message.blocks!.filter((block) => block.type === 'actions').flatMap((block) => block.elements);
    expect(buttons).toEqual([
      expect.objectContaining({ type: 'button', url: mention.post.url }),
      expect.objectContaining({ type: 'button', action_id: 'mention_interacted', value: mentionId }),
    ]);
    expect(JSON.stringify(message.blocks)).toContain('ferris');
    expect((await eventually(() => deliveryLog(id), (log) => log[0]?.status === 'delivered'))[0]).toMatchObject({ kind: 'mention', attempts: 1 });
    await earshot.rest('DELETE', `/v1/alerts/${rule.id}`, { key });
  });

  it('retries a rate limit and fails a refusal at once', async () => {
    const flaky = await slackChannel();
    const rule = (await earshot.rest('POST', '/v1/alerts', { key, body: { name: 'Flaky Slack', channelIds: [flaky], filter: { keywordIds: [rust] } } })).body;
    slack.failNext('rate-limit');
    await storeAndScore(earshot, workspaceId, [{ post: redditPost(relevantRustPosts[1]), keywordIds: [rust] }]);
    const [delivered] = await eventually(() => deliveryLog(flaky), (log) => log[0]?.status === 'delivered', 15_000);
    expect(delivered).toMatchObject({ attempts: 2, error: null });
    expect(delivered.attemptLog.map((attempt: any) => attempt.status)).toEqual([429, 200]);
    await earshot.rest('DELETE', `/v1/alerts/${rule.id}`, { key });

    const gone = await slackChannel('C0DELETED9', 'deleted');
    const refusing = (await earshot.rest('POST', '/v1/alerts', { key, body: { name: 'Gone channel', channelIds: [gone], filter: { keywordIds: [rust] } } })).body;
    const requests = slack.requests.length;
    await storeAndScore(earshot, workspaceId, [{ post: redditPost(relevantRustPosts[2]), keywordIds: [rust] }]);
    const [failed] = await eventually(() => deliveryLog(gone), (log) => log[0]?.status === 'failed');
    expect(failed).toMatchObject({ attempts: 1, error: expect.stringContaining('channel_not_found') });
    await new Promise((resolve) => setTimeout(resolve, 1500)); // past EARSHOT_RETRY_DELAY_S: not tried again
    expect(slack.requests.slice(requests).filter((request) => request.path === '/api/chat.postMessage')).toHaveLength(1);
    await earshot.rest('DELETE', `/v1/alerts/${refusing.id}`, { key });
  });

  it('moves to another Slack channel with PATCH channelId (named by its id unless a name is given)', async () => {
    const id = await slackChannel('C0BEFORE01', 'before');
    slack.channels.set('C0AFTER001', 'after');
    const moved = await earshot.rest('PATCH', `/v1/channels/${id}`, { key, body: { channelId: 'C0AFTER001' } });
    expect(moved.status).toBe(200);
    expect(moved.body.config).toEqual({ url: null, headers: {}, events: [], channelId: 'C0AFTER001', channelName: 'C0AFTER001' });
    const renamed = await earshot.rest('PATCH', `/v1/channels/${id}`, { key, body: { channelName: '#after' } });
    expect(renamed.body.config).toMatchObject({ channelId: 'C0AFTER001', channelName: 'after' });
    const posted = slack.messages.length;
    expect((await earshot.rest('POST', `/v1/channels/${id}/test`, { key })).body.outcomes[0].ok).toBe(true);
    expect(slack.messages.slice(posted).map((message) => message.channel)).toEqual(['C0AFTER001']);
    const chat = await earshot.rest('PATCH', `/v1/channels/${id}`, { key, body: { chatId: '123456789' } });
    expect(chat.status).toBe(400);
    expect(chat.body.error).toMatchObject({ code: 'validation_error', field: 'chatId' });
  });
});

describe('Slack notifications', () => {
  it('post the relevant mentions at or above minRelevance from the listed sources to the chosen Slack channel, once each', async () => {
    slack.channels.set('C0NOTIFY01', 'brand').set('C0NOTIFY02', 'brand-2');
    const settings = await earshot.rest('PUT', '/v1/slack/notifications', { key, body: { channelId: 'C0NOTIFY01', channelName: 'brand', minRelevance: 40, sources: ['reddit'] } });
    expect(settings.status).toBe(200);
    const posted = slack.messages.length;
    const hackerNews = { ...redditPost(relevantRustPosts[2], 'hn-user'), platform: 'hackernews' as const, url: 'https://news.ycombinator.com/item?id=1' };
    const [fromReddit, fromHackerNews, offTopic] = await storeAndScore(earshot, workspaceId, [
      { post: redditPost(relevantRustPosts[0], 'notified'), keywordIds: [rust] },
      { post: hackerNews, keywordIds: [rust] },
      { post: redditPost('My rust bucket of a car failed its inspection again, the garage wants a fortune'), keywordIds: [rust] },
    ]);
    const [message] = await eventually(async () => slack.messages.slice(posted), (messages) => messages.length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(slack.messages.slice(posted)).toHaveLength(1);
    expect(message.channel).toBe('C0NOTIFY01');
    expect(message.text).toContain('New mention: “Rust” on Reddit');
    const buttons = message.blocks!.filter((block) => block.type === 'actions').flatMap((block) => block.elements);
    expect(buttons).toContainEqual(expect.objectContaining({ action_id: 'mention_interacted', value: fromReddit }));
    expect((await earshot.rest('GET', `/v1/mentions/${fromReddit}`, { key })).body.delivered).toBe(true);
    expect((await earshot.rest('GET', `/v1/mentions/${fromHackerNews}`, { key })).body.delivered).toBe(false);
    const scores = await earshot.sql<{ id: string; relevance: number }[]>`select id, relevance from mentions where id = ${offTopic}`;
    expect(scores[0].relevance).toBeLessThan(40);
    // Scoring the same mentions again enqueues nothing more.
    await earshot.sendJob('score', { mentionIds: [fromReddit] });
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(slack.messages.slice(posted)).toHaveLength(1);
    const rows = await earshot.sql`select status, attempts from deliveries where workspace_id = ${workspaceId} and slack_notifications`;
    expect(rows).toEqual([{ status: 'delivered', attempts: 1 }]);
  });

  it('follow a change of channel and of threshold', async () => {
    await earshot.rest('PUT', '/v1/slack/notifications', { key, body: { channelId: 'C0NOTIFY02', channelName: 'brand-2', minRelevance: 100, sources: [] } });
    const posted = slack.messages.length;
    await storeAndScore(earshot, workspaceId, [{ post: redditPost(relevantRustPosts[1], 'below-threshold'), keywordIds: [rust] }]);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(slack.messages.slice(posted)).toEqual([]);
    await earshot.rest('PUT', '/v1/slack/notifications', { key, body: { channelId: 'C0NOTIFY02', channelName: 'brand-2', minRelevance: null, sources: [] } });
    await storeAndScore(earshot, workspaceId, [{ post: redditPost(relevantRustPosts[2], 'any-relevance'), keywordIds: [rust] }]);
    const messages = await eventually(async () => slack.messages.slice(posted), (found) => found.length >= 1);
    expect(messages.map((message) => message.channel)).toEqual(['C0NOTIFY02']);
  });
});
