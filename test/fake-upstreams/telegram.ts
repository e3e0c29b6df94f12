import { randomBytes } from 'node:crypto';
import { type FakeResponse, type FakeUpstream, type RecordedRequest, startFakeServer } from './fake-server.ts';

/**
 * The Telegram Bot API's `sendMessage` (and `getChat`, `setWebhook`) on a local port: it checks the bot
 * token in the path, the chat, and the text the way Telegram parses
 * `parse_mode: HTML` (only its tag subset, only the four named entities, so an
 * unescaped `<` or `&` is refused as "can't parse entities"), and records each
 * message. Errors are `{ ok: false, error_code, description, parameters }`.
 */
export interface FakeTelegram extends FakeUpstream {
  botToken: string;
  /** Chats the bot can write to. */
  chats: Set<string>;
  messages: SentTelegramMessage[];
  /** The user blocks the bot (or removes it from the group): sends there answer 403. */
  blockChat(chatId: string): void;
  /** What the last `setWebhook` registered: where updates go, the secret they carry, the update kinds asked for. */
  webhook: { url: string; secretToken: string | null; allowedUpdates: string[] | null } | null;
}

export interface SentTelegramMessage {
  chatId: string;
  messageId: number;
  /** The text as sent, markup included. */
  html: string;
  /** What the reader sees: tags dropped, entities decoded. */
  plainText: string;
  /** Link targets of `<a href>` tags, in order. */
  links: string[];
  body: Record<string, unknown>;
}

const telegramError = (errorCode: number, description: string, parameters?: Record<string, number>): FakeResponse => ({
  status: errorCode,
  body: { ok: false, error_code: errorCode, description, ...(parameters ? { parameters } : {}) },
});

const allowedTags = new Set(['b', 'strong', 'i', 'em', 'u', 'ins', 's', 'strike', 'del', 'a', 'code', 'pre', 'blockquote', 'tg-spoiler', 'span']);
const namedEntities: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };

/** Telegram's HTML parse mode, strictly enough to catch what a sender forgot to escape. */
export function parseTelegramHtml(html: string): { plainText: string; links: string[] } | { error: string } {
  const open: string[] = [];
  const links: string[] = [];
  let plainText = '';
  const decode = (text: string, at: number): string | { error: string } => {
    let out = '';
    for (let i = 0; i < text.length; i++) {
      if (text[i] !== '&') {
        out += text[i];
        continue;
      }
      const entity = /^&(#x[0-9a-f]+|#\d+|[a-z]+);/i.exec(text.slice(i));
      if (!entity) return { error: `Can't find end of the entity starting at byte offset ${at + i}` };
      const name = entity[1];
      if (name.startsWith('#')) out += String.fromCodePoint(name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1)));
      else if (namedEntities[name] !== undefined) out += namedEntities[name];
      else return { error: `Unsupported HTML entity "&${name};" at byte offset ${at + i}` };
      i += entity[0].length - 1;
    }
    return out;
  };
  let position = 0;
  while (position < html.length) {
    const lt = html.indexOf('<', position);
    const textEnd = lt === -1 ? html.length : lt;
    const raw = html.slice(position, textEnd);
    if (raw.includes('>')) return { error: `Unexpected end tag at byte offset ${position + raw.indexOf('>')}` };
    const text = decode(raw, position);
    if (typeof text !== 'string') return text;
    plainText += text;
    if (lt === -1) break;
    const gt = html.indexOf('>', lt);
    if (gt === -1) return { error: `Unclosed start tag at byte offset ${lt}` };
    const tag = /^<(\/?)([a-z-]+)((?:\s+[a-z-]+="[^"<]*")*)\s*$/i.exec(html.slice(lt, gt));
    if (!tag) return { error: `Unsupported start tag "${html.slice(lt + 1, gt)}" at byte offset ${lt}` };
    const [, closing, name, attributes] = tag;
    if (!allowedTags.has(name.toLowerCase())) return { error: `Unsupported start tag "${name}" at byte offset ${lt}` };
    if (closing) {
      if (open.pop() !== name.toLowerCase()) return { error: `Unmatched end tag at byte offset ${lt}, expected "</${open.at(-1) ?? ''}>"` };
    } else {
      open.push(name.toLowerCase());
      if (name.toLowerCase() === 'a') {
        const href = /href="([^"]*)"/.exec(attributes)?.[1];
        const decoded = href === undefined ? undefined : decode(href, lt);
        if (typeof decoded !== 'string') return { error: `Can't parse link at byte offset ${lt}` };
        links.push(decoded);
      }
    }
    position = gt + 1;
  }
  if (open.length) return { error: `Can't find end tag corresponding to start tag "${open.at(-1)}"` };
  return { plainText, links };
}

export async function startFakeTelegram(options: { retryAfterSeconds?: number } = {}): Promise<FakeTelegram> {
  const botToken = `${randomBytes(4).readUInt32BE()}:AA${randomBytes(16).toString('base64url')}`;
  const chats = new Set(['123456789', '-1001234567890']);
  const blocked = new Set<string>();
  const messages: SentTelegramMessage[] = [];
  let nextMessageId = 100;

  const sendMessage = (request: RecordedRequest): FakeResponse => {
    let body: Record<string, any>;
    try {
      body = String(request.headers['content-type']).startsWith('application/json') ? JSON.parse(request.body) : Object.fromEntries(new URLSearchParams(request.body));
    } catch {
      return telegramError(400, 'Bad Request: invalid JSON');
    }
    const chatId = body.chat_id === undefined ? '' : String(body.chat_id);
    if (!chatId) return telegramError(400, 'Bad Request: chat_id is empty');
    if (typeof body.text !== 'string' || !body.text.trim()) return telegramError(400, 'Bad Request: message text is empty');
    if (!chats.has(chatId)) return telegramError(400, 'Bad Request: chat not found');
    if (blocked.has(chatId)) return telegramError(403, 'Forbidden: bot was blocked by the user');
    let parsed: { plainText: string; links: string[] } = { plainText: body.text, links: [] };
    if (body.parse_mode === 'HTML') {
      const result = parseTelegramHtml(body.text);
      if ('error' in result) return telegramError(400, `Bad Request: can't parse entities: ${result.error}`);
      parsed = result;
    } else if (body.parse_mode !== undefined) {
      return telegramError(400, `Bad Request: unsupported parse_mode`);
    }
    if ([...parsed.plainText].length > 4096) return telegramError(400, 'Bad Request: message is too long');
    const markupProblem = body.reply_markup === undefined ? null : inlineKeyboardProblem(body.reply_markup);
    if (markupProblem) return telegramError(400, `Bad Request: ${markupProblem}`);
    const messageId = nextMessageId++;
    messages.push({ chatId, messageId, html: body.text, plainText: parsed.plainText, links: parsed.links, body });
    return {
      body: {
        ok: true,
        result: {
          message_id: messageId,
          from: { id: Number(botToken.split(':')[0]), is_bot: true, first_name: 'Earshot', username: 'earshot_bot' },
          chat: { id: Number(chatId), type: chatId.startsWith('-') ? 'supergroup' : 'private' },
          date: Math.floor(Date.now() / 1000),
          text: parsed.plainText,
        },
      },
    };
  };

  // What the Bot API's getChat answers: the chat, or why the bot cannot see it.
  const getChat = (request: RecordedRequest): FakeResponse => {
    const chatId = String(JSON.parse(request.body || '{}').chat_id ?? '');
    if (!chatId) return telegramError(400, 'Bad Request: chat_id is empty');
    if (!chats.has(chatId)) return telegramError(400, 'Bad Request: chat not found');
    if (blocked.has(chatId)) return telegramError(403, chatId.startsWith('-') ? 'Forbidden: bot was kicked from the supergroup chat' : 'Forbidden: bot was blocked by the user');
    const chat = chatId.startsWith('@')
      ? { id: -1009000000000 - chatId.length, type: 'channel', title: chatId.slice(1), username: chatId.slice(1) }
      : chatId.startsWith('-')
        ? { id: Number(chatId), type: 'supergroup', title: 'Team chat' }
        : { id: Number(chatId), type: 'private', first_name: 'Ada' };
    return { body: { ok: true, result: chat } };
  };

  let webhook: FakeTelegram['webhook'] = null;
  const setWebhook = (request: RecordedRequest): FakeResponse => {
    const body = JSON.parse(request.body || '{}');
    if (typeof body.url !== 'string' || !URL.canParse(body.url)) return telegramError(400, 'Bad Request: bad webhook: Failed to resolve host: Name or service not known');
    if (body.secret_token !== undefined && !/^[A-Za-z0-9_-]{1,256}$/.test(body.secret_token)) return telegramError(400, 'Bad Request: secret token contains unallowed characters');
    webhook = { url: body.url, secretToken: body.secret_token ?? null, allowedUpdates: body.allowed_updates ?? null };
    return { body: { ok: true, result: true, description: 'Webhook was set' } };
  };

  const upstream = await startFakeServer(
    (request) => {
      const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(request.path);
      if (!match) return null;
      if (match[1] !== botToken) return telegramError(401, 'Unauthorized');
      if (request.method !== 'POST') return telegramError(404, 'Not Found');
      if (match[2] === 'sendMessage') return sendMessage(request);
      if (match[2] === 'setWebhook') return setWebhook(request);
      if (match[2] === 'getChat') return getChat(request);
      return telegramError(404, 'Not Found');
    },
    {
      retryAfterSeconds: options.retryAfterSeconds ?? 0,
      rateLimitResponse: (seconds) => telegramError(429, `Too Many Requests: retry after ${seconds}`, { retry_after: seconds }),
    },
  );

  return {
    ...upstream,
    botToken,
    chats,
    messages,
    blockChat(chatId) {
      blocked.add(chatId);
    },
    get webhook() {
      return webhook;
    },
  };
}

/** What the Bot API refuses in an `InlineKeyboardMarkup` of callback buttons. */
function inlineKeyboardProblem(markup: any): string | null {
  if (!markup || !Array.isArray(markup.inline_keyboard)) return "can't parse reply keyboard markup JSON object";
  for (const row of markup.inline_keyboard) {
    if (!Array.isArray(row)) return 'field "inline_keyboard" of the InlineKeyboardMarkup should be an Array of Arrays';
    for (const button of row) {
      if (typeof button?.text !== 'string' || !button.text) return 'text buttons are unallowed in the inline keyboard';
      if (button.callback_data !== undefined && (typeof button.callback_data !== 'string' || !button.callback_data || Buffer.byteLength(button.callback_data) > 64)) {
        return 'BUTTON_DATA_INVALID';
      }
    }
  }
  return null;
}

/**
 * The update Telegram posts to the bot's webhook when `user` clicks the
 * callback button carrying `data` under message `messageId` in `chat`,
 * with the secret the webhook was registered with.
 */
export function telegramCallbackUpdate(
  secretToken: string,
  click: { data: string; chat: { id: number; username?: string }; messageId?: number; user?: { id: number; first_name: string; username?: string } },
): { headers: Record<string, string>; body: string } {
  const user = click.user ?? { id: 7001, first_name: 'Ada', username: 'ada' };
  const update = {
    update_id: 900_000_001,
    callback_query: {
      id: '4382bfdwdsb323b2d9',
      from: { ...user, is_bot: false, language_code: 'en' },
      message: {
        message_id: click.messageId ?? 100,
        from: { id: 1, is_bot: true, first_name: 'Earshot', username: 'earshot_bot' },
        chat: { ...click.chat, type: click.chat.id < 0 ? 'supergroup' : 'private' },
        date: Math.floor(Date.now() / 1000),
        text: 'New mention',
      },
      chat_instance: '-8201357743232341',
      data: click.data,
    },
  };
  return { headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': secretToken }, body: JSON.stringify(update) };
}
