import { createHmac, randomBytes } from 'node:crypto';
import { type FakeResponse, type FakeUpstream, type RecordedRequest, startFakeServer } from './fake-server.ts';

/**
 * A Slack app's side of Slack on a local port: the OAuth v2 install
 * (`/oauth/v2/authorize` redirects back with a code as if the user approved,
 * `/api/oauth.v2.access` trades it for a bot token, checking the client's
 * Basic auth and the redirect address), and `/api/chat.postMessage`, which
 * checks the bot token, the channel and the Block Kit limits Slack enforces,
 * and records each message, and `/api/conversations.list`, paging the
 * channels by `limit` and an opaque `next_cursor` as Slack does (private
 * ones only where the bot is a member, archived ones unless
 * `exclude_archived`). Failures are HTTP 200 `{ ok: false, error }` as
 * Slack sends them; a rate limit is a 429 with `Retry-After`.
 */
export interface FakeSlack extends FakeUpstream {
  clientId: string;
  clientSecret: string;
  team: { id: string; name: string };
  /** Channel ids the workspace has, with their names, in the order Slack lists them (not by name). */
  channels: Map<string, string>;
  /** Ids among `channels` that are private channels. */
  privateChannels: Set<string>;
  /** Ids among `channels` that are archived. */
  archivedChannels: Set<string>;
  /** Ids among `channels` the bot is a member of. */
  botMemberships: Set<string>;
  /** Bot tokens issued by installs, valid until revoked. */
  botTokens: Set<string>;
  messages: PostedSlackMessage[];
  /** The user approves an install on the authorize page: a one-time code for `redirectUri`. */
  approveInstall(redirectUri: string): string;
  /** `chat.postMessage` answers `{ ok: false, error }` for the next `times` posts. */
  failPostsWith(error: string, times?: number): void;
  /** `conversations.list` answers `{ ok: false, error }` for the next `times` calls. */
  failListsWith(error: string, times?: number): void;
}

export interface PostedSlackMessage {
  channel: string;
  ts: string;
  text: string | undefined;
  blocks: any[] | undefined;
  body: Record<string, unknown>;
}

const slackError = (error: string): FakeResponse => ({ body: { ok: false, error } });

/** A `rich_text` block's elements: sections, quotes and lists of sections, holding text and links (text taken as written, never as mrkdwn). */
function richTextProblem(elements: unknown): string | null {
  const inline = (element: any) =>
    (element?.type === 'text' && typeof element.text === 'string' && element.text.length >= 1) ||
    (element?.type === 'link' && typeof element.url === 'string' && /^https?:\/\//.test(element.url) && (element.text === undefined || typeof element.text === 'string'));
  const section = (element: any) => ['rich_text_section', 'rich_text_quote', 'rich_text_preformatted'].includes(element?.type) && Array.isArray(element.elements) && element.elements.every(inline);
  if (!Array.isArray(elements) || elements.length < 1) return 'elements: at least one';
  for (const element of elements as any[]) {
    if (element?.type === 'rich_text_list') {
      if (!['bullet', 'ordered'].includes(element.style) || !Array.isArray(element.elements) || !element.elements.every((item: any) => item?.type === 'rich_text_section' && section(item))) {
        return 'elements: a rich_text_list holds rich_text_section items';
      }
    } else if (!section(element)) {
      return 'elements: rich_text_section, rich_text_quote, rich_text_preformatted or rich_text_list of text and links';
    }
  }
  return null;
}

/** The Block Kit rules Slack answers `invalid_blocks` for, as far as Earshot's messages use them. */
function blockProblem(blocks: unknown): string | null {
  if (!Array.isArray(blocks)) return 'blocks must be an array';
  if (blocks.length > 50) return 'no more than 50 blocks';
  const text = (value: any, max: number, types: string[]) =>
    value && types.includes(value.type) && typeof value.text === 'string' && value.text.length >= 1 && value.text.length <= max;
  for (const [index, block] of blocks.entries()) {
    const where = `blocks[${index}]`;
    if (block.block_id !== undefined && (typeof block.block_id !== 'string' || block.block_id.length > 255)) return `${where}.block_id`;
    switch (block.type) {
      case 'header':
        if (!text(block.text, 150, ['plain_text'])) return `${where}.text must be plain_text of 1 to 150 characters`;
        break;
      case 'section':
        if (block.text === undefined && !block.fields) return `${where} needs text or fields`;
        if (block.text !== undefined && !text(block.text, 3000, ['plain_text', 'mrkdwn'])) return `${where}.text must be 1 to 3000 characters`;
        if (block.fields && (block.fields.length > 10 || !block.fields.every((field: any) => text(field, 2000, ['plain_text', 'mrkdwn'])))) {
          return `${where}.fields: at most 10 of at most 2000 characters`;
        }
        break;
      case 'context':
        if (!Array.isArray(block.elements) || block.elements.length < 1 || block.elements.length > 10) return `${where}.elements: 1 to 10`;
        if (!block.elements.every((element: any) => text(element, 3000, ['plain_text', 'mrkdwn']))) return `${where}.elements must be text`;
        break;
      case 'divider':
        break;
      case 'rich_text': {
        const problem = richTextProblem(block.elements);
        if (problem) return `${where}.${problem}`;
        break;
      }
      case 'actions':
        if (!Array.isArray(block.elements) || block.elements.length < 1 || block.elements.length > 25) return `${where}.elements: 1 to 25`;
        for (const element of block.elements) {
          if (element.type !== 'button') return `${where}: this fake knows buttons only`;
          if (!text(element.text, 75, ['plain_text'])) return `${where} button text must be plain_text of 1 to 75 characters`;
          if (typeof element.action_id !== 'string' || element.action_id.length > 255) return `${where} button action_id`;
          if (element.value !== undefined && (typeof element.value !== 'string' || element.value.length > 2000)) return `${where} button value`;
          if (element.url !== undefined && (typeof element.url !== 'string' || element.url.length > 3000)) return `${where} button url`;
          if (element.style !== undefined && !['primary', 'danger'].includes(element.style)) return `${where} button style`;
        }
        if (new Set(block.elements.map((element: any) => element.action_id)).size !== block.elements.length) return `${where}: action_id must be unique`;
        break;
      default:
        return `${where}.type ${String(block.type)} unknown`;
    }
  }
  return null;
}

export async function startFakeSlack(options: { retryAfterSeconds?: number } = {}): Promise<FakeSlack> {
  const clientId = `${Date.now()}.${randomBytes(4).readUInt32BE()}`;
  const clientSecret = randomBytes(16).toString('hex');
  const team = { id: 'T0EARSHOT1', name: 'Earshot Testers' };
  const channels = new Map([['C0GENERAL1', 'general'], ['C0ALERTS01', 'alerts']]);
  const botTokens = new Set<string>();
  const codes = new Map<string, string>();
  const messages: PostedSlackMessage[] = [];
  const postFailures: string[] = [];
  const listFailures: string[] = [];
  const privateChannels = new Set<string>();
  const archivedChannels = new Set<string>();
  const botMemberships = new Set(['C0ALERTS01']);
  let clock = 1_760_000_000;

  const authorize = (request: RecordedRequest): FakeResponse => {
    if (request.query.get('client_id') !== clientId) return { status: 400, body: 'Invalid client_id parameter' };
    const scopes = (request.query.get('scope') ?? '').split(',');
    if (!scopes.includes('chat:write')) return { status: 400, body: 'The app must ask for chat:write' };
    const redirectUri = request.query.get('redirect_uri');
    if (!redirectUri) return { status: 400, body: 'redirect_uri is required' };
    const location = new URL(redirectUri);
    location.searchParams.set('code', approveInstall(redirectUri));
    location.searchParams.set('state', request.query.get('state') ?? '');
    return { status: 302, headers: { location: location.toString() }, body: '' };
  };

  const approveInstall = (redirectUri: string) => {
    const code = `${randomBytes(6).readUIntBE(0, 6)}.${randomBytes(20).toString('hex')}`;
    codes.set(code, redirectUri);
    return code;
  };

  const oauthAccess = (request: RecordedRequest): FakeResponse => {
    if (!String(request.headers['content-type']).startsWith('application/x-www-form-urlencoded')) return slackError('invalid_form_data');
    const basic = /^Basic (.+)$/.exec(String(request.headers.authorization ?? ''));
    const [id, secret] = basic ? Buffer.from(basic[1], 'base64').toString('utf8').split(':') : [];
    if (id !== clientId) return slackError('invalid_client_id');
    if (secret !== clientSecret) return slackError('bad_client_secret');
    const form = new URLSearchParams(request.body);
    const code = form.get('code') ?? '';
    const redirectUri = codes.get(code);
    if (redirectUri === undefined) return slackError('invalid_code');
    if (form.get('redirect_uri') !== redirectUri) return slackError('bad_redirect_uri');
    codes.delete(code);
    const token = `xoxb-${randomBytes(5).readUIntBE(0, 5)}-${randomBytes(5).readUIntBE(0, 5)}-${randomBytes(12).toString('hex')}`;
    botTokens.add(token);
    return {
      body: {
        ok: true,
        app_id: 'A0EARSHOT1',
        authed_user: { id: 'U0INSTALL1' },
        scope: 'chat:write,chat:write.public,channels:read,groups:read',
        token_type: 'bot',
        access_token: token,
        bot_user_id: 'U0EARSHOTB',
        team,
        enterprise: null,
        is_enterprise_install: false,
      },
    };
  };

  const postMessage = (request: RecordedRequest): FakeResponse => {
    const bearer = /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ''));
    if (!bearer) return slackError('not_authed');
    if (!bearer[1].startsWith('xoxb-') || !botTokens.has(bearer[1])) return slackError('invalid_auth');
    if (!String(request.headers['content-type']).startsWith('application/json')) return slackError('invalid_arguments');
    let body: Record<string, any>;
    try {
      body = JSON.parse(request.body);
    } catch {
      return slackError('invalid_json');
    }
    const failure = postFailures.shift();
    if (failure) return slackError(failure);
    if (!channels.has(body.channel)) return slackError('channel_not_found');
    if (!body.text && !body.blocks) return slackError('no_text');
    if (body.blocks !== undefined) {
      const problem = blockProblem(body.blocks);
      if (problem) return { body: { ok: false, error: 'invalid_blocks', errors: [problem] } };
    }
    const ts = `${++clock}.000100`;
    messages.push({ channel: body.channel, ts, text: body.text, blocks: body.blocks, body });
    return { body: { ok: true, channel: body.channel, ts, message: { type: 'message', bot_id: 'B0EARSHOT1', text: body.text ?? '', ts } } };
  };

  const channelObject = (id: string, name: string) => {
    const isPrivate = privateChannels.has(id);
    const about = { value: '', creator: '', last_set: 0 };
    return {
      id, name, name_normalized: name, is_channel: !isPrivate, is_group: isPrivate, is_im: false, is_mpim: false, is_private: isPrivate,
      created: 1_700_000_000, creator: 'U0INSTALL1', is_archived: archivedChannels.has(id), is_general: name === 'general', unlinked: 0,
      is_shared: false, is_org_shared: false, is_ext_shared: false, is_pending_ext_shared: false, pending_shared: [], pending_connected_team_ids: [],
      shared_team_ids: [team.id], context_team_id: team.id, updated: 1_700_000_000_000, parent_conversation: null,
      is_member: botMemberships.has(id), topic: about, purpose: about, previous_names: [], num_members: 3,
    };
  };

  // Slack's cursors are opaque base64; this one names the first channel of the next page.
  const cursorOf = (id: string) => Buffer.from(`dXNlcjpV:${id}`).toString('base64');
  const conversationsList = (request: RecordedRequest): FakeResponse => {
    const bearer = /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ''));
    if (!bearer) return slackError('not_authed');
    if (!bearer[1].startsWith('xoxb-') || !botTokens.has(bearer[1])) return slackError('invalid_auth');
    const form = new URLSearchParams(request.method === 'GET' ? request.query : request.body);
    const failure = listFailures.shift();
    if (failure) return slackError(failure);
    const types = (form.get('types') ?? 'public_channel').split(',');
    if (!types.every((type) => ['public_channel', 'private_channel', 'mpim', 'im'].includes(type))) return slackError('invalid_types');
    const limit = Number(form.get('limit') ?? 100);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) return slackError('invalid_limit');
    const listed = [...channels].filter(
      ([id]) =>
        (privateChannels.has(id) ? types.includes('private_channel') && botMemberships.has(id) : types.includes('public_channel')) &&
        !(form.get('exclude_archived') === 'true' && archivedChannels.has(id)),
    );
    let start = 0;
    const cursor = form.get('cursor');
    if (cursor) {
      start = listed.findIndex(([id]) => cursorOf(id) === cursor);
      if (start < 0) return slackError('invalid_cursor');
    }
    const page = listed.slice(start, start + limit);
    const next = listed[start + limit];
    return { body: { ok: true, channels: page.map(([id, name]) => channelObject(id, name)), response_metadata: { next_cursor: next ? cursorOf(next[0]) : '' } } };
  };

  const upstream = await startFakeServer(
    (request) => {
      if (request.method === 'GET' && request.path === '/oauth/v2/authorize') return authorize(request);
      if (request.path === '/api/conversations.list') return conversationsList(request);
      if (request.method !== 'POST') return null;
      if (request.path === '/api/oauth.v2.access') return oauthAccess(request);
      if (request.path === '/api/chat.postMessage') return postMessage(request);
      return request.path.startsWith('/api/') ? slackError('unknown_method') : null;
    },
    {
      retryAfterSeconds: options.retryAfterSeconds ?? 0,
      rateLimitResponse: (seconds) => ({ status: 429, headers: { 'retry-after': String(seconds) }, body: { ok: false, error: 'ratelimited' } }),
    },
  );

  return {
    ...upstream,
    clientId,
    clientSecret,
    team,
    channels,
    privateChannels,
    archivedChannels,
    botMemberships,
    botTokens,
    messages,
    approveInstall,
    failPostsWith(error, times = 1) {
      for (let i = 0; i < times; i++) postFailures.push(error);
    },
    failListsWith(error, times = 1) {
      for (let i = 0; i < times; i++) listFailures.push(error);
    },
  };
}

/**
 * What Slack posts to the interactivity endpoint when `user` clicks the
 * button `actionId` carrying `value`: the form-encoded `payload` and the v0
 * signature headers made with `signingSecret` at `at`.
 */
export function slackInteractionRequest(
  signingSecret: string,
  click: { actionId: string; value: string; user?: { id: string; username: string }; channelId?: string; messageTs?: string },
  at: Date = new Date(),
): { headers: Record<string, string>; body: string } {
  const user = click.user ?? { id: 'U0CLICKER1', username: 'ada' };
  const payload = {
    type: 'block_actions',
    user: { id: user.id, username: user.username, name: user.username, team_id: 'T0EARSHOT1' },
    api_app_id: 'A0EARSHOT1',
    token: 'deprecated-verification-token',
    container: { type: 'message', message_ts: click.messageTs ?? '1760000001.000100', channel_id: click.channelId ?? 'C0ALERTS01', is_ephemeral: false },
    trigger_id: '123.456.abc',
    team: { id: 'T0EARSHOT1', domain: 'earshot-testers' },
    channel: { id: click.channelId ?? 'C0ALERTS01', name: 'alerts' },
    message: { type: 'message', ts: click.messageTs ?? '1760000001.000100', text: 'alert' },
    response_url: 'https://hooks.slack.com/actions/T0EARSHOT1/1/abc',
    actions: [
      { type: 'button', action_id: click.actionId, block_id: 'mention', text: { type: 'plain_text', text: 'Interacted' }, value: click.value, action_ts: '1760000002.000200' },
    ],
  };
  const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const signature = `v0=${createHmac('sha256', signingSecret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
  return { headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-slack-request-timestamp': timestamp, 'x-slack-signature': signature }, body };
}
