import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanLink, scannedUnspent } from './link-scanners.ts';
import { eventually, startTestEarshot, type TestEarshot } from './harness.ts';
import { type FakeSmtp, startFakeSmtp } from './fake-upstreams/smtp.ts';
import { redditPost, relevantRustPosts, rustContext, storeAndScore } from './scored-mentions.ts';

let smtp: FakeSmtp;
let earshot: TestEarshot;
let key: string;
let workspaceId: string;
let rust: string;

beforeAll(async () => {
  smtp = await startFakeSmtp();
  earshot = await startTestEarshot({
    env: { EARSHOT_SMTP_URL: smtp.url, EARSHOT_MAIL_FROM: 'Earshot <alerts@earshot.example>', EARSHOT_PUBLIC_URL: 'https://app.example', EARSHOT_RETRY_DELAY_S: '1' },
  });
  const created = await earshot.createWorkspace('Acme');
  key = created.apiKey;
  workspaceId = created.workspace.id;
  rust = (await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'Rust', context: rustContext } })).body.id;
});
afterAll(async () => {
  await earshot?.stop();
  await smtp?.close();
});

const deliveryLog = async (channelId: string) => (await earshot.rest('GET', `/v1/channels/${channelId}/deliveries`, { key })).body.data;
const mailsTo = (address: string) => smtp.messages.filter((mail) => mail.envelope.to.includes(address));

/** The confirmation link of the newest mail to `address`, as its reader would open it on this server. */
function confirmationPath(address: string): string {
  const link = /https:\/\/app\.example(\/v1\/channels\/email\/confirm\?token=[A-Za-z0-9_%-]+)/.exec(mailsTo(address).at(-1)!.text!);
  return link![1];
}

async function confirmedChannel(address: string) {
  const id = (await earshot.rest('POST', '/v1/channels', { key, body: { kind: 'email', label: 'Inbox', address } })).body.id as string;
  expect((await earshot.rest('GET', confirmationPath(address))).status).toBe(200);
  return id;
}

describe('e-mail channels', () => {
  it('need a confirmation: only the confirmation mail goes out until its link is opened, then alerts arrive; the link works once', async () => {
    const created = await earshot.rest('POST', '/v1/channels', { key, body: { kind: 'email', label: 'Team inbox', address: 'team@acme.example' } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ kind: 'email', label: 'Team inbox', config: { url: null, headers: {}, events: [], secret: null, address: 'team@acme.example', confirmed: false } });
    const id = created.body.id as string;
    const [confirmation] = mailsTo('team@acme.example');
    expect(confirmation).toMatchObject({ from: 'Earshot <alerts@earshot.example>', subject: 'Confirm Earshot alerts to this address' });
    expect(confirmation.text).toContain('“Team inbox”');
    expect(confirmation.html).toContain('https://app.example/v1/channels/email/confirm?token=');
    const path = confirmationPath('team@acme.example');

    const rule = (await earshot.rest('POST', '/v1/alerts', { key, body: { name: 'Rust by mail', channelIds: [id], filter: { keywordIds: [rust] } } })).body;
    await storeAndScore(earshot, workspaceId, [{ post: redditPost(relevantRustPosts[0]), keywordIds: [rust] }]);
    const [refused] = await eventually(() => deliveryLog(id), (log) => log[0]?.status === 'failed');
    expect(refused).toMatchObject({ kind: 'mention', attempts: 1, error: 'the address has not been confirmed yet' });
    expect((await earshot.rest('POST', `/v1/channels/${id}/test`, { key })).body.outcomes).toEqual([{ channelId: id, ok: false, error: 'the address has not been confirmed yet' }]);
    expect(mailsTo('team@acme.example')).toHaveLength(1);

    const confirmed = await earshot.rest('GET', path);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ confirmed: true, channelId: id, address: 'team@acme.example' });
    expect((await earshot.rest('GET', `/v1/channels/${id}`, { key })).body.config).toEqual({ url: null, headers: {}, events: [], address: 'team@acme.example', confirmed: true });

    await storeAndScore(earshot, workspaceId, [{ post: redditPost(relevantRustPosts[1], 'ferris'), keywordIds: [rust] }]);
    const [, alert] = await eventually(async () => mailsTo('team@acme.example'), (mails) => mails.length === 2);
    expect(alert.subject).toContain('New mention: “Rust” on Reddit');
    expect(alert.text).toContain(relevantRustPosts[1]);
    expect(alert.text).toContain('ferris');
    expect(alert.html).toContain('Rust by mail');

    const again = await earshot.rest('GET', path);
    expect(again.status).toBe(401);
    expect(again.body).toEqual({ error: { code: 'invalid_token', message: expect.any(String), requestId: expect.any(String) } });
    const forged = await earshot.rest('GET', '/v1/channels/email/confirm?token=forged');
    expect(forged.body.error.code).toBe('invalid_token');
    const missing = await earshot.rest('GET', '/v1/channels/email/confirm');
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'validation_error', field: 'token' });
    await earshot.rest('DELETE', `/v1/alerts/${rule.id}`, { key });
  });

  // A mail scanner's HEAD confirmed the channel before its reader saw the mail.
  it('spends the confirmation link on neither a HEAD nor a prefetch', async () => {
    const created = await earshot.rest('POST', '/v1/channels', { key, body: { kind: 'email', label: 'Scanned', address: 'scanned@acme.example' } });
    const path = confirmationPath('scanned@acme.example');
    expect(await scanLink(`${earshot.url}${path}`)).toEqual(scannedUnspent);
    expect((await earshot.rest('GET', `/v1/channels/${created.body.id}`, { key })).body.config.confirmed).toBe(false);
    expect((await earshot.rest('GET', path)).body).toEqual({ confirmed: true, channelId: created.body.id, address: 'scanned@acme.example' });
  });

  it('sends a browser opening the link to the dashboard page, spending nothing, and answers API clients in JSON', async () => {
    const created = await earshot.rest('POST', '/v1/channels', { key, body: { kind: 'email', label: 'Negotiated', address: 'negotiated@acme.example' } });
    const path = confirmationPath('negotiated@acme.example');
    const search = path.slice(path.indexOf('?'));
    const browsers = ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'text/html', 'application/json;q=0.5, text/html'];
    for (const accept of browsers) {
      const opened = await fetch(`${earshot.url}${path}`, { redirect: 'manual', headers: { accept } });
      expect({ accept, status: opened.status, location: opened.headers.get('location'), body: await opened.text() }).toEqual({ accept, status: 303, location: `/confirm-email${search}`, body: '' });
    }
    expect((await earshot.rest('GET', `/v1/channels/${created.body.id}`, { key })).body.config.confirmed).toBe(false);
    // JSON first, JSON and HTML alike, or no preference: the API's answer.
    for (const accept of ['application/json', '*/*', 'application/json, text/html', 'text/html;q=0.5, application/json']) {
      expect((await earshot.rest('GET', '/v1/channels/email/confirm?token=forged', { headers: { accept } })).body.error.code).toBe('invalid_token');
    }
    const confirmed = await earshot.rest('GET', path, { headers: { accept: 'application/json' } });
    expect(confirmed.body).toEqual({ confirmed: true, channelId: created.body.id, address: 'negotiated@acme.example' });
  });

  // The spec's channel body (4.6) names `url` and no address field: `url: "mailto:…"` answered "must be an http or https URL".
  it('takes its address as a mailto: url, and refuses one on another kind or beside an address', async () => {
    const created = await earshot.rest('POST', '/v1/channels', { key, body: { kind: 'email', label: 'Mailto', url: 'mailto:press%2Bearshot@acme.example' } });
    expect(created.status).toBe(200);
    expect(created.body.config).toMatchObject({ url: null, address: 'press+earshot@acme.example', confirmed: false });
    expect(mailsTo('press+earshot@acme.example').map((mail) => mail.subject)).toEqual(['Confirm Earshot alerts to this address']);
    for (const [body, message] of [
      [{ kind: 'webhook', url: 'mailto:ops@acme.example' }, 'url: must be an http or https URL'],
      [{ kind: 'email', url: 'mailto:ops@acme.example', address: 'ops@acme.example' }, 'url: names the address a second time: give address or a mailto: url'],
      [{ kind: 'email', url: 'mailto:not an address' }, 'url: must be a mailto: link to one e-mail address'],
    ] as const) {
      const refused = await earshot.rest('POST', '/v1/channels', { key, body });
      expect({ status: refused.status, error: refused.body.error }, JSON.stringify(body)).toMatchObject({ status: 400, error: { code: 'validation_error', field: 'url', message } });
    }
  });

  it('takes a test send once confirmed', async () => {
    const id = await confirmedChannel('tests@acme.example');
    expect((await earshot.rest('POST', `/v1/channels/${id}/test`, { key })).body.outcomes).toEqual([{ channelId: id, ok: true, error: null }]);
    const test = mailsTo('tests@acme.example').at(-1)!;
    expect(test.text).toContain('This is a test delivery from Earshot. Your channel is set up.');
    // The delivery's id is the Message-ID: a retry of a send that did arrive is the same message to the reader.
    const [logged] = await deliveryLog(id);
    expect(test.messageId).toBe(`<${logged.id}@app.example>`);
  });

  // Channel e-mails carried no unsubscribe link at all: Gmail and Yahoo require a one-click one of bulk senders (RFC 8058).
  it('carries the one-click List-Unsubscribe of its channel on channel e-mails, not on the confirmation; a POST of it stops the channel with no credential', async () => {
    const id = await confirmedChannel('leaving@acme.example');
    expect(mailsTo('leaving@acme.example')[0].headers['list-unsubscribe']).toBeUndefined();
    expect((await earshot.rest('POST', `/v1/channels/${id}/test`, { key })).body.outcomes).toEqual([{ channelId: id, ok: true, error: null }]);
    const sent = mailsTo('leaving@acme.example').at(-1)!;
    const [, link, path] = /^<(https:\/\/app\.example(\/v1\/channels\/email\/unsubscribe\?token=[^>]+))>$/.exec(sent.headers['list-unsubscribe'])!;
    expect(sent.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(sent.html).toContain(`href="${link}"`);

    const oneClick = await fetch(`${earshot.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    const unsubscribed = { unsubscribed: true, channelId: id, address: 'leaving@acme.example' };
    expect({ status: oneClick.status, body: await oneClick.json() }).toEqual({ status: 200, body: unsubscribed });
    expect((await earshot.rest('GET', `/v1/channels/${id}`, { key })).body.config.confirmed).toBe(false);
    expect((await earshot.rest('POST', `/v1/channels/${id}/test`, { key })).body.outcomes).toEqual([{ channelId: id, ok: false, error: 'the address unsubscribed from these e-mails' }]);
    expect(mailsTo('leaving@acme.example')).toHaveLength(2);
    // The link keeps working, and a forged one names nothing.
    expect((await earshot.rest('GET', path)).body).toEqual(unsubscribed);
    expect((await earshot.rest('GET', `/v1/channels/email/unsubscribe?token=${id}.forged`)).body.error.code).toBe('invalid_token');
  });

  it('retries a temporary SMTP refusal and fails a final one at once', async () => {
    const busy = await confirmedChannel('busy@acme.example');
    const gone = await confirmedChannel('gone@acme.example');
    smtp.refuseRecipient('busy@acme.example', 451);
    smtp.refuseRecipient('gone@acme.example', 550);
    const rule = (await earshot.rest('POST', '/v1/alerts', { key, body: { name: 'Refused', channelIds: [busy, gone], filter: { keywordIds: [rust] } } })).body;
    await storeAndScore(earshot, workspaceId, [{ post: redditPost(relevantRustPosts[2]), keywordIds: [rust] }]);
    const [final] = await eventually(() => deliveryLog(gone), (log) => log[0]?.status === 'failed');
    expect(final).toMatchObject({ attempts: 1, error: expect.stringContaining('550') });
    const [temporary] = await eventually(() => deliveryLog(busy), (log) => log[0]?.status === 'failed', 20_000);
    expect(temporary).toMatchObject({ attempts: 5, error: expect.stringContaining('451') });
    await earshot.rest('DELETE', `/v1/alerts/${rule.id}`, { key });
  });

  it('answers 501 email_not_configured without EARSHOT_SMTP_URL, and refuses a malformed address or one the mail server refuses, storing nothing', async () => {
    // E-mail takes no hourly digests: the rule itself is refused.
    const inbox = (await earshot.rest('POST', '/v1/channels', { key, body: { kind: 'email', address: 'hourly@acme.example' } })).body;
    const hourly = await earshot.rest('POST', '/v1/alerts', { key, body: { name: 'Hourly', mode: 'hourly', channelIds: [inbox.id] } });
    expect(hourly.status).toBe(400);
    expect(hourly.body.error).toMatchObject({ code: 'hourly_email_unsupported', field: 'channelIds' });
    const bad = await earshot.rest('POST', '/v1/channels', { key, body: { kind: 'email', address: 'not an address' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'validation_error', field: 'address' });
    const missing = await earshot.rest('POST', '/v1/channels', { key, body: { kind: 'email', label: 'Inbox' } });
    expect(missing.body.error).toMatchObject({ code: 'validation_error', field: 'address', message: 'address: is required for an e-mail channel' });
    const foreign = await earshot.rest('PATCH', `/v1/channels/${inbox.id}`, { key, body: { chatId: '123456789' } });
    expect(foreign.body.error).toMatchObject({ code: 'validation_error', field: 'chatId', message: 'chatId: is not taken by an e-mail channel' });
    smtp.refuseRecipient('nobody@acme.example', 550);
    const before = (await earshot.rest('GET', '/v1/channels', { key })).body.data.length;
    const unknown = await earshot.rest('POST', '/v1/channels', { key, body: { kind: 'email', address: 'nobody@acme.example' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: 'validation_error', field: 'address', message: expect.stringContaining('550') });
    expect((await earshot.rest('GET', '/v1/channels', { key })).body.data).toHaveLength(before);
    // A mail server that is down, and one that takes the connection and never greets (given up before the request's
    // 5 s): 502 upstream_unavailable, where the first was 503 "the database is not available" (its ECONNREFUSED read as
    // the database's) and the second met the public server's deadline, saying the same.
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const down = createServer();
    await new Promise<void>((resolve) => down.listen(0, '127.0.0.1', resolve));
    const downPort = (down.address() as AddressInfo).port;
    await new Promise<void>((resolve) => down.close(() => resolve()));
    for (const port of [downPort, (silent.address() as AddressInfo).port]) {
      const mailless = await startTestEarshot({ env: { EARSHOT_SMTP_URL: `smtp://127.0.0.1:${port}` } });
      try {
        const { apiKey } = await mailless.createWorkspace();
        const started = Date.now();
        const answer = await mailless.rest('POST', '/v1/channels', { key: apiKey, body: { kind: 'email', address: 'team@acme.example' } });
        expect(Date.now() - started).toBeLessThan(4500);
        expect({ status: answer.status, code: answer.body.error?.code }, JSON.stringify(answer.body)).toEqual({ status: 502, code: 'upstream_unavailable' });
        // Retryable, so it says when to come back (spec 7), in the envelope and the header alike.
        expect([answer.body.error.retryAfterSeconds, answer.headers.get('retry-after')]).toEqual([60, '60']);
        expect((await mailless.rest('GET', '/v1/channels', { key: apiKey })).body.data).toEqual([]);
      } finally {
        await mailless.stop();
      }
    }
    silent.close();
    const bare = await startTestEarshot();
    try {
      const { apiKey } = await bare.createWorkspace();
      const answer = await bare.rest('POST', '/v1/channels', { key: apiKey, body: { kind: 'email', address: 'team@acme.example' } });
      expect(answer.status).toBe(501);
      expect(answer.body.error).toMatchObject({ code: 'email_not_configured', requestId: expect.any(String) });
    } finally {
      await bare.stop();
    }
  });
});
