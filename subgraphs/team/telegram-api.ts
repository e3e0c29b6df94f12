import { createHmac } from 'node:crypto';
import { z } from 'zod';
import { publicUrl } from '../../runtime/config.ts';
import { sameSecret } from '../../runtime/same-secret.ts';
import { type RetryPolicy, UpstreamError, requestUpstream, upstreamBase, whileClientWaits } from '../../runtime/upstream-http.ts';
import { domainError } from '../domain-error.ts';
import { IntegrationError } from './integration-error.ts';

/**
 * Telegram through the Bot API (`POST {base}/bot<token>/sendMessage`).
 *
 * - `EARSHOT_TELEGRAM_BOT_TOKEN`: the bot's token from @BotFather; without it Telegram is `telegram_not_configured`.
 * - `EARSHOT_UPSTREAM_TELEGRAM`: base address, default `https://api.telegram.org`.
 */
export interface TelegramBot {
  apiBase: string;
  botToken: string;
}

/** The bot of this install, or null when no token is set. */
export function telegramBot(env: NodeJS.ProcessEnv): TelegramBot | null {
  const botToken = env.EARSHOT_TELEGRAM_BOT_TOKEN;
  if (!botToken) return null;
  return { apiBase: upstreamBase('telegram', 'https://api.telegram.org', env), botToken };
}

/** `telegramBot`, or the 501 `telegram_not_configured` a request needing it answers. */
export function requireTelegramBot(env: NodeJS.ProcessEnv): TelegramBot {
  const bot = telegramBot(env);
  if (!bot) throw domainError('telegram_not_configured', 'Telegram is not configured on this install: set EARSHOT_TELEGRAM_BOT_TOKEN');
  return bot;
}

const replySchema = z.object({
  ok: z.boolean(),
  result: z.unknown().optional(),
  error_code: z.number().int().optional(),
  description: z.string().optional(),
  parameters: z.object({ retry_after: z.number().optional(), migrate_to_chat_id: z.number().optional() }).optional(),
});
// `ok: true` is the message sent; Telegram also answers the Message, which a Bot-API-compatible server may leave out.
const sentMessageSchema = z.object({ message_id: z.number().int() }).loose();

/** A Bot API call's HTTP status and its reply (null when garbled). */
interface BotApiAnswer {
  status: number;
  reply: z.infer<typeof replySchema> | null;
}

function parseReply(text: string): z.infer<typeof replySchema> | null {
  try {
    return replySchema.parse(JSON.parse(text));
  } catch {
    return null;
  }
}

/** Buttons under a message (`InlineKeyboardMarkup`): rows of callback buttons, whose `callback_data` is 1 to 64 bytes. */
export interface TelegramReplyMarkup {
  inline_keyboard: { text: string; callback_data: string }[][];
}

/**
 * One Bot API call. Telegram names the wait of a 429 in the body
 * (`parameters.retry_after`); a 429, any 5xx and a network failure are
 * transient `IntegrationError`s. One attempt by default: the caller owns retries.
 */
async function callBotApi(bot: TelegramBot, method: string, payload: Record<string, unknown>, retry: RetryPolicy): Promise<BotApiAnswer> {
  try {
    const response = await requestUpstream({
      platform: 'telegram',
      url: `${bot.apiBase}/bot${bot.botToken}/${method}`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload),
      platformWaitMs: (answer) => {
        const seconds = answer.status === 429 ? parseReply(answer.text)?.parameters?.retry_after : undefined;
        return seconds === undefined ? undefined : seconds * 1000;
      },
      attempts: 1,
      ...retry,
    });
    return { status: response.status, reply: parseReply(response.text) };
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error;
    // The token is part of the path; keep it out of every error message.
    const reason = error.reason.replaceAll(bot.botToken, '<token>');
    const code = error.status ? String(error.status) : 'network_error';
    throw new IntegrationError('telegram', `${method}: ${reason}`, true, code, { status: error.status, retryAfterSeconds: error.retryAfterSeconds });
  }
}

/**
 * A call's answer that is not the success wanted: Telegram's refusal (400 chat
 * not found, 403 bot blocked or kicked, 401 bad token) is permanent; a 2xx
 * without the result, a garbled answer, is worth another try.
 */
function refusalOf(method: string, answer: BotApiAnswer): IntegrationError {
  const description = answer.reply?.description ?? `HTTP ${answer.status}`;
  const code = String(answer.reply?.error_code ?? answer.status);
  const transient = answer.status >= 200 && answer.status < 300;
  return new IntegrationError('telegram', `${method}: ${description}`, transient, code, { status: answer.status });
}

const succeeded = (answer: BotApiAnswer) => answer.status >= 200 && answer.status < 300 && answer.reply?.ok === true;

/** `sendMessage` with an HTML-formatted text (Telegram's HTML subset, the caller escapes) and, when given, buttons under it. */
export async function sendTelegramMessage(
  bot: TelegramBot,
  chatId: string,
  html: string,
  options: RetryPolicy & { replyMarkup?: TelegramReplyMarkup } = {},
): Promise<{ messageId: number | null }> {
  const { replyMarkup, ...retry } = options;
  const payload = { chat_id: chatId, text: html, parse_mode: 'HTML', disable_web_page_preview: true, ...(replyMarkup ? { reply_markup: replyMarkup } : {}) };
  const answer = await callBotApi(bot, 'sendMessage', payload, retry);
  if (!succeeded(answer)) throw refusalOf('sendMessage', answer);
  const sent = sentMessageSchema.safeParse(answer.reply?.result);
  return { messageId: sent.success ? sent.data.message_id : null };
}

/**
 * `getChat`, asked when a Telegram channel is created or moved to another
 * chat, so that a chat the bot cannot reach is refused then rather than
 * failing every alert later. Telegram refusing the chat (400 chat not found,
 * 403 bot kicked or blocked) is the caller's to fix: `validation_error` on
 * `chatId`, with Telegram's words. Telegram down, slow or refusing our token
 * is not: `upstream_unavailable`, and nothing is stored, since a channel
 * whose chat was never confirmed would fail silently later, while the
 * caller can simply send it again.
 */
export async function assertTelegramChatReachable(bot: TelegramBot, chatId: string): Promise<void> {
  let answer: BotApiAnswer;
  try {
    answer = await callBotApi(bot, 'getChat', { chat_id: chatId }, whileClientWaits);
  } catch (error) {
    if (!(error instanceof IntegrationError)) throw error;
    throw domainError('upstream_unavailable', `Telegram did not answer whether the bot can post to ${chatId}; try again shortly`, { retryAfterSeconds: error.retryAfterSeconds ?? 30 }, error);
  }
  if (succeeded(answer)) return;
  const refusal = refusalOf('getChat', answer);
  if (answer.status === 400 || answer.status === 403) {
    throw domainError(
      'validation_error',
      `chatId: the bot cannot post to ${chatId} (Telegram: ${answer.reply?.description ?? `HTTP ${answer.status}`}); add the bot to the group or channel first`,
      { field: 'chatId' },
      refusal,
    );
  }
  throw domainError('upstream_unavailable', `Telegram refused the bot (${refusal.message}); check EARSHOT_TELEGRAM_BOT_TOKEN`, {}, refusal);
}

/**
 * The `secret_token` the bot's webhook is registered with: Telegram sends it
 * back in `X-Telegram-Bot-Api-Secret-Token` on every update, which is how an
 * update is told from a forgery. Derived from the bot token, so every process
 * of an install agrees on it without storing anything; 1 to 256 of `A-Z a-z 0-9 _ -`.
 */
export function telegramWebhookSecret(bot: TelegramBot): string {
  return createHmac('sha256', bot.botToken).update('earshot telegram webhook').digest('base64url');
}

/** Whether an update carries the bot's webhook secret, compared in constant time. */
export function verifyTelegramUpdate(bot: TelegramBot, secretHeader: string | null): boolean {
  return sameSecret(secretHeader ?? '', telegramWebhookSecret(bot));
}

/** Where Telegram posts the bot's updates: the public address of `POST /v1/telegram/updates`. */
export const telegramWebhookUrl = (env: NodeJS.ProcessEnv): string => `${publicUrl(env)}/v1/telegram/updates`;

/**
 * `setWebhook`: Telegram posts button clicks (`callback_query`, the only
 * update asked for) to `telegramWebhookUrl` with the secret. Telegram takes
 * only HTTPS on ports 443, 80, 88 or 8443, so an install whose public
 * address is not one of those gets its refusal here.
 */
export async function registerTelegramWebhook(bot: TelegramBot, env: NodeJS.ProcessEnv, retry: RetryPolicy = {}): Promise<void> {
  const payload = { url: telegramWebhookUrl(env), secret_token: telegramWebhookSecret(bot), allowed_updates: ['callback_query'] };
  const answer = await callBotApi(bot, 'setWebhook', payload, retry);
  if (!succeeded(answer)) throw refusalOf('setWebhook', answer);
}

/** A click on a callback button, from an `Update`: who clicked, in which chat, and the button's data. */
export interface TelegramCallback {
  id: string;
  user: { id: number; name: string };
  chat: { id: string; username: string | null } | null;
  data: string;
}

const updateSchema = z.object({
  callback_query: z.object({
    id: z.string(),
    from: z.object({ id: z.number(), username: z.string().optional(), first_name: z.string() }),
    message: z.object({ chat: z.object({ id: z.number(), username: z.string().optional() }) }).optional(),
    data: z.string().optional(),
  }),
});

/** The callback of an update; null for every other update (or a click on a game button, which carries no data). */
export function parseTelegramCallback(update: unknown): TelegramCallback | null {
  const parsed = updateSchema.safeParse(update);
  if (!parsed.success || parsed.data.callback_query.data === undefined) return null;
  const { id, from, message, data } = parsed.data.callback_query;
  return {
    id,
    user: { id: from.id, name: from.username ? `@${from.username}` : from.first_name },
    chat: message ? { id: String(message.chat.id), username: message.chat.username ?? null } : null,
    data,
  };
}
