import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IntegrationError } from '../subgraphs/team/integration-error.ts';
import {
  type TelegramBot,
  parseTelegramCallback,
  registerTelegramWebhook,
  requireTelegramBot,
  sendTelegramMessage,
  telegramBot,
  verifyTelegramUpdate,
} from '../subgraphs/team/telegram-api.ts';
import { startFakeServer } from './fake-upstreams/fake-server.ts';
import { type FakeTelegram, startFakeTelegram, telegramCallbackUpdate } from './fake-upstreams/telegram.ts';

let telegram: FakeTelegram;
let bot: TelegramBot;

beforeEach(async () => {
  telegram = await startFakeTelegram({ retryAfterSeconds: 12 });
  bot = telegramBot({ EARSHOT_TELEGRAM_BOT_TOKEN: telegram.botToken, EARSHOT_UPSTREAM_TELEGRAM: `${telegram.url}/` })!;
});
afterEach(() => telegram.close());

describe('Telegram bot settings', () => {
  it('takes the token and the base address from the environment, telegram_not_configured without a token', () => {
    expect(bot).toEqual({ apiBase: telegram.url, botToken: telegram.botToken });
    expect(telegramBot({ EARSHOT_TELEGRAM_BOT_TOKEN: '1:x' })).toEqual({ apiBase: 'https://api.telegram.org', botToken: '1:x' });
    expect(telegramBot({})).toBeNull();
    expect(() => requireTelegramBot({ EARSHOT_TELEGRAM_BOT_TOKEN: '' })).toThrow(
      expect.objectContaining({ extensions: { code: 'telegram_not_configured' } }),
    );
  });
});

describe('sendMessage', () => {
  it('sends HTML without a link preview and answers the message id', async () => {
    const html = '<b>New mention</b> of <i>earshot</i> &amp; friends: <a href="https://news.example/a?x=1&amp;y=2">open</a>';
    expect(await sendTelegramMessage(bot, '-1001234567890', html)).toEqual({ messageId: 100 });
    expect(telegram.messages).toEqual([
      {
        chatId: '-1001234567890',
        messageId: 100,
        html,
        plainText: 'New mention of earshot & friends: open',
        links: ['https://news.example/a?x=1&y=2'],
        body: { chat_id: '-1001234567890', text: html, parse_mode: 'HTML', disable_web_page_preview: true },
      },
    ]);
    expect(telegram.requests[0].path).toBe(`/bot${telegram.botToken}/sendMessage`);
  });

  it('takes ok: true as the message sent from a Bot-API-compatible server that answers no Message', async () => {
    const sparse = await startFakeServer((request) => (request.path.endsWith('/sendMessage') ? { body: { ok: true } } : null));
    try {
      expect(await sendTelegramMessage({ apiBase: sparse.url, botToken: bot.botToken }, '123456789', 'hello')).toEqual({ messageId: null });
    } finally {
      await sparse.close();
    }
  });

  it('maps a 429 to a transient failure with the retry_after Telegram names in its body', async () => {
    telegram.failNext('rate-limit');
    const failure = await sendTelegramMessage(bot, '123456789', 'hello').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(IntegrationError);
    expect(failure).toMatchObject({ platform: 'telegram', code: '429', transient: true, status: 429, retryAfterSeconds: 12 });
    expect(telegram.messages).toEqual([]);
  });

  it('treats 5xx, a garbled answer and refused connections as transient', async () => {
    telegram.failNext('server-error');
    await expect(sendTelegramMessage(bot, '123456789', 'hello')).rejects.toMatchObject({ code: '500', transient: true, status: 500 });
    telegram.failNext('malformed');
    await expect(sendTelegramMessage(bot, '123456789', 'hello')).rejects.toMatchObject({ code: '200', transient: true });
    const base = telegram.url;
    await telegram.close();
    const failure = await sendTelegramMessage({ apiBase: base, botToken: bot.botToken }, '123456789', 'hello', { timeoutMs: 1000 }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'network_error', transient: true });
    expect((failure as Error).message).not.toContain(bot.botToken);
    telegram = await startFakeTelegram();
  });

  it('treats a blocked bot (403), an unknown chat, bad markup (400) and a bad token (401) as permanent', async () => {
    telegram.blockChat('123456789');
    await expect(sendTelegramMessage(bot, '123456789', 'hello')).rejects.toMatchObject({
      code: '403',
      transient: false,
      status: 403,
      message: 'telegram: sendMessage: Forbidden: bot was blocked by the user',
    });
    await expect(sendTelegramMessage(bot, '42', 'hello')).rejects.toMatchObject({ code: '400', transient: false, message: 'telegram: sendMessage: Bad Request: chat not found' });
    await expect(sendTelegramMessage(bot, '-1001234567890', 'a < b & c')).rejects.toMatchObject({
      code: '400',
      transient: false,
      message: expect.stringContaining("can't parse entities"),
    });
    const failure = await sendTelegramMessage({ ...bot, botToken: '1:wrong' }, '-1001234567890', 'hello').catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: '401', transient: false, status: 401 });
    expect(telegram.messages).toEqual([]);
  });
});

describe('the bot webhook', () => {
  it('registers the public updates address for button clicks only, with a secret the updates are checked against', async () => {
    await registerTelegramWebhook(bot, { EARSHOT_PUBLIC_URL: 'https://earshot.example/' });
    expect(telegram.webhook).toEqual({ url: 'https://earshot.example/v1/telegram/updates', secretToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), allowedUpdates: ['callback_query'] });
    const secret = telegram.webhook!.secretToken!;
    expect(verifyTelegramUpdate(bot, secret)).toBe(true);
    for (const forged of [null, '', secret.slice(1), `${secret}x`]) expect(verifyTelegramUpdate(bot, forged)).toBe(false);
    expect(verifyTelegramUpdate({ ...bot, botToken: '1:other' }, secret)).toBe(false);
    const failure = await registerTelegramWebhook({ ...bot, botToken: '1:wrong' }, {}).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: '401', transient: false, message: 'telegram: setWebhook: Unauthorized' });
  });

  it('reads a button click from an update: who, in which chat, the data; nothing from other updates', () => {
    const { body } = telegramCallbackUpdate('s', { data: 'interacted:mm_1', chat: { id: -100123, username: 'alerts' }, user: { id: 9, first_name: 'Grace' } });
    expect(parseTelegramCallback(JSON.parse(body))).toEqual({
      id: '4382bfdwdsb323b2d9',
      user: { id: 9, name: 'Grace' },
      chat: { id: '-100123', username: 'alerts' },
      data: 'interacted:mm_1',
    });
    expect(parseTelegramCallback({ update_id: 1, message: { message_id: 1, chat: { id: 1 }, text: 'hi' } })).toBeNull();
    expect(parseTelegramCallback(null)).toBeNull();
  });
});
