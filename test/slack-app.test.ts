import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slackApp } from '../subgraphs/team/slack-api.ts';
import { slackInstallState } from '../subgraphs/team/slack-install.ts';
import { storeMatchedPost } from '../subgraphs/mentions/mention-store.ts';
import type { NormalizedPost } from '../vocabulary/normalized-post.ts';
import { type FakeSlack, slackInteractionRequest, startFakeSlack } from './fake-upstreams/slack.ts';
import { startTestEarshot, testSecrets, type TestEarshot } from './harness.ts';

let slack: FakeSlack;
let earshot: TestEarshot;
let bare: TestEarshot;
let env: NodeJS.ProcessEnv;

const settings = { channelId: 'C0ALERTS01', channelName: 'alerts', minRelevance: 60, sources: ['reddit', 'hackernews'] };

beforeAll(async () => {
  slack = await startFakeSlack();
  env = {
    EARSHOT_SLACK_CLIENT_ID: slack.clientId,
    EARSHOT_SLACK_CLIENT_SECRET: slack.clientSecret,
    EARSHOT_SLACK_SIGNING_SECRET: 'signing-secret',
    EARSHOT_UPSTREAM_SLACK: slack.url,
    EARSHOT_PUBLIC_URL: 'https://app.example',
  };
  [earshot, bare] = await Promise.all([startTestEarshot({ env }), startTestEarshot({ env: {} })]);
});
afterAll(async () => {
  await Promise.all([earshot?.stop(), bare?.stop()]);
  await slack?.close();
});

/** Follows the install as a browser would: Earshot's install address, Slack's authorize page, back to the callback. */
async function install(apiKey: string): Promise<{ callback: URL; response: Awaited<ReturnType<TestEarshot['rest']>> }> {
  const start = await earshot.rest('GET', '/v1/slack/install', { key: apiKey });
  expect(start.status).toBe(200);
  const authorize = await fetch(start.body.url, { redirect: 'manual' });
  const callback = new URL(authorize.headers.get('location')!);
  expect(callback.origin + callback.pathname).toBe('https://app.example/v1/slack/oauth/callback');
  return { callback, response: await earshot.rest('GET', callback.pathname + callback.search) };
}

/** A workspace that has installed the Slack app. */
async function connectedWorkspace() {
  const created = await earshot.createWorkspace();
  const { response } = await install(created.apiKey);
  expect(response.status).toBe(200);
  return created;
}

const envelope = (code: string) => ({ error: { code, message: expect.any(String), requestId: expect.any(String) } });

describe('connecting a workspace to Slack', () => {
  it('installs the app through OAuth: the install address, Slack’s redirect, the code traded for a bot token', async () => {
    const { apiKey, workspace } = await earshot.createWorkspace();
    const start = await earshot.rest('GET', '/v1/slack/install', { key: apiKey });
    const url = new URL(start.body.url);
    expect(url.origin + url.pathname).toBe(`${slack.url}/oauth/v2/authorize`);
    expect(url.searchParams.get('state')).toMatch(new RegExp(`^${workspace.id}\\.\\d+\\.[0-9a-f]{64}$`));

    const { response } = await install(apiKey);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ connected: true, teamName: 'Earshot Testers' });
    const [row] = await earshot.sql`select team_id, team_name, bot_token from slack_connections where workspace_id = ${workspace.id}`;
    // The token is kept sealed for this workspace (see secrets-at-rest.test.ts).
    expect(row).toEqual({ teamId: 'T0EARSHOT1', teamName: 'Earshot Testers', botToken: expect.stringMatching(/^v1\./) });
    expect(slack.botTokens.has(testSecrets.open(row.botToken, `slack_connections.bot_token/${workspace.id}`))).toBe(true);
  });

  it('refuses a forged, altered or expired state, a declined install and a used code with a 400', async () => {
    const { apiKey, workspace } = await earshot.createWorkspace();
    const other = await earshot.createWorkspace();
    const { callback } = await install(apiKey);
    const code = callback.searchParams.get('code')!;
    const state = callback.searchParams.get('state')!;
    const app = slackApp(env)!;
    const attempts: [Record<string, string>, string][] = [
      [{ code, state: state.replace(workspace.id, other.workspace.id) }, 'state'],
      [{ code, state: slackInstallState({ ...app, clientSecret: 'guessed' }, other.workspace.id, new Date()) }, 'state'],
      [{ code, state: slackInstallState(app, workspace.id, new Date(Date.now() - 11 * 60_000)) }, 'state'],
      [{ code, state: 'nonsense' }, 'state'],
      [{ error: 'access_denied', state }, 'code'],
      [{ code, state }, 'code'],
    ];
    for (const [query, field] of attempts) {
      const response = await earshot.rest('GET', `/v1/slack/oauth/callback?${new URLSearchParams(query)}`);
      expect({ query, status: response.status, code: response.body.error.code, field: response.body.error.field }).toEqual({ query, status: 400, code: 'validation_error', field });
    }
    const [row] = await earshot.sql`select count(*)::int as connections from slack_connections where workspace_id = ${other.workspace.id}`;
    expect(row.connections).toBe(0);
  });

  it('answers 502 upstream_unavailable while Slack is down; the same callback works once it is back', async () => {
    const { apiKey } = await earshot.createWorkspace();
    const start = await earshot.rest('GET', '/v1/slack/install', { key: apiKey });
    const callback = new URL((await fetch(start.body.url, { redirect: 'manual' })).headers.get('location')!);
    slack.failNext('server-error');
    const down = await earshot.rest('GET', callback.pathname + callback.search);
    expect(down.status).toBe(502);
    expect(down.body.error).toMatchObject({ code: 'upstream_unavailable', retryAfterSeconds: 30 });
    const again = await earshot.rest('GET', callback.pathname + callback.search);
    expect(again.body).toEqual({ connected: true, teamName: 'Earshot Testers' });
  });

  it('answers 502 upstream_unavailable within the request deadline while Slack does not answer', async () => {
    const { apiKey } = await earshot.createWorkspace();
    const start = await earshot.rest('GET', '/v1/slack/install', { key: apiKey });
    const callback = new URL((await fetch(start.body.url, { redirect: 'manual' })).headers.get('location')!);
    slack.failNext('slow');
    const asked = Date.now();
    const silent = await earshot.rest('GET', callback.pathname + callback.search);
    expect(Date.now() - asked).toBeLessThan(4_500);
    expect(silent.status).toBe(502);
    expect(silent.body.error).toMatchObject({ code: 'upstream_unavailable' });
  }, 15_000);

  it('answers 501 slack_not_configured without a Slack app', async () => {
    const { apiKey } = await bare.createWorkspace();
    expect((await bare.rest('GET', '/v1/slack/install', { key: apiKey })).body).toEqual(envelope('slack_not_configured'));
    const callback = await bare.rest('GET', '/v1/slack/oauth/callback?code=1&state=x');
    expect(callback.status).toBe(501);
    expect(callback.body).toEqual(envelope('slack_not_configured'));
  });
});

describe('PUT /v1/slack/notifications', () => {
  it('stores where notifications go and answers the connection', async () => {
    const { apiKey } = await connectedWorkspace();
    const response = await earshot.rest('PUT', '/v1/slack/notifications', { key: apiKey, body: settings });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ configured: true, connected: true, teamName: 'Earshot Testers', notifications: settings });

    const changed = await earshot.rest('PUT', '/v1/slack/notifications', { key: apiKey, body: { channelId: 'C0GENERAL1', channelName: 'general' } });
    expect(changed.status).toBe(200);
    expect(changed.body.notifications).toEqual({ channelId: 'C0GENERAL1', channelName: 'general', minRelevance: null, sources: [] });

    const twice = await earshot.rest('PUT', '/v1/slack/notifications', { key: apiKey, body: { ...settings, sources: ['reddit', 'github', 'reddit'] } });
    expect(twice.body.notifications.sources).toEqual(['reddit', 'github']);
  });

  it('answers 409 slack_not_connected before the workspace installs the app', async () => {
    const { apiKey } = await earshot.createWorkspace();
    const response = await earshot.rest('PUT', '/v1/slack/notifications', { key: apiKey, body: settings });
    expect(response.status).toBe(409);
    expect(response.body).toEqual(envelope('slack_not_connected'));
    expect(response.body.error.requestId).toBe(response.headers.get('x-request-id'));
  });

  it('answers 501 slack_not_configured on an install without a Slack app', async () => {
    const { apiKey } = await bare.createWorkspace();
    const response = await bare.rest('PUT', '/v1/slack/notifications', { key: apiKey, body: settings });
    expect(response.status).toBe(501);
    expect(response.body).toEqual(envelope('slack_not_configured'));
  });

  it('refuses fields outside spec 4.6 with validation_error naming the field, before anything else', async () => {
    const { apiKey } = await bare.createWorkspace();
    const cases: [Record<string, unknown>, string][] = [
      [{ ...settings, channelId: '' }, 'channelId'],
      [{ ...settings, channelId: 'C'.repeat(41) }, 'channelId'],
      [{ ...settings, channelName: 'n'.repeat(91) }, 'channelName'],
      [{ channelId: 'C1' }, 'channelName'],
      [{ ...settings, minRelevance: 101 }, 'minRelevance'],
      [{ ...settings, minRelevance: 12.5 }, 'minRelevance'],
      [{ ...settings, sources: ['reddit', 'myspace'] }, 'sources.1'],
      [{ ...settings, sources: ['reddit', 'hackernews', 'bluesky', 'github', 'x', 'youtube', 'news', 'devto', 'rss', 'appstore'] }, 'sources'],
      [{ ...settings, colour: 'red' }, 'colour'],
    ];
    for (const [body, field] of cases) {
      const response = await bare.rest('PUT', '/v1/slack/notifications', { key: apiKey, body });
      expect({ body, status: response.status, code: response.body.error.code, field: response.body.error.field }).toEqual({ body, status: 400, code: 'validation_error', field });
    }
  });

  it('keeps each workspace’s settings to itself', async () => {
    const first = await connectedWorkspace();
    const second = await connectedWorkspace();
    await earshot.rest('PUT', '/v1/slack/notifications', { key: first.apiKey, body: settings });
    const response = await earshot.rest('PUT', '/v1/slack/notifications', { key: second.apiKey, body: { channelId: 'C0GENERAL1', channelName: 'general', minRelevance: 90 } });
    expect(response.body.notifications.minRelevance).toBe(90);
    const [row] = await earshot.sql`select channel_id, min_relevance from slack_connections where workspace_id = ${first.workspace.id}`;
    expect(row).toEqual({ channelId: 'C0ALERTS01', minRelevance: 60 });
  });
});

describe('GET /v1/slack/channels', () => {
  const listRequests = () => slack.requests.filter((request) => request.path === '/api/conversations.list');

  it('lists the public channels and the private ones the app is in, archived ones left out, sorted by name; a read key may list', async () => {
    const { apiKey } = await connectedWorkspace();
    const reader = (await earshot.rest('POST', '/v1/api-keys', { key: apiKey, body: { name: 'reader', scope: 'read' } })).body.key;
    slack.channels.set('C0ZETA0001', 'zeta').set('C0SECRET01', 'board').set('C0OLD00001', 'archive-2019').set('G0HIDDEN01', 'hr');
    slack.privateChannels.add('C0SECRET01').add('G0HIDDEN01');
    slack.botMemberships.add('C0SECRET01');
    slack.archivedChannels.add('C0OLD00001');
    const before = listRequests().length;
    const listed = await earshot.rest('GET', '/v1/slack/channels', { key: reader });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({
      channels: [
        { id: 'C0ALERTS01', name: 'alerts', isPrivate: false, isMember: true },
        { id: 'C0SECRET01', name: 'board', isPrivate: true, isMember: true },
        { id: 'C0GENERAL1', name: 'general', isPrivate: false, isMember: false },
        { id: 'C0ZETA0001', name: 'zeta', isPrivate: false, isMember: false },
      ],
    });
    const [request] = listRequests().slice(before);
    expect(request.headers.authorization).toMatch(/^Bearer xoxb-/);
    expect(Object.fromEntries(new URLSearchParams(request.body))).toEqual({ types: 'public_channel,private_channel', exclude_archived: 'true', limit: '200' });
    for (const id of ['C0ZETA0001', 'C0SECRET01', 'C0OLD00001', 'G0HIDDEN01']) slack.channels.delete(id);
  });

  it('follows next_cursor page by page, and stops at 1,000 channels', async () => {
    const { apiKey } = await connectedWorkspace();
    const added = Array.from({ length: 1100 }, (_, i) => `C1${String(i).padStart(8, '0')}`);
    try {
      for (const id of added.slice(0, 448)) slack.channels.set(id, `team-${id.slice(2)}`);
      let before = listRequests().length;
      const all = await earshot.rest('GET', '/v1/slack/channels', { key: apiKey });
      expect(all.body.channels).toHaveLength(450);
      expect(new Set(all.body.channels.map((channel: { id: string }) => channel.id)).size).toBe(450);
      const cursors = listRequests().slice(before).map((request) => new URLSearchParams(request.body).get('cursor'));
      expect(cursors).toEqual([null, expect.any(String), expect.any(String)]);

      for (const id of added.slice(448)) slack.channels.set(id, `team-${id.slice(2)}`);
      before = listRequests().length;
      const capped = await earshot.rest('GET', '/v1/slack/channels', { key: apiKey });
      expect(capped.body.channels).toHaveLength(1000);
      expect(listRequests().length - before).toBe(5);
    } finally {
      for (const id of added) slack.channels.delete(id);
    }
  });

  it('answers 502 upstream_unavailable when Slack refuses or does not answer, 409 before an install, 501 without a Slack app', async () => {
    const { apiKey } = await connectedWorkspace();
    slack.failListsWith('missing_scope');
    const refused = await earshot.rest('GET', '/v1/slack/channels', { key: apiKey });
    expect(refused.status).toBe(502);
    expect(refused.body).toEqual(envelope('upstream_unavailable'));
    expect(refused.body.error.message).toContain('missing_scope');
    slack.failNext('server-error');
    expect((await earshot.rest('GET', '/v1/slack/channels', { key: apiKey })).body.error).toMatchObject({ code: 'upstream_unavailable', retryAfterSeconds: 30 });
    expect((await earshot.rest('GET', '/v1/slack/channels', { key: apiKey })).status).toBe(200);

    const unconnected = await earshot.createWorkspace();
    const notConnected = await earshot.rest('GET', '/v1/slack/channels', { key: unconnected.apiKey });
    expect([notConnected.status, notConnected.body]).toEqual([409, envelope('slack_not_connected')]);
    const { apiKey: bareKey } = await bare.createWorkspace();
    const notConfigured = await bare.rest('GET', '/v1/slack/channels', { key: bareKey });
    expect([notConfigured.status, notConfigured.body]).toEqual([501, envelope('slack_not_configured')]);
  });
});

describe('POST /v1/slack/interactions', () => {
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

  /** A connected workspace with one post matching two keywords (two mentions) and another post. */
  async function workspaceWithMentions() {
    const created = await connectedWorkspace();
    const keyword = async (term: string) => (await earshot.rest('POST', '/v1/keywords', { key: created.apiKey, body: { term, platforms: [] } })).body.id as string;
    const [brand, phrase] = [await keyword('Earshot'), await keyword('launch week')];
    const externalId = `p${Math.random().toString(36).slice(2)}`;
    const matches = [brand, phrase].map((keywordId) => ({ keywordId, workspaceId: created.workspace.id, fuzzy: false }));
    const [first, second] = await storeMatchedPost(earshot.sql, post(externalId), matches);
    const [unrelated] = await storeMatchedPost(earshot.sql, post(`${externalId}-other`), [matches[0]]);
    return { ...created, first: first.id, second: second.id, unrelated: unrelated.id };
  }

  const mention = async (apiKey: string, id: string) => (await earshot.rest('GET', `/v1/mentions/${id}`, { key: apiKey })).body;
  const click = (request: { headers: Record<string, string>; body: string }) => earshot.rest('POST', '/v1/slack/interactions', request);

  it('marks every match of the post done and notes who clicked on the clicked mention', async () => {
    const { apiKey, first, second, unrelated } = await workspaceWithMentions();
    await earshot.rest('PATCH', `/v1/mentions/${second}`, { key: apiKey, body: { status: 'ignored' } });
    const response = await click(slackInteractionRequest('signing-secret', { actionId: 'mention_interacted', value: first, user: { id: 'U07', username: 'grace' } }));
    expect(response.status).toBe(200);
    expect(response.body.mentionsDone.sort()).toEqual([first, second].sort());

    const [clicked, sibling, other] = [await mention(apiKey, first), await mention(apiKey, second), await mention(apiKey, unrelated)];
    expect(clicked.status).toBe('done');
    expect(clicked.triage.note).toMatch(/^Interacted in Slack by @grace, \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
    expect(sibling).toMatchObject({ status: 'done', triage: { note: null } });
    expect(other).toMatchObject({ status: 'open', triage: { note: null } });

    await click(slackInteractionRequest('signing-secret', { actionId: 'mention_interacted', value: first, user: { id: 'U08', username: 'ada' } }));
    expect((await mention(apiKey, first)).triage.note.split('\n')).toEqual([clicked.triage.note, expect.stringMatching(/^Interacted in Slack by @ada, /)]);
  });

  it('refuses an unsigned, wrongly signed, stale or altered request with 400 invalid_signature and changes nothing', async () => {
    const { apiKey, first } = await workspaceWithMentions();
    const signed = slackInteractionRequest('signing-secret', { actionId: 'mention_interacted', value: first });
    const attempts = [
      { headers: { 'content-type': signed.headers['content-type'] }, body: signed.body },
      slackInteractionRequest('another-secret', { actionId: 'mention_interacted', value: first }),
      slackInteractionRequest('signing-secret', { actionId: 'mention_interacted', value: first }, new Date(Date.now() - 6 * 60_000)),
      { headers: signed.headers, body: signed.body.replace('U0CLICKER1', 'U0CLICKER2') },
    ];
    for (const attempt of attempts) {
      const response = await click(attempt);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(envelope('invalid_signature'));
    }
    expect((await mention(apiKey, first)).status).toBe('open');
  });

  it('acknowledges other buttons, and never touches another workspace’s mentions', async () => {
    const { apiKey, first } = await workspaceWithMentions();
    const link = await click(slackInteractionRequest('signing-secret', { actionId: 'open_link_0', value: first }));
    expect(link).toMatchObject({ status: 200, body: { mentionsDone: [] } });

    const stranger = await earshot.createWorkspace();
    const keywordId = (await earshot.rest('POST', '/v1/keywords', { key: stranger.apiKey, body: { term: 'Earshot', platforms: [] } })).body.id;
    const [theirs] = await storeMatchedPost(earshot.sql, post(`stranger-${Date.now()}`), [{ keywordId, workspaceId: stranger.workspace.id, fuzzy: false }]);
    const response = await click(slackInteractionRequest('signing-secret', { actionId: 'mention_interacted', value: theirs.id }));
    expect(response.body).toEqual({ mentionsDone: [] });
    expect((await mention(stranger.apiKey, theirs.id)).status).toBe('open');
    expect((await mention(apiKey, first)).status).toBe('open');
  });
});
