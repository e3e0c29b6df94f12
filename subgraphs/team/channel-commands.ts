import { assertPublicHttpUrl, PrivateAddressError } from '../../runtime/public-address.ts';
import type { Queryable } from '../../runtime/database.ts';
import type { SecretBox } from '../../runtime/secret-box.ts';
import { domainError } from '../domain-error.ts';
import { parseInput } from '../validate-input.ts';
import { channelOfKind, createChannelInput } from './channel-input.ts';
import { type ChannelWithNewSecret, insertChannel } from './channel-store.ts';
import { confirmationEmail } from './email-messages.ts';
import { emailConfirmationLink, newConfirmationToken, requireMailSettings, sendMailNow } from './mailer.ts';
import { requireSlackApp } from './slack-api.ts';
import { findSlackConnection } from './slack-connection-store.ts';
import { assertTelegramChatReachable, requireTelegramBot } from './telegram-api.ts';

/** A URL the service may send to: http(s) and, unless EARSHOT_ALLOW_PRIVATE_URLS=1, not private or loopback. */
export async function assertSendableUrl(url: string, env: NodeJS.ProcessEnv): Promise<void> {
  try {
    await assertPublicHttpUrl(url, { env });
  } catch (error) {
    const reason = error instanceof PrivateAddressError ? 'must not lead to a private or loopback address' : 'the host does not resolve';
    throw domainError('validation_error', `url: ${reason}`, { field: 'url' }, error);
  }
}

/** A field the kind needs, checked once the kind is known to be configured (so an unconfigured kind answers that first). */
function requiredField<T>(value: T | undefined, field: string, kind: string): T {
  if (value === undefined) throw domainError('validation_error', `${field}: is required for ${channelOfKind(kind)}`, { field });
  return value;
}

/** Creates a channel from a POST /v1/channels body; a kind whose settings this install lacks answers its `*_not_configured` code. */
export async function createChannel(
  sql: Queryable,
  secrets: SecretBox,
  workspaceId: string,
  rawInput: unknown,
  env: NodeJS.ProcessEnv,
  now: Date,
): Promise<ChannelWithNewSecret> {
  const valid = parseInput(createChannelInput, rawInput);
  if (valid.kind === 'telegram') {
    // An install without a bot says so before anything about the chat.
    const bot = requireTelegramBot(env);
    const chatId = requiredField(valid.chatId, 'chatId', valid.kind);
    await assertTelegramChatReachable(bot, chatId);
    return insertChannel(sql, secrets, { workspaceId, kind: 'telegram', label: valid.label ?? `Telegram ${chatId}`, url: null, headers: {}, events: [], target: { chatId }, now });
  }
  if (valid.kind === 'slack') {
    requireSlackApp(env);
    const channelId = requiredField(valid.channelId, 'channelId', valid.kind);
    if (!(await findSlackConnection(sql, workspaceId))) throw domainError('slack_not_connected', 'This workspace has not installed the Slack app yet: GET /v1/slack/install');
    const channelName = valid.channelName ?? channelId;
    return insertChannel(sql, secrets, { workspaceId, kind: 'slack', label: valid.label ?? `Slack #${channelName}`, url: null, headers: {}, events: [], target: { channelId, channelName }, now });
  }
  if (valid.kind === 'email') {
    const settings = requireMailSettings(env);
    const address = requiredField(valid.address, 'address', valid.kind);
    const label = valid.label ?? address;
    // Double opt-in: only the confirmation goes out until the link is opened. Sent before the channel is stored, so a refused mail leaves nothing behind.
    const { token, hash } = newConfirmationToken();
    await sendMailNow(settings, { to: address, ...confirmationEmail(emailConfirmationLink(env, token), label) }, 'address', 'confirmation e-mail');
    return insertChannel(sql, secrets, { workspaceId, kind: 'email', label, url: null, headers: {}, events: [], target: { address, confirmed: false, confirmationTokenHash: hash }, now });
  }
  await assertSendableUrl(valid.url!, env);
  return insertChannel(sql, secrets, {
    workspaceId,
    kind: valid.kind,
    label: valid.label ?? new URL(valid.url!).host,
    url: valid.url!,
    headers: valid.headers ?? {},
    events: valid.events ?? [],
    now,
  });
}
