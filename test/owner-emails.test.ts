import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountEventName, recordAccountEvent } from '../subgraphs/billing/account-event-store.ts';
import { fanOutAccountEvents } from '../subgraphs/team/account-event-deliveries.ts';
import { addMember } from '../subgraphs/team/member-store.ts';
import { insertSession } from '../subgraphs/team/session-store.ts';
import { findNotificationSettings, findOrCreateUser } from '../subgraphs/team/user-store.ts';
import { provisionWorkspace } from '../subgraphs/team/workspace-provisioning.ts';
import { type FakeSmtp, type ReceivedMail, startFakeSmtp } from './fake-upstreams/smtp.ts';
import { startWebhookReceiver, type WebhookReceiver } from './fake-upstreams/webhook-receiver.ts';
import { eventually, startTestEarshot, type TestEarshot } from './harness.ts';
import { scanLink, scannedUnspent } from './link-scanners.ts';

const env = { EARSHOT_SMTP_URL: '', EARSHOT_MAIL_FROM: 'Earshot <owners@earshot.example>', EARSHOT_PUBLIC_URL: 'https://app.example', EARSHOT_RETRY_DELAY_S: '1' };
let smtp: FakeSmtp;
let earshot: TestEarshot;

beforeAll(async () => {
  smtp = await startFakeSmtp();
  env.EARSHOT_SMTP_URL = smtp.url;
  earshot = await startTestEarshot({ env });
});
afterAll(async () => {
  await earshot?.stop();
  await smtp?.close();
});

const wallet = { balanceCents: 116, effectiveCents: 116, nextDayCents: 17, resumeCostCents: 17, activeKeywords: 1, pausedKeywords: 0 };
const eventData: Record<string, Record<string, unknown>> = {
  'wallet.low': { wallet, lastCreditCents: 580, at: '2030-01-01T00:00:00.000Z' },
  'wallet.paused': { wallet: { ...wallet, effectiveCents: 5 }, keywordsPaused: 3, at: '2030-01-02T00:00:00.000Z' },
  'keyword.capped': { keyword: { id: 'kw_1', term: 'earshot', kind: 'brand' }, cap: { mentions: 200 }, thisMonth: 200, pausedAt: '2030-01-03T00:00:00.000Z', resumesAt: '2030-02-01T00:00:00.000Z' },
  'keyword.resumed': { keyword: { id: 'kw_1', term: 'earshot', kind: 'brand' }, reason: 'cap_raised', resumedAt: '2030-01-04T00:00:00.000Z' },
};
const record = (workspaceId: string, name: AccountEventName) => recordAccountEvent(earshot.sql, { workspaceId, name, data: eventData[name], occurredAt: new Date() });

/** A workspace with two owners and an admin, their addresses unique to `label`. */
async function ownedTwice(label: string) {
  const created = await provisionWorkspace(earshot.sql, `Owned ${label}`, { ownerEmail: `first.${label}@example.com` });
  const second = await findOrCreateUser(earshot.sql, { email: `second.${label}@example.com` });
  await addMember(earshot.sql, { workspaceId: created.workspace.id, userId: second.id, role: 'owner' });
  const admin = await findOrCreateUser(earshot.sql, { email: `admin.${label}@example.com` });
  await addMember(earshot.sql, { workspaceId: created.workspace.id, userId: admin.id, role: 'admin' });
  return { workspaceId: created.workspace.id, key: created.apiKey, first: created.owner!, second, admin };
}

const mailsTo = (address: string) => smtp.messages.filter((mail) => mail.envelope.to.includes(address));
const waitForMails = (address: string, count: number) => eventually(async () => mailsTo(address), (found) => found.length >= count);
/** Long enough for the dispatcher (it polls every second) to have sent anything more it was going to. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 2500));
const ownerDeliveries = (workspaceId: string) =>
  earshot.sql<{ id: string; userId: string; event: string; status: string; attempts: number }[]>`
    select id, user_id, event, status, attempts from deliveries where workspace_id = ${workspaceId} and user_id is not null order by created_at, id`;

describe('owner e-mails', () => {
  it('mails every owner once for wallet.low, wallet.paused and keyword.capped, and nobody for other events', async () => {
    const team = await ownedTwice('events');
    for (const name of ['wallet.low', 'keyword.resumed', 'wallet.paused', 'keyword.capped'] as AccountEventName[]) await record(team.workspaceId, name);
    const first = await waitForMails('first.events@example.com', 3);
    await waitForMails('second.events@example.com', 3);
    await settle();
    expect(mailsTo('first.events@example.com').map((mail) => mail.subject).sort()).toEqual([
      'Keyword “earshot” reached its cap',
      'Tracking paused: the wallet cannot cover another day',
      'Wallet balance is low',
    ]);
    expect(mailsTo('second.events@example.com')).toHaveLength(3);
    expect(mailsTo('admin.events@example.com')).toEqual([]);

    const low = first.find((mail) => mail.subject === 'Wallet balance is low')!;
    const [delivery] = (await ownerDeliveries(team.workspaceId)).filter((row) => row.userId === team.first.id && row.event === 'wallet.low');
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 1 });
    expect(low.messageId).toBe(`<${delivery.id}@app.example>`);
    expect(low.from).toBe('Earshot <owners@earshot.example>');
    expect(low.text).toContain('Workspace: Owned events');
    expect(low.text).toContain('Balance: $1.16');
    // Each links to the dashboard page that deals with it, under EARSHOT_PUBLIC_URL.
    expect(low.text).toContain('Top up the wallet in Earshot: https://app.example/wallet\n');
    expect(low.html).toContain('<a href="https://app.example/wallet">Top up the wallet in Earshot</a>');
    const paused = first.find((mail) => mail.subject.startsWith('Tracking paused'))!;
    expect(paused.text).toContain('Top up the wallet in Earshot: https://app.example/wallet\n');
    const capped = first.find((mail) => mail.subject === 'Keyword “earshot” reached its cap')!;
    expect(capped.text).toContain('Open the keyword in Earshot: https://app.example/keywords/kw_1\n');
    expect(capped.html).toContain('<a href="https://app.example/keywords/kw_1">Open the keyword in Earshot</a>');
    const link = unsubscribeLinkOf(low);
    expect(low.headers['list-unsubscribe']).toBe(`<${link}>`);
    expect(low.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(low.text).toContain(`You get this e-mail as an owner of “Owned events” on Earshot.\nUnsubscribe: ${link}`);
    expect(low.html).toContain(`href="${link.replace(/&/g, '&amp;')}"`);
    // Owner e-mails belong to no channel, so no channel's log shows them.
    expect((await earshot.rest('GET', '/v1/channels', { key: team.key })).body.data).toEqual([]);
  });

  it('sends each event to each owner once, however often the fan-out runs, and a retry keeps the delivery id', async () => {
    const team = await ownedTwice('once');
    smtp.refuseRecipient('first.once@example.com', 451, 1);
    await record(team.workspaceId, 'wallet.low');
    const [mail] = await waitForMails('first.once@example.com', 1);
    await waitForMails('second.once@example.com', 1);
    // A worker that crashed after enqueueing and ran the fan-out again from an older cursor.
    await earshot.sql`update account_event_fanout set last_seq = 0`;
    await fanOutAccountEvents(earshot.sql, new Date(), env);
    await settle();
    expect(mailsTo('first.once@example.com')).toHaveLength(1);
    expect(mailsTo('second.once@example.com')).toHaveLength(1);
    const deliveries = await ownerDeliveries(team.workspaceId);
    expect(deliveries.map((row) => [row.userId, row.event, row.status])).toEqual(
      expect.arrayContaining([
        [team.first.id, 'wallet.low', 'delivered'],
        [team.second.id, 'wallet.low', 'delivered'],
      ]),
    );
    expect(deliveries).toHaveLength(2);
    const retried = deliveries.find((row) => row.userId === team.first.id)!;
    expect(retried.attempts).toBe(2);
    expect(mail.messageId).toBe(`<${retried.id}@app.example>`);
  });

  it('stops for an owner who unsubscribes with the one-click link, and starts again from the settings', async () => {
    const team = await ownedTwice('unsubscribe');
    await record(team.workspaceId, 'wallet.low');
    const [mail] = await waitForMails('first.unsubscribe@example.com', 1);
    const link = new URL(unsubscribeLinkOf(mail));
    expect(link.pathname).toBe('/v1/me/notifications/unsubscribe');
    // A mail scanner's HEAD or a preview's prefetch unsubscribes nobody.
    expect(await scanLink(`${earshot.url}${link.pathname}${link.search}`)).toEqual(scannedUnspent);
    expect(await findNotificationSettings(earshot.sql, team.first.id)).toEqual({ email: 'first.unsubscribe@example.com', ownerEmails: true });

    // What a mail program does with List-Unsubscribe-Post.
    const oneClick = await fetch(`${earshot.url}${link.pathname}${link.search}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status).toBe(200);
    expect(await oneClick.json()).toEqual({ email: 'first.unsubscribe@example.com', ownerEmails: false });
    // A reader opening the link again changes nothing more.
    expect((await earshot.rest('GET', `${link.pathname}${link.search}`)).body).toEqual({ email: 'first.unsubscribe@example.com', ownerEmails: false });

    await record(team.workspaceId, 'wallet.paused');
    await waitForMails('second.unsubscribe@example.com', 2);
    await settle();
    expect(mailsTo('first.unsubscribe@example.com')).toHaveLength(1);

    const session = await insertSession(earshot.sql, { userId: team.first.id, workspaceId: team.workspaceId });
    const headers = { cookie: `earshot_session=${session.token}`, 'x-csrf-token': session.csrfToken };
    expect((await earshot.rest('GET', '/v1/me/notifications', { headers })).body).toEqual({ email: 'first.unsubscribe@example.com', ownerEmails: false });
    const resubscribed = await earshot.rest('PATCH', '/v1/me/notifications', { headers, body: { ownerEmails: true } });
    expect(resubscribed.status).toBe(200);
    expect(resubscribed.body).toEqual({ email: 'first.unsubscribe@example.com', ownerEmails: true });
    await record(team.workspaceId, 'keyword.capped');
    expect((await waitForMails('first.unsubscribe@example.com', 2))[1].subject).toBe('Keyword “earshot” reached its cap');
  });

  it('keeps the settings to a signed-in person and refuses a forged link', async () => {
    const team = await ownedTwice('settings');
    const byKey = await earshot.rest('GET', '/v1/me/notifications', { key: team.key });
    expect(byKey.status).toBe(403);
    expect(byKey.body.error).toMatchObject({ code: 'forbidden', message: expect.stringContaining('not an API key') });
    expect((await earshot.rest('PATCH', '/v1/me/notifications', { key: team.key, body: { ownerEmails: false } })).status).toBe(403);
    const session = await insertSession(earshot.sql, { userId: team.second.id, workspaceId: team.workspaceId });
    const bad = await earshot.rest('PATCH', '/v1/me/notifications', {
      headers: { cookie: `earshot_session=${session.token}`, 'x-csrf-token': session.csrfToken },
      body: { ownerEmails: 'no' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'validation_error', field: 'ownerEmails' });

    const forged = await earshot.rest('GET', `/v1/me/notifications/unsubscribe?token=${team.second.id}.${'A'.repeat(43)}`);
    expect(forged.status).toBe(401);
    expect(forged.body.error.code).toBe('invalid_token');
    expect((await earshot.rest('POST', '/v1/me/notifications/unsubscribe?token=nonsense')).status).toBe(401);
    const [row] = await earshot.sql`select owner_emails from users where id = ${team.second.id}`;
    expect(row.ownerEmails).toBe(true);
  });
});

describe('owner e-mails without EARSHOT_SMTP_URL', () => {
  let plain: TestEarshot;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    plain = await startTestEarshot({ env: { EARSHOT_ALLOW_PRIVATE_URLS: '1' } });
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await plain?.stop();
    await receiver?.close();
  });

  it('sends none and stores none, and webhooks still get the event', async () => {
    const created = await provisionWorkspace(plain.sql, 'Unmailed', { ownerEmail: 'unmailed@example.com' });
    const channel = await plain.rest('POST', '/v1/channels', { key: created.apiKey, body: { kind: 'webhook', url: receiver.url, events: ['wallet.low'] } });
    expect(channel.status).toBe(200);
    await recordAccountEvent(plain.sql, { workspaceId: created.workspace.id, name: 'wallet.low', data: eventData['wallet.low'], occurredAt: new Date() });
    await eventually(async () => receiver.received.length, (count) => count >= 1);
    expect(JSON.parse(receiver.received[0].body)).toMatchObject({ event: 'wallet.low', alert: null });
    expect(await plain.sql`select id from deliveries where user_id is not null`).toEqual([]);
  });
});

function unsubscribeLinkOf(mail: ReceivedMail): string {
  const link = /^Unsubscribe: (\S+)$/m.exec(mail.text ?? '')?.[1];
  expect(link).toMatch(/^https:\/\/app\.example\/v1\/me\/notifications\/unsubscribe\?token=usr_[0-9a-z]{26}\.[\w-]{43}$/);
  return link!;
}
