import { publicUrl, readConfig } from '../../runtime/config.ts';
import { findMentionsByIds, findMutedMentionIds, markMentionsDelivered } from '../mentions/index.ts';
import type { Queryable } from '../../runtime/database.ts';
import { SealedSecretError, type SecretBox } from '../../runtime/secret-box.ts';
import { type AttemptResult, type ClaimedDelivery, type DeliveryKind, type DeliveryRow, digestRunDelivered, recordDeliveryAttempt } from './delivery-store.ts';
import { type ChannelRow, type ChannelTarget, openChannelHeaders, openChannelSecret } from './channel-store.ts';
import type { AccountEventData, ContentLink, Delivery, DeliveryEnvelope, DigestData } from './delivery-content.ts';
import { emailMessage } from './email-messages.ts';
import { IntegrationError } from './integration-error.ts';
import { type MailSettings, mailSettings, type OutgoingMail, sharedMailer } from './mailer.ts';
import { postSlackMessage, slackApiBase } from './slack-api.ts';
import { findSlackConnection, openSlackBotToken, type SlackConnectionRow } from './slack-connection-store.ts';
import { slackMessage } from './slack-messages.ts';
import { sendTelegramMessage, telegramBot } from './telegram-api.ts';
import { telegramMessage, telegramReplyMarkup } from './telegram-messages.ts';
import { emailChannelUnsubscribeLink, listUnsubscribeHeaders, unsubscribeLink } from './unsubscribe-links.ts';
import { postWebhook, type WebhookOutcome } from './webhook-sender.ts';
import { findWorkspace } from './workspace-store.ts';
import { signatureHeaders } from './webhook-signature.ts';

/** Attempts of an instant or account-event delivery in all (spec 3.4, 8). */
const maxDeliveryAttempts = 5;

/** Attempts a delivery of `kind` gets in all: a test is sent once, while its caller waits; a digest's window (`giveUpAt`) bounds it instead. */
export const attemptLimitOf = (kind: DeliveryKind): number => (kind === 'test' ? 1 : maxDeliveryAttempts);

export interface DeliverySettings {
  retryDelaySeconds: number;
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
  /** Opens the sealed secrets a send needs (a webhook's signing secret, the Slack bot token). */
  secrets: SecretBox;
}

export function deliverySettings(env: NodeJS.ProcessEnv, secrets: SecretBox): DeliverySettings {
  const config = readConfig(env);
  return { retryDelaySeconds: config.retryDelaySeconds, timeoutMs: config.webhookTimeoutMs, env, secrets };
}

/**
 * The headers of the connection and its framing (RFC 9110 7.2 and 7.6.1, RFC 9112 6): the HTTP client writes them
 * from the URL and the body, so they are the service's own too. Sent as a channel gave them, `Transfer-Encoding`
 * beside our `Content-Length` makes a request the receiver cannot read, and `Host` names a site the URL does not.
 */
const connectionHeaders = ['host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'proxy-connection', 'upgrade', 'te', 'trailer', 'expect'];

/** Headers the service sets itself; a channel header of the same name (any case) gives way to them. */
function requestHeaders(channelHeaders: Record<string, string>, own: Record<string, string>): Record<string, string> {
  const taken = new Set([...Object.keys(own).map((name) => name.toLowerCase()), ...connectionHeaders]);
  const kept = Object.entries(channelHeaders).filter(([name]) => !taken.has(name.toLowerCase()));
  return { ...Object.fromEntries(kept), ...own };
}

/** A refusal before anything was sent: not worth a retry. */
const refused = (error: string): WebhookOutcome => ({ ok: false, status: null, error, retryable: false });

/**
 * A sealed secret opened for a send, or the refusal to send at all: a
 * value that does not open (another key, a row copied from elsewhere)
 * must never sign or post anything, and says why in the delivery log.
 */
function openedForSend<Opened>(open: () => Opened): { value: Opened } | { refusal: WebhookOutcome } {
  try {
    return { value: open() };
  } catch (error) {
    if (!(error instanceof SealedSecretError)) throw error;
    return { refusal: refused(`nothing was sent: ${error.message}`) };
  }
}

/** One webhook POST of a delivery's stored body, signed now with the channel's current secret. */
export function sendWebhookDelivery(
  delivery: Pick<DeliveryRow, 'id' | 'body'>,
  channel: Pick<ChannelRow, 'id' | 'url' | 'sealedHeaders' | 'sealedSecret'>,
  settings: DeliverySettings,
  at: Date,
): Promise<WebhookOutcome> {
  const sealed = openedForSend(() => ({ secret: openChannelSecret(settings.secrets, channel), headers: openChannelHeaders(settings.secrets, channel) }));
  if ('refusal' in sealed) return Promise.resolve(sealed.refusal);
  const { secret, headers } = sealed.value;
  if (!channel.url || !secret) {
    return Promise.resolve(refused('the channel has no URL to send to'));
  }
  const own = {
    'content-type': 'application/json',
    'user-agent': 'Earshot-Webhooks/0.0.1',
    ...signatureHeaders(secret, delivery.id, delivery.body, at),
  };
  return postWebhook({ url: channel.url, headers: requestHeaders(headers, own), body: delivery.body, timeoutMs: settings.timeoutMs, env: settings.env });
}

/** A refusal or failure of Slack, Telegram or the SMTP server as an attempt's outcome: transient ones are retried like a webhook's 5xx. */
function integrationOutcome(error: unknown): WebhookOutcome {
  if (!(error instanceof IntegrationError)) throw error;
  return { ok: false, status: error.status ?? null, error: error.message, retryable: error.transient, retryAfterSeconds: error.retryAfterSeconds };
}

/** One Telegram message of a delivery, built from its stored envelope. */
async function sendTelegramDelivery(delivery: Pick<DeliveryRow, 'kind' | 'body'>, chatId: string | undefined, settings: DeliverySettings): Promise<WebhookOutcome> {
  const bot = telegramBot(settings.env);
  if (!bot) return refused('Telegram is not configured on this install');
  if (!chatId) return refused('the channel has no chat to send to');
  const content = { kind: delivery.kind, envelope: JSON.parse(delivery.body) } as Delivery;
  try {
    await sendTelegramMessage(bot, chatId, telegramMessage(content), { timeoutMs: settings.timeoutMs, replyMarkup: telegramReplyMarkup(content) });
    return { ok: true, status: 200 };
  } catch (error) {
    return integrationOutcome(error);
  }
}

/**
 * One Slack post of a delivery with the workspace's installed bot, to the
 * Slack channel `channelOf` picks (a channel's own, or the one the
 * workspace's notifications are set to); the Interacted button rides on
 * instant mention alerts.
 */
async function sendSlackDelivery(
  sql: Queryable,
  delivery: Pick<DeliveryRow, 'kind' | 'body'>,
  workspaceId: string,
  channelOf: (connection: SlackConnectionRow) => string | null | undefined,
  settings: DeliverySettings,
): Promise<WebhookOutcome> {
  const connection = await findSlackConnection(sql, workspaceId);
  if (!connection) return refused('the workspace has not installed the Slack app');
  const channelId = channelOf(connection);
  if (!channelId) return refused('there is no Slack channel to post to');
  const token = openedForSend(() => openSlackBotToken(settings.secrets, connection));
  if ('refusal' in token) return token.refusal;
  const message = slackMessage({ kind: delivery.kind, envelope: JSON.parse(delivery.body) } as Delivery);
  try {
    await postSlackMessage({ apiBase: slackApiBase(settings.env), botToken: token.value }, channelId, message, { timeoutMs: settings.timeoutMs });
    return { ok: true, status: 200 };
  } catch (error) {
    return integrationOutcome(error);
  }
}

/** One message handed to the SMTP server, as an attempt's outcome. */
async function mailOutcome(settings: MailSettings, mail: OutgoingMail, timeoutMs: number): Promise<WebhookOutcome> {
  try {
    await sharedMailer(settings, { timeoutMs }).sendMail(mail);
    return { ok: true, status: 200 };
  } catch (error) {
    return integrationOutcome(error);
  }
}

/**
 * A delivery's e-mail is one message however often it is tried: its id is
 * the Message-ID, so a retry after a send that did arrive (an answer lost to
 * a time-out) is a copy the reader's mail program folds into the first.
 */
const deliveryMessageId = (deliveryId: string, env: NodeJS.ProcessEnv) => `<${deliveryId}@${new URL(publicUrl(env)).hostname}>`;

/**
 * One e-mail of a delivery; an address not confirmed yet gets nothing but
 * its confirmation, and one that unsubscribed nothing. Alerts, digests and
 * account events are bulk mail: each carries the channel's unsubscribe link,
 * also as `List-Unsubscribe` with one-click `List-Unsubscribe-Post`
 * (RFC 8058, which Gmail and Yahoo require of bulk senders).
 */
async function sendEmailDelivery(
  sql: Queryable,
  delivery: Pick<DeliveryRow, 'id' | 'kind' | 'body'>,
  channelId: string,
  target: ChannelTarget,
  settings: DeliverySettings,
): Promise<WebhookOutcome> {
  const mail = mailSettings(settings.env);
  if (!mail) return refused('E-mail is not configured on this install');
  if (target.unsubscribed) return refused('the address unsubscribed from these e-mails');
  if (!target.address || !target.confirmed) return refused('the address has not been confirmed yet');
  const link = await emailChannelUnsubscribeLink(sql, settings.secrets, settings.env, channelId);
  const message = emailMessage({ kind: delivery.kind, envelope: JSON.parse(delivery.body) } as Delivery, {
    unsubscribe: { why: 'You get this e-mail because this address was confirmed for Earshot alerts.', link },
  });
  return mailOutcome(
    mail,
    { to: target.address, ...message, messageId: deliveryMessageId(delivery.id, settings.env), headers: listUnsubscribeHeaders(link) },
    settings.timeoutMs,
  );
}

/**
 * The dashboard page where an owner acts on an account event, under
 * `EARSHOT_PUBLIC_URL`: the capped keyword's page, where its cap is raised,
 * or the wallet, where a top-up resumes tracking.
 */
function dashboardLinkOf(envelope: DeliveryEnvelope<AccountEventData>, env: NodeJS.ProcessEnv): ContentLink {
  const keywordId = (envelope.data.keyword as { id?: unknown } | undefined)?.id;
  if (envelope.event === 'keyword.capped' && typeof keywordId === 'string') {
    return { label: 'Open the keyword in Earshot', url: `${publicUrl(env)}/keywords/${encodeURIComponent(keywordId)}` };
  }
  return { label: 'Top up the wallet in Earshot', url: `${publicUrl(env)}/wallet` };
}

/**
 * One owner e-mail of an account event (spec 6.4, last line): it names the
 * workspace, links to the dashboard page that deals with it, and carries the
 * link that turns owner e-mails off, also as `List-Unsubscribe` with
 * one-click `List-Unsubscribe-Post` (RFC 8058). The delivery's id is its
 * Message-ID, so a retry is the same message.
 */
async function sendOwnerEmail(sql: Queryable, delivery: ClaimedDelivery, settings: DeliverySettings): Promise<WebhookOutcome> {
  const mail = mailSettings(settings.env);
  if (!mail) return refused('E-mail is not configured on this install');
  if (!delivery.userId || !delivery.userEmail) return refused('the owner has no address');
  const workspaceName = (await findWorkspace(sql, delivery.workspaceId))?.name ?? delivery.workspaceId;
  const link = await unsubscribeLink(sql, settings.secrets, settings.env, delivery.userId);
  const envelope: DeliveryEnvelope<AccountEventData> = JSON.parse(delivery.body);
  const message = emailMessage({ kind: 'event', envelope }, {
    workspaceName,
    dashboardLink: dashboardLinkOf(envelope, settings.env),
    unsubscribe: { why: `You get this e-mail as an owner of “${workspaceName}” on Earshot.`, link },
  });
  return mailOutcome(
    mail,
    {
      to: delivery.userEmail,
      ...message,
      messageId: deliveryMessageId(delivery.id, settings.env),
      headers: listUnsubscribeHeaders(link),
    },
    settings.timeoutMs,
  );
}

/** One attempt of a delivery through its channel, whatever the channel's kind. */
export function sendChannelDelivery(
  sql: Queryable,
  delivery: Pick<DeliveryRow, 'id' | 'kind' | 'body'>,
  channel: Pick<ChannelRow, 'id' | 'workspaceId' | 'url' | 'sealedHeaders' | 'sealedSecret' | 'target'> & { kind: string },
  settings: DeliverySettings,
  at: Date,
): Promise<WebhookOutcome> {
  if (channel.kind === 'webhook') return sendWebhookDelivery(delivery, channel, settings, at);
  if (channel.kind === 'slack') return sendSlackDelivery(sql, delivery, channel.workspaceId, () => channel.target.channelId, settings);
  if (channel.kind === 'email') return sendEmailDelivery(sql, delivery, channel.id, channel.target, settings);
  if (channel.kind === 'telegram') return sendTelegramDelivery(delivery, channel.target.chatId, settings);
  return Promise.resolve(refused(`${channel.kind} channels are not connected yet`));
}

/**
 * What an attempt's outcome makes of a delivery (spec 3.4): 2xx delivers;
 * a transient failure is retried `retryDelaySeconds` later (or after the
 * endpoint's `Retry-After`) while attempts (instant, account events) or
 * the digest window last; anything else fails it now.
 */
export function attemptResult(delivery: Pick<DeliveryRow, 'kind' | 'attempts' | 'giveUpAt'>, outcome: WebhookOutcome, at: Date, retryDelaySeconds: number): AttemptResult {
  const attempt = { at: at.toISOString(), status: outcome.status, error: outcome.ok ? null : outcome.error };
  if (outcome.ok) return { status: 'delivered', attempt };
  if (!outcome.retryable) return { status: 'failed', attempt };
  const retryAt = new Date(at.getTime() + 1000 * (outcome.retryAfterSeconds ?? retryDelaySeconds));
  const attemptsLeft = delivery.giveUpAt ? retryAt < delivery.giveUpAt : delivery.attempts + 1 < attemptLimitOf(delivery.kind);
  return attemptsLeft ? { status: 'pending', attempt, retryAt } : { status: 'failed', attempt };
}

/**
 * Why a mention alert is not retried after all: its mention was closed
 * (done, ignored) or deleted since, or its author's person was muted
 * (spec 6.1). A first attempt follows the scoring that found the mention
 * open by moments, so only retries ask.
 */
async function closedMention(sql: Queryable, delivery: ClaimedDelivery): Promise<string | null> {
  if (delivery.kind !== 'mention' || !delivery.mentionId || delivery.attempts === 0) return null;
  const [mention] = await findMentionsByIds(sql, [delivery.mentionId]);
  if (!mention) return 'the mention was deleted before it could be sent';
  if (mention.status !== 'open') return `the mention was marked ${mention.status} before it could be sent`;
  return (await findMutedMentionIds(sql, [mention.id])).length ? "the mention's author was muted before it could be sent" : null;
}

/**
 * Why a digest is not retried after all: another channel of its rule
 * accepted the same run (spec 3.4 retries a digest only while no channel
 * of the rule has). Every channel gets the first attempt.
 */
async function digestAcceptedElsewhere(sql: Queryable, delivery: ClaimedDelivery): Promise<string | null> {
  if (delivery.kind !== 'digest' || delivery.attempts === 0 || !delivery.alertId || !delivery.digestPeriod) return null;
  return (await digestRunDelivered(sql, delivery)) ? 'another channel of the rule accepted this digest' : null;
}

/** One attempt of a claimed delivery to wherever it goes: an owner's address, the workspace's Slack notifications, or a channel. */
function sendToDestination(sql: Queryable, delivery: ClaimedDelivery, settings: DeliverySettings, now: () => Date): Promise<WebhookOutcome> {
  if (delivery.userId) return sendOwnerEmail(sql, delivery, settings);
  // Notifications post where the workspace has them now, so a change of channel applies to retries too.
  if (delivery.slackNotifications) return sendSlackDelivery(sql, delivery, delivery.workspaceId, (connection) => connection.channelId, settings);
  return sendChannelDelivery(
    sql,
    delivery,
    {
      id: delivery.channelId ?? '',
      kind: delivery.channelKind ?? '',
      workspaceId: delivery.workspaceId,
      url: delivery.channelUrl,
      sealedHeaders: delivery.channelSealedHeaders,
      sealedSecret: delivery.channelSealedSecret,
      target: delivery.channelTarget,
    },
    settings,
    now(),
  );
}

/**
 * The mentions an accepted delivery handed over: its mention, or every
 * mention a digest listed (spec 6.3: a daily or weekly rule delivers them
 * as one request).
 */
function handedOverMentionIds(delivery: DeliveryRow): string[] {
  if (delivery.mentionId) return [delivery.mentionId];
  if (delivery.kind !== 'digest') return [];
  const { data } = JSON.parse(delivery.body) as DeliveryEnvelope<DigestData>;
  return [...data.needsAttention, ...data.rest].map((mention) => mention.id);
}

/** Sends a claimed delivery once and records the attempt; a mention closed meanwhile is never sent (spec 3.3). */
export async function sendClaimedDelivery(sql: Queryable, delivery: ClaimedDelivery, settings: DeliverySettings, now: () => Date): Promise<DeliveryRow | undefined> {
  const closed = (await closedMention(sql, delivery)) ?? (await digestAcceptedElsewhere(sql, delivery));
  const outcome: WebhookOutcome = closed ? refused(closed) : await sendToDestination(sql, delivery, settings, now);
  const recorded = await recordDeliveryAttempt(sql, delivery.id, attemptResult(delivery, outcome, now(), settings.retryDelaySeconds));
  if (recorded?.status === 'delivered') await markMentionsDelivered(sql, handedOverMentionIds(recorded));
  return recorded;
}
