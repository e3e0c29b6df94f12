import { createHmac } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type SlackApp,
  exchangeSlackCode,
  parseSlackInteraction,
  postSlackMessage,
  requireSlackApp,
  slackApp,
  slackInstallUrl,
  verifySlackRequest,
} from '../subgraphs/team/slack-api.ts';
import { IntegrationError } from '../subgraphs/team/integration-error.ts';
import { startFakeServer } from './fake-upstreams/fake-server.ts';
import { type FakeSlack, slackInteractionRequest, startFakeSlack } from './fake-upstreams/slack.ts';

const message = {
  text: 'New mention of "earshot"',
  blocks: [
    { type: 'header', text: { type: 'plain_text', text: 'New mention of "earshot"' } },
    { type: 'section', text: { type: 'mrkdwn', text: '> Earshot looks handy' } },
  ],
};

let slack: FakeSlack;
let app: SlackApp;

beforeEach(async () => {
  slack = await startFakeSlack();
  app = slackApp({
    EARSHOT_SLACK_CLIENT_ID: slack.clientId,
    EARSHOT_SLACK_CLIENT_SECRET: slack.clientSecret,
    EARSHOT_SLACK_SIGNING_SECRET: 'signing-secret',
    EARSHOT_UPSTREAM_SLACK: slack.url,
    EARSHOT_PUBLIC_URL: 'https://app.example/',
  })!;
});
afterEach(() => slack.close());

/** Runs the install as a browser would: the authorize page redirects back with a code, which is exchanged for the bot token. */
async function install(): Promise<string> {
  const authorize = await fetch(slackInstallUrl(app, 'state-123'), { redirect: 'manual' });
  const callback = new URL(authorize.headers.get('location')!);
  expect(callback.searchParams.get('state')).toBe('state-123');
  const installed = await exchangeSlackCode(app, callback.searchParams.get('code')!);
  return installed.botToken;
}

describe('Slack app settings', () => {
  it('needs the client id, the client secret and the signing secret; the base and the redirect follow the environment', () => {
    expect(app).toEqual({
      apiBase: slack.url,
      clientId: slack.clientId,
      clientSecret: slack.clientSecret,
      signingSecret: 'signing-secret',
      redirectUri: 'https://app.example/v1/slack/oauth/callback',
    });
    expect(slackApp({ EARSHOT_SLACK_CLIENT_ID: 'id', EARSHOT_SLACK_CLIENT_SECRET: 'secret', EARSHOT_SLACK_SIGNING_SECRET: 's', PORT: '4100' })).toMatchObject({
      apiBase: 'https://slack.com',
      redirectUri: 'http://localhost:4100/v1/slack/oauth/callback',
    });
    expect(slackApp({ EARSHOT_SLACK_CLIENT_ID: 'id', EARSHOT_SLACK_CLIENT_SECRET: 'secret' })).toBeNull();
    const failure = (() => {
      try {
        return requireSlackApp({});
      } catch (error) {
        return error;
      }
    })();
    expect(failure).toMatchObject({ extensions: { code: 'slack_not_configured' } });
  });

  it('builds the install address of the real authorize page', () => {
    const url = new URL(slackInstallUrl({ ...app, apiBase: 'https://slack.com' }, 'st ate'));
    expect(url.origin + url.pathname).toBe('https://slack.com/oauth/v2/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: slack.clientId,
      scope: 'chat:write,chat:write.public,channels:read,groups:read',
      redirect_uri: 'https://app.example/v1/slack/oauth/callback',
      state: 'st ate',
    });
  });
});

describe('oauth.v2.access', () => {
  it('trades the code of the redirect for a bot token, the client credentials in Basic auth', async () => {
    const code = slack.approveInstall(app.redirectUri);
    const installed = await exchangeSlackCode(app, code);
    expect(installed).toEqual({
      botToken: expect.stringMatching(/^xoxb-/),
      botUserId: 'U0EARSHOTB',
      appId: 'A0EARSHOT1',
      team: { id: 'T0EARSHOT1', name: 'Earshot Testers' },
      scopes: ['chat:write', 'chat:write.public', 'channels:read', 'groups:read'],
    });
    const [request] = slack.requests;
    expect(request.headers.authorization).toBe(`Basic ${Buffer.from(`${slack.clientId}:${slack.clientSecret}`).toString('base64')}`);
    expect(Object.fromEntries(new URLSearchParams(request.body))).toEqual({ code, redirect_uri: app.redirectUri });
  });

  it('fails permanently on a used code, a wrong secret or another redirect address', async () => {
    const code = slack.approveInstall(app.redirectUri);
    await exchangeSlackCode(app, code);
    await expect(exchangeSlackCode(app, code)).rejects.toMatchObject({ platform: 'slack', code: 'invalid_code', transient: false });
    await expect(exchangeSlackCode({ ...app, clientSecret: 'wrong' }, slack.approveInstall(app.redirectUri))).rejects.toMatchObject({
      code: 'bad_client_secret',
      transient: false,
    });
    await expect(exchangeSlackCode({ ...app, redirectUri: 'https://elsewhere.example/cb' }, slack.approveInstall(app.redirectUri))).rejects.toMatchObject({
      code: 'bad_redirect_uri',
      transient: false,
    });
  });
});

describe('chat.postMessage', () => {
  it('posts Block Kit with the bot token and answers the message ts', async () => {
    const botToken = await install();
    const posted = await postSlackMessage({ apiBase: app.apiBase, botToken }, 'C0ALERTS01', message);
    expect(posted).toEqual({ channel: 'C0ALERTS01', ts: slack.messages[0].ts });
    expect(slack.messages).toEqual([
      {
        channel: 'C0ALERTS01',
        ts: posted.ts,
        text: message.text,
        blocks: message.blocks,
        body: { channel: 'C0ALERTS01', ...message, unfurl_links: false, unfurl_media: false },
      },
    ]);
    expect(slack.requests.at(-1)!.headers.authorization).toBe(`Bearer ${botToken}`);
  });

  it('maps a rate limit to a transient failure carrying Retry-After', async () => {
    const botToken = await install();
    await slack.close();
    slack = await startFakeSlack({ retryAfterSeconds: 7 });
    slack.botTokens.add(botToken);
    slack.failNext('rate-limit');
    const failure = await postSlackMessage({ apiBase: slack.url, botToken }, 'C0ALERTS01', message).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(IntegrationError);
    expect(failure).toMatchObject({ platform: 'slack', code: 'ratelimited', transient: true, status: 429, retryAfterSeconds: 7 });
    expect(slack.messages).toEqual([]);
  });

  it('treats an unknown channel, a revoked token and being out of the channel as permanent, an outage as transient', async () => {
    const botToken = await install();
    const bot = { apiBase: app.apiBase, botToken };
    await expect(postSlackMessage(bot, 'C0NOTHERE1', message)).rejects.toMatchObject({ code: 'channel_not_found', transient: false, status: 200 });
    slack.failPostsWith('not_in_channel');
    await expect(postSlackMessage(bot, 'C0ALERTS01', message)).rejects.toMatchObject({ code: 'not_in_channel', transient: false });
    slack.failPostsWith('internal_error');
    await expect(postSlackMessage(bot, 'C0ALERTS01', message)).rejects.toMatchObject({ code: 'internal_error', transient: true });
    slack.failNext('server-error');
    await expect(postSlackMessage(bot, 'C0ALERTS01', message)).rejects.toMatchObject({ code: 'http_500', transient: true, status: 500 });
    slack.failNext('malformed');
    await expect(postSlackMessage(bot, 'C0ALERTS01', message)).rejects.toMatchObject({ code: 'http_200', transient: true });
    await expect(postSlackMessage({ ...bot, botToken: 'xoxb-1-2-revoked' }, 'C0ALERTS01', message)).rejects.toMatchObject({
      code: 'invalid_auth',
      transient: false,
    });
    expect(slack.messages).toEqual([]);
  });

  it('treats a refused connection as transient', async () => {
    const base = slack.url;
    await slack.close();
    await expect(postSlackMessage({ apiBase: base, botToken: 'xoxb-1' }, 'C0ALERTS01', message, { timeoutMs: 1000 })).rejects.toMatchObject({
      code: 'network_error',
      transient: true,
    });
    slack = await startFakeSlack();
  });

  it('is refused by Slack when the blocks break its limits', async () => {
    const botToken = await install();
    const tooLong = { text: 'x', blocks: [{ type: 'header', text: { type: 'plain_text', text: 'x'.repeat(151) } }] };
    await expect(postSlackMessage({ apiBase: app.apiBase, botToken }, 'C0ALERTS01', tooLong)).rejects.toMatchObject({ code: 'invalid_blocks', transient: false });
  });
});

describe('a Slack-compatible server that answers sparingly', () => {
  it('installs from a token and a team alone, and takes ok: true as the post', async () => {
    const sparse = await startFakeServer((request) => {
      if (request.path === '/api/oauth.v2.access') return { body: { ok: true, access_token: 'xoxb-sparse', team: { id: 'T0SPARSE01', name: 'Sparse' } } };
      if (request.path === '/api/chat.postMessage') return { body: { ok: true } };
      return null;
    });
    try {
      const sparing = { ...app, apiBase: sparse.url };
      expect(await exchangeSlackCode(sparing, 'code-1')).toEqual({ botToken: 'xoxb-sparse', botUserId: '', appId: '', team: { id: 'T0SPARSE01', name: 'Sparse' }, scopes: [] });
      expect(await postSlackMessage({ apiBase: sparing.apiBase, botToken: 'xoxb-sparse' }, 'C0ALERTS01', message)).toEqual({ channel: 'C0ALERTS01', ts: null });
    } finally {
      await sparse.close();
    }
  });
});

describe('verifySlackRequest', () => {
  const secret = '8f742231b10e8888abcd99yyyzzz85a5';
  const at = new Date('2026-11-25T04:00:00Z');
  const signed = slackInteractionRequest(secret, { actionId: 'mention_interacted', value: 'mm_1' }, at);

  it('accepts the v0 signature of the exact body within five minutes', () => {
    expect(verifySlackRequest(secret, signed.headers, signed.body, at)).toBe(true);
    expect(verifySlackRequest(secret, new Headers(signed.headers), Buffer.from(signed.body), new Date(at.getTime() + 299_000))).toBe(true);
  });

  it('matches the worked example of Slack’s documentation', () => {
    const body =
      'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c';
    const timestamp = '1531420618';
    const expected = `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
    expect(expected).toBe('v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503');
    expect(verifySlackRequest(secret, { 'X-Slack-Request-Timestamp': timestamp, 'X-Slack-Signature': expected }, body, new Date(1531420618_000))).toBe(true);
  });

  it('refuses a wrong secret, a stale or future timestamp, a tampered body and a malformed header', () => {
    expect(verifySlackRequest('another-secret', signed.headers, signed.body, at)).toBe(false);
    expect(verifySlackRequest(secret, signed.headers, signed.body, new Date(at.getTime() + 301_000))).toBe(false);
    expect(verifySlackRequest(secret, signed.headers, signed.body, new Date(at.getTime() - 301_000))).toBe(false);
    expect(verifySlackRequest(secret, signed.headers, `${signed.body}&x=1`, at)).toBe(false);
    expect(verifySlackRequest(secret, { ...signed.headers, 'x-slack-signature': 'v0=abc' }, signed.body, at)).toBe(false);
    expect(verifySlackRequest(secret, { ...signed.headers, 'x-slack-signature': signed.headers['x-slack-signature'].replace('v0=', 'v1=') }, signed.body, at)).toBe(false);
    expect(verifySlackRequest(secret, { 'x-slack-signature': signed.headers['x-slack-signature'] }, signed.body, at)).toBe(false);
  });
});

describe('parseSlackInteraction', () => {
  it('reads a click on an Interacted button from the form-encoded block_actions payload', () => {
    const { body } = slackInteractionRequest('s', { actionId: 'mention_interacted', value: 'mm_42', user: { id: 'U07', username: 'grace' }, messageTs: '1760000009.000100' });
    expect(parseSlackInteraction(body)).toEqual({
      teamId: 'T0EARSHOT1',
      user: { id: 'U07', name: 'grace' },
      channelId: 'C0ALERTS01',
      messageTs: '1760000009.000100',
      responseUrl: 'https://hooks.slack.com/actions/T0EARSHOT1/1/abc',
      mentionIds: ['mm_42'],
    });
  });

  it('is null for other actions, other payloads and broken bodies', () => {
    expect(parseSlackInteraction(slackInteractionRequest('s', { actionId: 'open_post', value: 'x' }).body)).toBeNull();
    expect(parseSlackInteraction(new URLSearchParams({ payload: JSON.stringify({ type: 'view_submission' }) }).toString())).toBeNull();
    expect(parseSlackInteraction('payload=%7Bnot-json')).toBeNull();
    expect(parseSlackInteraction('')).toBeNull();
  });
});
