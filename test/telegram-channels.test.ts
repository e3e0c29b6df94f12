import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestEarshot, type TestEarshot } from './harness.ts';
import { type FakeTelegram, startFakeTelegram, telegramCallbackUpdate } from './fake-upstreams/telegram.ts';
import { redditPost, relevantRustPosts, rustContext, storeAndScore } from './scored-mentions.ts';

let earshot: TestEarshot;
let telegram: FakeTelegram;
let key: string;
let workspaceId: string;
let rust: string;

beforeAll(async () => {
  telegram = await startFakeTelegram();
  earshot = await startTestEarshot({ env: { EARSHOT_TELEGRAM_BOT_TOKEN: telegram.botToken, EARSHOT_UPSTREAM_TELEGRAM: telegram.url, EARSHOT_RETRY_DELAY_S: '1' } });
  const created = await earshot.createWorkspace('Acme');
  key = created.apiKey;
  workspaceId = created.workspace.id;
  rust = (await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'Rust', context: rustContext } })).body.id;
});
afterAll(async () => {
  await earshot?.stop();
  await telegram?.close();
});

const deliveryLog = async (channelId: string) => (await earshot.rest('GET', `/v1/channels/${channelId}/deliveries`, { key })).body.data;

async function telegramChannel(chatId = '-1001234567890') {
  const answer = await earshot.rest('POST', '/v1/channels', { key, body: { kind: 'telegram', label: 'Team chat', chatId } });
  expect(answer.status).toBe(200);
  return answer.body.id as string;
}

describe('Telegram channels', () => {
  it('are created with the chat in their config, no secret, and refuse webhook fields or a malformed chat', async () => {
    const created = await earshot.rest('POST', '/v1/channels', { key, body: { kind: 'telegram', label: 'Team chat', chatId: '-1001234567890' } });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^dest_/),
      kind: 'telegram',
      label: 'Team chat',
      config: { url: null, headers: {}, events: [], secret: null, chatId: '-1001234567890' },
      stats: { alerts: 0, activeAlerts: 0, lastDeliveryAt: null, last7d: { total: 0, failed: 0 } },
      createdAt: expect.any(String),
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ kind: 'telegram', label: 'Team chat', config: { url: null, headers: {}, events: [], secret: null, chatId: '-1001234567890' } });
    const listed = (await earshot.rest('GET', `/v1/channels/${created.body.id}`, { key })).body;
    expect(listed.config).toEqual({ url: null, headers: {}, events: [], chatId: '-1001234567890' });
    for (const [body, field] of [
      [{ kind: 'telegram', label: 'x' }, 'chatId'],
      [{ kind: 'telegram', chatId: 'not a chat' }, 'chatId'],
      [{ kind: 'telegram', chatId: '123456789', url: 'https://example.com/hook' }, 'url'],
      [{ kind: 'telegram', chatId: '123456789', events: ['keyword.capped'] }, 'events'],
      [{ kind: 'webhook', url: 'https://example.com/hook', chatId: '123456789' }, 'chatId'],
    ] as const) {
      const answer = await earshot.rest('POST', '/v1/channels', { key, body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error).toMatchObject({ code: 'validation_error', field });
    }
    const patched = await earshot.rest('PATCH', `/v1/channels/${created.body.id}`, { key, body: { url: 'https://example.com/hook' } });
    expect(patched.status).toBe(400);
    expect(patched.body.error).toMatchObject({ code: 'validation_error', field: 'url' });
    const renamed = await earshot.rest('PATCH', `/v1/channels/${created.body.id}`, { key, body: { label: 'Support chat' } });
    expect(renamed.body).toMatchObject({ label: 'Support chat', config: { chatId: '-1001234567890' } });
  });

  it('asks Telegram (getChat) whether the bot can reach the chat, and refuses one it cannot, on creation and on a move, storing nothing', async () => {
    const channelCount = async () => (await earshot.rest('GET', '/v1/channels', { key })).body.data.length;
    const before = await channelCount();
    telegram.chats.add('-1009990001');
    telegram.blockChat('-1009990001');
    for (const [chatId, said] of [
      ['987654321', 'Bad Request: chat not found'],
      ['@nobody_here', 'Bad Request: chat not found'],
      ['-1009990001', 'Forbidden: bot was kicked from the supergroup chat'],
    ]) {
      const answer = await earshot.rest('POST', '/v1/channels', { key, body: { kind: 'telegram', label: 'Nowhere', chatId } });
      expect(answer.status, chatId).toBe(400);
      expect(answer.body.error).toMatchObject({ code: 'validation_error', field: 'chatId', requestId: expect.any(String) });
      expect(answer.body.error.message).toContain(said);
    }
    expect(await channelCount()).toBe(before);
    expect(telegram.requests.filter((request) => request.path.endsWith('/getChat')).map((request) => JSON.parse(request.body).chat_id)).toEqual(
      expect.arrayContaining(['987654321', '@nobody_here', '-1009990001']),
    );

    const id = await telegramChannel('-1001234567890');
    const moved = await earshot.rest('PATCH', `/v1/channels/${id}`, { key, body: { chatId: '987654321' } });
    expect(moved.status).toBe(400);
    expect(moved.body.error).toMatchObject({ code: 'validation_error', field: 'chatId' });
    expect((await earshot.rest('GET', `/v1/channels/${id}`, { key })).body.config.chatId).toBe('-1001234567890');
  });

  it('answers 502 upstream_unavailable, storing nothing, while Telegram cannot say whether the bot reaches the chat', async () => {
    const channelCount = async () => (await earshot.rest('GET', '/v1/channels', { key })).body.data.length;
    const before = await channelCount();
    telegram.failNext('server-error', 2);
    const down = await earshot.rest('POST', '/v1/channels', { key, body: { kind: 'telegram', label: 'Team chat', chatId: '-1001234567890' } });
    expect(down.status).toBe(502);
    expect(down.body.error).toMatchObject({ code: 'upstream_unavailable', retryAfterSeconds: expect.any(Number) });
    expect(Number(down.headers.get('retry-after'))).toBe(down.body.error.retryAfterSeconds);
    expect(await channelCount()).toBe(before);
    telegram.recover();
    expect((await earshot.rest('POST', '/v1/channels', { key, body: { kind: 'telegram', label: 'Team chat', chatId: '-1001234567890' } })).status).toBe(200);
  });

  it('answers 501 telegram_not_configured without a bot token', async () => {
    const bare = await startTestEarshot();
    try {
      const { apiKey } = await bare.createWorkspace();
      const answer = await bare.rest('POST', '/v1/channels', { key: apiKey, body: { kind: 'telegram', label: 'Team chat', chatId: '123456789' } });
      expect(answer.status).toBe(501);
      expect(answer.body.error).toMatchObject({ code: 'telegram_not_configured', requestId: expect.any(String) });
    } finally {
      await bare.stop();
    }
  });

  it('takes a test send as a Telegram message, logged as delivered', async () => {
    const id = await telegramChannel('123456789');
    const sent = telegram.messages.length;
    const answer = await earshot.rest('POST', `/v1/channels/${id}/test`, { key });
    expect(answer.body).toEqual({ outcomes: [{ channelId: id, ok: true, error: null }] });
    const [message] = telegram.messages.slice(sent);
    expect(message.chatId).toBe('123456789');
    expect(message.plainText).toContain('This is a test delivery from Earshot. Your channel is set up.');
    expect(message.body).toMatchObject({ parse_mode: 'HTML', disable_web_page_preview: true });
    const [logged] = await deliveryLog(id);
    expect(logged).toMatchObject({ kind: 'event', event: 'test', status: 'delivered', attempts: 1, error: null });
  });

  it('sends a mention alert with the post, its author and a link to it', async () => {
    const id = await telegramChannel();
    const rule = (await earshot.rest('POST', '/v1/alerts', { key, body: { name: 'Rust chat', channelIds: [id], filter: { keywordIds: [rust] } } })).body;
    const sent = telegram.messages.length;
    const [mentionId] = await storeAndScore(earshot, workspaceId, [{ post: redditPost(relevantRustPosts[0], 'ferris'), keywordIds: [rust] }]);
    const [message] = await eventually(
      async () => telegram.messages.slice(sent),
      (messages) => messages.length === 1,
    );
    const mention = (await earshot.rest('GET', `/v1/mentions/${mentionId}`, { key })).body;
    expect(message.chatId).toBe('-1001234567890');
    expect(message.plainText).toContain('New mention: “Rust” on Reddit');
    expect(message.plainText).toContain(relevantRustPosts[0]);
    expect(message.plainText).toContain('Author: ferris');
    expect(message.plainText).toContain('Alert “Rust chat”');
    expect(message.links).toEqual([mention.post.url]);
    const [logged] = await eventually(() => deliveryLog(id), (log) => log[0]?.status === 'delivered');
    expect(logged).toMatchObject({ kind: 'mention', attempts: 1, mention: { id: mentionId } });
    expect((await earshot.rest('GET', `/v1/mentions/${mentionId}`, { key })).body.delivered).toBe(true);
    await earshot.rest('DELETE', `/v1/alerts/${rule.id}`, { key });
  });

  it('retries a transient failure (a 500, then a 429) like a webhook 5xx', async () => {
    const id = await telegramChannel();
    const rule = (await earshot.rest('POST', '/v1/alerts', { key, body: { name: 'Flaky chat', channelIds: [id], filter: { keywordIds: [rust] } } })).body;
    telegram.failNext('server-error');
    telegram.failNext('rate-limit');
    const sent = telegram.messages.length;
    await storeAndScore(earshot, workspaceId, [{ post: redditPost(relevantRustPosts[1]), keywordIds: [rust] }]);
    const [delivered] = await eventually(() => deliveryLog(id), (log) => log[0]?.status === 'delivered', 15_000);
    expect(delivered).toMatchObject({ kind: 'mention', attempts: 3, error: null });
    expect(delivered.attemptLog.map((attempt: any) => [attempt.status, attempt.error])).toEqual([
      [500, expect.stringContaining('telegram: sendMessage:')],
      [429, expect.stringContaining('telegram: sendMessage:')],
      [200, null],
    ]);
    expect(telegram.messages.slice(sent).map((message) => message.chatId)).toEqual(['-1001234567890']);
    await earshot.rest('DELETE', `/v1/alerts/${rule.id}`, { key });
  });

  it('fails a refusal (an unknown chat, a bot blocked) at once, with Telegram’s words in the log', async () => {
    telegram.chats.add('555000111');
    telegram.chats.add('222333444');
    const unknown = await telegramChannel('555000111');
    const blocked = await telegramChannel('222333444');
    // Reachable when the channels were made; then the group goes away and the user blocks the bot.
    telegram.chats.delete('555000111');
    telegram.blockChat('222333444');
    const rule = (await earshot.rest('POST', '/v1/alerts', { key, body: { name: 'Dead chats', channelIds: [unknown, blocked], filter: { keywordIds: [rust] } } })).body;
    const requests = telegram.requests.length;
    await storeAndScore(earshot, workspaceId, [{ post: redditPost(relevantRustPosts[2]), keywordIds: [rust] }]);
    const [notFound] = await eventually(() => deliveryLog(unknown), (log) => log[0]?.status === 'failed');
    expect(notFound).toMatchObject({ kind: 'mention', attempts: 1, error: 'telegram: sendMessage: Bad Request: chat not found' });
    expect(notFound.attemptLog).toEqual([{ at: expect.any(String), status: 400, error: notFound.error }]);
    const [forbidden] = await eventually(() => deliveryLog(blocked), (log) => log[0]?.status === 'failed');
    expect(forbidden).toMatchObject({ kind: 'mention', attempts: 1, error: 'telegram: sendMessage: Forbidden: bot was blocked by the user' });
    await new Promise((resolve) => setTimeout(resolve, 1500)); // past EARSHOT_RETRY_DELAY_S: nothing is tried again
    expect(telegram.requests.length - requests).toBe(2);
    const test = await earshot.rest('POST', `/v1/channels/${blocked}/test`, { key });
    expect(test.body).toEqual({ outcomes: [{ channelId: blocked, ok: false, error: 'telegram: sendMessage: Forbidden: bot was blocked by the user' }] });
    await earshot.rest('DELETE', `/v1/alerts/${rule.id}`, { key });
  });

  it('sends a digest the digest job built: its counts, splits and lists as a message', async () => {
    telegram.chats.add('777000111');
    const id = await telegramChannel('777000111');
    const rule = (await earshot.rest('POST', '/v1/alerts', { key, body: { name: 'Rust hourly', mode: 'hourly', channelIds: [id], filter: { keywordIds: [rust] } } })).body;
    // A rule's first run covers the hour before it, which holds the other tests' Rust mentions; the run after covers what came since.
    await earshot.rest('POST', `/v1/alerts/${rule.id}/run`, { key });
    await eventually(async () => deliveryLog(id), (log) => log[0]?.status === 'delivered');
    await storeAndScore(earshot, workspaceId, [{ post: redditPost(relevantRustPosts[1], 'crab'), keywordIds: [rust] }]);
    const sent = telegram.messages.length;
    const run = await earshot.rest('POST', `/v1/alerts/${rule.id}/run`, { key });
    expect(run.body).toMatchObject({ mentions: 1, deliveryIds: [expect.stringMatching(/^dlv_/)] });
    const [message] = await eventually(async () => telegram.messages.slice(sent), (messages) => messages.length === 1);
    expect(message.chatId).toBe('777000111');
    expect(message.plainText).toContain('Rust hourly: 1 mention, 1 needing attention');
    expect(message.plainText).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d UTC to \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    expect(message.plainText).toContain('“Rust” 1');
    const [logged] = await eventually(() => deliveryLog(id), (log) => log[0]?.status === 'delivered');
    expect(logged).toMatchObject({ kind: 'digest', attempts: 1, error: null });
    await earshot.rest('DELETE', `/v1/alerts/${rule.id}`, { key });
  });

  it('moves to another chat with PATCH chatId, and refuses fields of other kinds', async () => {
    telegram.chats.add('100200300');
    const id = await telegramChannel('100200300');
    telegram.chats.add('@earshot_alerts');
    const moved = await earshot.rest('PATCH', `/v1/channels/${id}`, { key, body: { chatId: '@earshot_alerts' } });
    expect(moved.status).toBe(200);
    expect(moved.body.config).toEqual({ url: null, headers: {}, events: [], chatId: '@earshot_alerts' });
    const sent = telegram.messages.length;
    expect((await earshot.rest('POST', `/v1/channels/${id}/test`, { key })).body.outcomes[0].ok).toBe(true);
    expect(telegram.messages.slice(sent).map((message) => message.chatId)).toEqual(['@earshot_alerts']);
    for (const [body, field] of [
      [{ chatId: 'not a chat' }, 'chatId'],
      [{ channelId: 'C0ALERTS01' }, 'channelId'],
    ] as const) {
      const answer = await earshot.rest('PATCH', `/v1/channels/${id}`, { key, body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error).toMatchObject({ code: 'validation_error', field });
    }
  });

  it('puts an Interacted button under a mention alert whose click, from the channel’s chat, marks every match of the post done and notes who clicked (spec 6.4)', async () => {
    telegram.chats.add('424242');
    const id = await telegramChannel('424242');
    const go = (await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'cargo' } })).body.id;
    const rule = (await earshot.rest('POST', '/v1/alerts', { key, body: { name: 'Rust buttons', channelIds: [id], filter: { keywordIds: [rust] } } })).body;
    expect(telegram.webhook).toEqual({ url: expect.stringMatching(/\/v1\/telegram\/updates$/), secretToken: expect.stringMatching(/^[A-Za-z0-9_-]{20,256}$/), allowedUpdates: ['callback_query'] });
    const updatesPath = new URL(telegram.webhook!.url).pathname;
    const sent = telegram.messages.length;
    const [rustMatch, cargoMatch] = await storeAndScore(earshot, workspaceId, [{ post: redditPost(relevantRustPosts[0], 'ferris'), keywordIds: [rust, go] }]);
    const [message] = await eventually(async () => telegram.messages.slice(sent), (messages) => messages.length === 1);
    expect(message.body.reply_markup).toEqual({ inline_keyboard: [[{ text: 'Interacted', callback_data: `interacted:${rustMatch}` }]] });

    const click = (secret: string, chat: { id: number; username?: string }) =>
      fetch(earshot.url + updatesPath, { method: 'POST', ...telegramCallbackUpdate(secret, { data: `interacted:${rustMatch}`, chat, user: { id: 42, first_name: 'Grace', username: 'grace' } }) });
    const status = async (mentionId: string) => (await earshot.rest('GET', `/v1/mentions/${mentionId}`, { key })).body;

    for (const secret of ['', 'forged-secret']) {
      const refused = await click(secret, { id: 424242 });
      expect(refused.status).toBe(400);
      expect((await refused.json()).error).toMatchObject({ code: 'invalid_signature' });
    }
    // A chat no channel of the workspace posts to cannot close its mentions.
    const elsewhere = await click(telegram.webhook!.secretToken!, { id: 999888777 });
    expect(await elsewhere.json()).toEqual({ method: 'answerCallbackQuery', callback_query_id: expect.any(String), text: 'This mention is no longer tracked here' });
    expect((await status(rustMatch)).status).toBe('open');

    const answer = await click(telegram.webhook!.secretToken!, { id: 424242 });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ method: 'answerCallbackQuery', callback_query_id: '4382bfdwdsb323b2d9', text: 'Marked done' });
    const clicked = await status(rustMatch);
    expect(clicked.status).toBe('done');
    expect(clicked.triage.note).toMatch(/^Interacted in Telegram by @grace, \d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
    expect(await status(cargoMatch)).toMatchObject({ status: 'done', triage: { note: null } });
    await earshot.rest('DELETE', `/v1/alerts/${rule.id}`, { key });
  });

  it('answers an update that is not a button click without changing anything', async () => {
    await telegramChannel('123456789');
    const message = { update_id: 5, message: { message_id: 1, chat: { id: 123456789, type: 'private' }, date: 1, text: '/start' } };
    const answer = await fetch(`${earshot.url}/v1/telegram/updates`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': telegram.webhook!.secretToken! },
      body: JSON.stringify(message),
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({});
  });

  it('points the bot’s webhook at the install again when a worker starts on an install with Telegram channels', async () => {
    await telegramChannel('123456789');
    const registrations = () => telegram.requests.filter((request) => request.path.endsWith('/setWebhook')).length;
    const before = registrations();
    const worker = await startTestEarshot(
      { env: { EARSHOT_TELEGRAM_BOT_TOKEN: telegram.botToken, EARSHOT_UPSTREAM_TELEGRAM: telegram.url } },
      { databaseUrl: earshot.databaseUrl, role: 'worker' },
    );
    try {
      await eventually(async () => registrations(), (count) => count === before + 1);
      expect(telegram.webhook).toMatchObject({ url: expect.stringMatching(/\/v1\/telegram\/updates$/), allowedUpdates: ['callback_query'] });
    } finally {
      await worker.stop();
    }
  });
});
