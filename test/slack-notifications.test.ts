import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchangeSlackCode, slackApp } from '../subgraphs/team/slack-api.ts';
import { saveSlackInstall } from '../subgraphs/team/slack-connection-store.ts';
import { type FakeSlack, startFakeSlack } from './fake-upstreams/slack.ts';
import { startTestEarshot, type TestEarshot } from './harness.ts';

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
  };
  [earshot, bare] = await Promise.all([startTestEarshot({ env }), startTestEarshot({ env: {} })]);
});
afterAll(async () => {
  await Promise.all([earshot?.stop(), bare?.stop()]);
  await slack?.close();
});

/** A workspace that has installed the Slack app, through the real OAuth exchange with the fake Slack. */
async function connectedWorkspace() {
  const created = await earshot.createWorkspace();
  const app = slackApp(env)!;
  const install = await exchangeSlackCode(app, slack.approveInstall(app.redirectUri));
  await saveSlackInstall(earshot.sql, created.workspace.id, install, new Date());
  return created;
}

const envelope = (code: string) => ({ error: { code, message: expect.any(String), requestId: expect.any(String) } });

describe('PUT /v1/slack/notifications', () => {
  it('stores where notifications go and answers the connection', async () => {
    const { apiKey } = await connectedWorkspace();
    const response = await earshot.rest('PUT', '/v1/slack/notifications', { key: apiKey, body: settings });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ configured: true, connected: true, teamName: 'Earshot Testers', notifications: settings });

    const changed = await earshot.rest('PUT', '/v1/slack/notifications', { key: apiKey, body: { channelId: 'C0GENERAL1', channelName: 'general' } });
    expect(changed.status).toBe(200);
    expect(changed.body.notifications).toEqual({ channelId: 'C0GENERAL1', channelName: 'general', minRelevance: null, sources: [] });
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
