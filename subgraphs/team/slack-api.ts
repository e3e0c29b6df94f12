import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { publicUrl } from '../../runtime/config.ts';
import { type RetryPolicy, UpstreamError, requestUpstream, upstreamBase } from '../../runtime/upstream-http.ts';
import { domainError } from '../domain-error.ts';
import { IntegrationError } from './integration-error.ts';

/**
 * Slack through a Slack app, speaking Slack's Web API: the OAuth v2 install
 * (`/oauth/v2/authorize`, then `oauth.v2.access` for a bot token),
 * `chat.postMessage` with Block Kit, `conversations.list` for the channel
 * picker, and the v0 request signature of the interactivity endpoint.
 *
 * - `EARSHOT_SLACK_CLIENT_ID`, `EARSHOT_SLACK_CLIENT_SECRET`, `EARSHOT_SLACK_SIGNING_SECRET`:
 *   the app's credentials; without all three Slack is `slack_not_configured`.
 * - `EARSHOT_UPSTREAM_SLACK`: base address, default `https://slack.com`.
 * - `EARSHOT_PUBLIC_URL`: base of the OAuth redirect address.
 */
export interface SlackApp {
  apiBase: string;
  clientId: string;
  clientSecret: string;
  signingSecret: string;
  /** Where Slack sends the installer back with `code` and `state`; must be listed in the app's redirect URLs. */
  redirectUri: string;
}

/** A workspace's installed bot: what posting needs. */
export interface SlackBot {
  apiBase: string;
  /** The `xoxb-…` token `oauth.v2.access` answered with. */
  botToken: string;
}

/**
 * The bot scopes the install asks for: posting, posting in public channels
 * it was not invited to, listing the public channels and the private ones it
 * was invited to, to pick from.
 */
export const slackBotScopes = ['chat:write', 'chat:write.public', 'channels:read', 'groups:read'] as const;

export const slackRedirectPath = '/v1/slack/oauth/callback';

export const slackApiBase = (env: NodeJS.ProcessEnv): string => upstreamBase('slack', 'https://slack.com', env, '/api');

/** The Slack app of this install, or null when one of its credentials is not set. */
export function slackApp(env: NodeJS.ProcessEnv): SlackApp | null {
  const clientId = env.EARSHOT_SLACK_CLIENT_ID;
  const clientSecret = env.EARSHOT_SLACK_CLIENT_SECRET;
  const signingSecret = env.EARSHOT_SLACK_SIGNING_SECRET;
  if (!clientId || !clientSecret || !signingSecret) return null;
  return { apiBase: slackApiBase(env), clientId, clientSecret, signingSecret, redirectUri: `${publicUrl(env)}${slackRedirectPath}` };
}

/** The 409 a request needing the workspace's Slack install answers before the workspace installed the app. */
export const slackNotConnected = () => domainError('slack_not_connected', 'This workspace has not installed the Slack app yet');

/** `slackApp`, or the 501 `slack_not_configured` a request needing it answers. */
export function requireSlackApp(env: NodeJS.ProcessEnv): SlackApp {
  const app = slackApp(env);
  if (!app) {
    throw domainError(
      'slack_not_configured',
      'Slack is not configured on this install: set EARSHOT_SLACK_CLIENT_ID, EARSHOT_SLACK_CLIENT_SECRET and EARSHOT_SLACK_SIGNING_SECRET',
    );
  }
  return app;
}

/** The address that starts an install: Slack asks the user to add the app, then redirects to `redirectUri` with `code` and `state`. */
export function slackInstallUrl(app: SlackApp, state: string): string {
  const url = new URL(`${app.apiBase}/oauth/v2/authorize`);
  url.searchParams.set('client_id', app.clientId);
  url.searchParams.set('scope', slackBotScopes.join(','));
  url.searchParams.set('redirect_uri', app.redirectUri);
  url.searchParams.set('state', state);
  return url.toString();
}

/**
 * Slack errors a later attempt can get past; every other `error` (a revoked
 * token, a missing channel, a malformed message) answers the same until
 * someone changes something, so a retry would only repeat it.
 */
const transientSlackErrors = new Set(['ratelimited', 'internal_error', 'fatal_error', 'service_unavailable', 'request_timeout']);

const slackReplySchema = z.object({ ok: z.boolean(), error: z.string().optional() }).loose();

/**
 * One Web API method. Slack answers most failures with HTTP 200 and
 * `{ ok: false, error }`; a rate limit is HTTP 429 with `Retry-After`.
 * One attempt by default: the caller (the delivery log) owns retries.
 */
async function callSlack(
  apiBase: string,
  method: string,
  request: { headers: Record<string, string>; body: string },
  retry: RetryPolicy,
): Promise<Record<string, unknown>> {
  let response;
  try {
    response = await requestUpstream({ platform: 'slack', url: `${apiBase}/api/${method}`, method: 'POST', ...request, attempts: 1, ...retry });
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error;
    const code = error.status === 429 ? 'ratelimited' : error.status ? `http_${error.status}` : 'network_error';
    throw new IntegrationError('slack', `${method}: ${error.reason}`, true, code, { status: error.status, retryAfterSeconds: error.retryAfterSeconds });
  }
  let reply;
  try {
    reply = slackReplySchema.parse(JSON.parse(response.text));
  } catch {
    const transient = response.status >= 200 && response.status < 300;
    throw new IntegrationError('slack', `${method}: HTTP ${response.status} without a Slack reply`, transient, `http_${response.status}`, { status: response.status });
  }
  if (!reply.ok) {
    const error = reply.error ?? 'unknown_error';
    const retryAfterSeconds = Number(response.headers.get('retry-after')) || undefined;
    throw new IntegrationError('slack', `${method}: ${error}`, transientSlackErrors.has(error), error, { status: response.status, retryAfterSeconds });
  }
  return reply;
}

/** The fields a successful reply must carry; Slack answering `ok: true` without them is a broken answer, not a retryable one. */
function replyFields<Schema extends z.ZodType>(method: string, schema: Schema, reply: Record<string, unknown>): z.infer<Schema> {
  const parsed = schema.safeParse(reply);
  if (!parsed.success) throw new IntegrationError('slack', `${method}: unexpected answer (${parsed.error.issues[0]?.path.join('.')})`, false, 'unexpected_reply');
  return parsed.data;
}

export interface SlackInstall {
  botToken: string;
  /** Empty when the answer did not name it (kept for the record only). */
  botUserId: string;
  /** Empty when the answer did not name it (kept for the record only). */
  appId: string;
  team: { id: string; name: string };
  scopes: string[];
}

// Only the token and the team are needed: Slack sends the rest always, a Slack-compatible server may leave it out.
const oauthAccessSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('bot').optional(),
  scope: z.string().optional(),
  bot_user_id: z.string().optional(),
  app_id: z.string().optional(),
  team: z.object({ id: z.string(), name: z.string() }),
});

/**
 * `oauth.v2.access`: trades the `code` of the install redirect for the bot
 * token. The client credentials go in HTTP Basic auth, as Slack recommends
 * over form fields; `redirect_uri` must repeat the one of the install URL.
 */
export async function exchangeSlackCode(app: SlackApp, code: string, retry: RetryPolicy = {}): Promise<SlackInstall> {
  const reply = await callSlack(
    app.apiBase,
    'oauth.v2.access',
    {
      headers: {
        authorization: `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ code, redirect_uri: app.redirectUri }).toString(),
    },
    retry,
  );
  const install = replyFields('oauth.v2.access', oauthAccessSchema, reply);
  return {
    botToken: install.access_token,
    botUserId: install.bot_user_id ?? '',
    appId: install.app_id ?? '',
    team: install.team,
    scopes: (install.scope ?? '').split(',').filter(Boolean),
  };
}

/** A message as `chat.postMessage` takes it: `text` is the notification and screen-reader fallback of `blocks`. */
export interface SlackMessage {
  text: string;
  blocks: Record<string, unknown>[];
}

// `ok: true` is the post; Slack also names the channel and the message, which a Slack-compatible server may leave out.
const postedSchema = z.object({ channel: z.string().optional(), ts: z.string().optional() });

/** `chat.postMessage` to a channel id; answers the channel and the message's `ts` (its id within the channel; null when the answer did not name it). */
export async function postSlackMessage(bot: SlackBot, channel: string, message: SlackMessage, retry: RetryPolicy = {}): Promise<{ channel: string; ts: string | null }> {
  const reply = await callSlack(
    bot.apiBase,
    'chat.postMessage',
    {
      headers: { authorization: `Bearer ${bot.botToken}`, 'content-type': 'application/json; charset=utf-8' },
      // A post link would unfurl into a second, larger preview under the alert.
      body: JSON.stringify({ channel, text: message.text, blocks: message.blocks, unfurl_links: false, unfurl_media: false }),
    },
    retry,
  );
  const posted = replyFields('chat.postMessage', postedSchema, reply);
  return { channel: posted.channel ?? channel, ts: posted.ts ?? null };
}

/** A channel the bot can be told to post in, as `conversations.list` describes it. */
export interface SlackChannel {
  id: string;
  name: string;
  isPrivate: boolean;
  /** Whether the bot is in it; a public one it is not in still takes posts (`chat:write.public`), a private one only once invited. */
  isMember: boolean;
}

/** The most channels one listing reads: five pages of Slack's 200, enough to pick from; a larger workspace types the rest. */
export const maxListedSlackChannels = 1000;
const slackChannelPage = 200;

const channelPageSchema = z.object({
  channels: z.array(z.object({ id: z.string(), name: z.string(), is_private: z.boolean().optional(), is_member: z.boolean().optional() })),
  response_metadata: z.object({ next_cursor: z.string().optional() }).optional(),
});

/**
 * `conversations.list` of public and private channels, archived ones left
 * out, following `response_metadata.next_cursor` (empty on the last page)
 * until `maxListedSlackChannels`; sorted by name. Slack lists the private
 * channels the bot was invited to, under `groups:read`.
 */
export async function listSlackChannels(bot: SlackBot, retry: RetryPolicy = {}): Promise<SlackChannel[]> {
  const channels: SlackChannel[] = [];
  let cursor = '';
  do {
    const form = new URLSearchParams({ types: 'public_channel,private_channel', exclude_archived: 'true', limit: String(slackChannelPage) });
    if (cursor) form.set('cursor', cursor);
    const reply = await callSlack(
      bot.apiBase,
      'conversations.list',
      { headers: { authorization: `Bearer ${bot.botToken}`, 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() },
      retry,
    );
    const page = replyFields('conversations.list', channelPageSchema, reply);
    for (const channel of page.channels) {
      channels.push({ id: channel.id, name: channel.name, isPrivate: channel.is_private ?? false, isMember: channel.is_member ?? false });
    }
    cursor = page.response_metadata?.next_cursor ?? '';
  } while (cursor && channels.length < maxListedSlackChannels);
  return channels.slice(0, maxListedSlackChannels).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : 1));
}

/** Slack's tolerance for the signed timestamp, against replays. */
const signatureToleranceSeconds = 5 * 60;

type RequestHeaders = Headers | Record<string, string | string[] | undefined>;

function headerOf(headers: RequestHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const value = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Whether a request really comes from Slack: `X-Slack-Signature` is
 * `v0=` + hex HMAC-SHA256 of `v0:<X-Slack-Request-Timestamp>:<raw body>`
 * under the app's signing secret, compared in constant time, and the
 * timestamp is within five minutes of `now`.
 */
export function verifySlackRequest(signingSecret: string, headers: RequestHeaders, rawBody: string | Buffer, now: Date): boolean {
  const timestamp = headerOf(headers, 'x-slack-request-timestamp') ?? '';
  const signature = headerOf(headers, 'x-slack-signature') ?? '';
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(now.getTime() / 1000 - Number(timestamp)) > signatureToleranceSeconds) return false;
  const match = /^v0=([0-9a-f]{64})$/i.exec(signature);
  if (!match) return false;
  const expected = createHmac('sha256', signingSecret).update(`v0:${timestamp}:`).update(rawBody).digest();
  return timingSafeEqual(Buffer.from(match[1], 'hex'), expected);
}

/** The `action_id` of the Interacted button on instant mention alerts; its `value` is the mention id. */
export const mentionInteractedAction = 'mention_interacted';

/** A click on an Interacted button, from a `block_actions` interactivity payload. */
export interface SlackInteraction {
  teamId: string;
  user: { id: string; name: string };
  channelId: string | null;
  /** The `ts` of the alert message the button sits on. */
  messageTs: string | null;
  /** Where a reply or a replacement of the alert message can be posted within 30 minutes. */
  responseUrl: string | null;
  mentionIds: string[];
}

const blockActionsSchema = z.object({
  type: z.literal('block_actions'),
  team: z.object({ id: z.string() }),
  user: z.object({ id: z.string(), username: z.string().optional(), name: z.string().optional() }),
  channel: z.object({ id: z.string() }).nullish(),
  container: z.object({ message_ts: z.string().optional() }).loose().nullish(),
  response_url: z.string().nullish(),
  actions: z.array(z.object({ action_id: z.string(), value: z.string().optional() }).loose()),
});

/**
 * Reads a verified interactivity request: Slack posts it form-encoded with
 * one field, `payload`, holding the JSON. Null when it is not a click on an
 * Interacted button (another payload type, another action, a broken body);
 * the endpoint still answers those 200, since the "Open post" link button
 * reports its clicks there too and Slack shows an error for anything else
 * (or for no answer within 3 seconds).
 */
export function parseSlackInteraction(rawBody: string): SlackInteraction | null {
  const payload = new URLSearchParams(rawBody).get('payload');
  if (!payload) return null;
  let parsed;
  try {
    parsed = blockActionsSchema.safeParse(JSON.parse(payload));
  } catch {
    return null;
  }
  if (!parsed.success) return null;
  const mentionIds = parsed.data.actions
    .filter((action) => action.action_id === mentionInteractedAction && action.value)
    .map((action) => action.value as string);
  if (!mentionIds.length) return null;
  const { user } = parsed.data;
  return {
    teamId: parsed.data.team.id,
    user: { id: user.id, name: user.username ?? user.name ?? user.id },
    channelId: parsed.data.channel?.id ?? null,
    messageTs: parsed.data.container?.message_ts ?? null,
    responseUrl: parsed.data.response_url ?? null,
    mentionIds,
  };
}
