import { z } from 'zod';
import { type RetryPolicy, UpstreamError, requestUpstream, upstreamBase } from '../../runtime/upstream-http.ts';
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
  result: z.object({ message_id: z.number().int() }).loose().optional(),
  error_code: z.number().int().optional(),
  description: z.string().optional(),
  parameters: z.object({ retry_after: z.number().optional(), migrate_to_chat_id: z.number().optional() }).optional(),
});

function parseReply(text: string): z.infer<typeof replySchema> | null {
  try {
    return replySchema.parse(JSON.parse(text));
  } catch {
    return null;
  }
}

/**
 * `sendMessage` with an HTML-formatted text (Telegram's HTML subset, the
 * caller escapes). Telegram names the wait of a 429 in the body
 * (`parameters.retry_after`); a 429 and any 5xx are transient, every other
 * refusal (400 chat not found, 403 bot blocked or kicked, 401 bad token)
 * permanent. One attempt by default: the caller (the delivery log) owns retries.
 */
export async function sendTelegramMessage(bot: TelegramBot, chatId: string, html: string, retry: RetryPolicy = {}): Promise<{ messageId: number }> {
  // The token is part of the path; keep it out of every error message.
  const where = 'sendMessage';
  let response;
  try {
    response = await requestUpstream({
      platform: 'telegram',
      url: `${bot.apiBase}/bot${bot.botToken}/sendMessage`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chat_id: chatId, text: html, parse_mode: 'HTML', disable_web_page_preview: true }),
      platformWaitMs: (answer) => {
        const seconds = answer.status === 429 ? parseReply(answer.text)?.parameters?.retry_after : undefined;
        return seconds === undefined ? undefined : seconds * 1000;
      },
      attempts: 1,
      ...retry,
    });
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error;
    const reason = error.reason.replaceAll(bot.botToken, '<token>');
    const code = error.status ? String(error.status) : 'network_error';
    throw new IntegrationError('telegram', `${where}: ${reason}`, true, code, { status: error.status, retryAfterSeconds: error.retryAfterSeconds });
  }
  const reply = parseReply(response.text);
  if (response.status >= 200 && response.status < 300 && reply?.ok && reply.result) return { messageId: reply.result.message_id };
  const description = reply?.description ?? `HTTP ${response.status}`;
  const code = String(reply?.error_code ?? response.status);
  const transient = response.status >= 200 && response.status < 300; // a 2xx without a result: a garbled answer, worth another try
  throw new IntegrationError('telegram', `${where}: ${description}`, transient, code, { status: response.status });
}
