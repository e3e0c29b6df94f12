import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordAccountEvent, recordAccountEvents } from '../subgraphs/billing/account-event-store.ts';
import { fanOutAccountEvents } from '../subgraphs/team/account-event-deliveries.ts';
import { eventually, startTestEarshot, type TestEarshot } from './harness.ts';
import { signatureMatches, startWebhookReceiver, type WebhookReceiver } from './fake-upstreams/webhook-receiver.ts';

let earshot: TestEarshot;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  earshot = await startTestEarshot({ env: { EARSHOT_ALLOW_PRIVATE_URLS: '1', EARSHOT_RETRY_DELAY_S: '1', EARSHOT_WEBHOOK_TIMEOUT_MS: '1000' } });
});
afterAll(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await earshot?.stop();
});

async function subscribedChannel(events = ['wallet.low']) {
  const { apiKey: key, workspace } = await earshot.createWorkspace();
  const receiver = await startWebhookReceiver();
  receivers.push(receiver);
  const channel = await earshot.rest('POST', '/v1/channels', { key, body: { kind: 'webhook', url: receiver.url, events } });
  expect(channel.status).toBe(200);
  return { key, workspaceId: workspace.id, receiver, channel: channel.body };
}

const walletLow = (workspaceId: string, balanceCents = 116) =>
  recordAccountEvent(earshot.sql, { workspaceId, name: 'wallet.low', data: { wallet: { balanceCents }, lastCreditCents: 580, at: '2026-01-01T00:00:00.000Z' }, occurredAt: new Date() });

/** A `wallet.low` recorded in a transaction the test ends when it chooses. */
function walletLowInOpenTransaction(workspaceId: string, balanceCents: number) {
  let end!: (outcome: 'commit' | 'rollback') => void;
  const ending = new Promise<'commit' | 'rollback'>((resolve) => (end = resolve));
  let recorded!: () => void;
  const isRecorded = new Promise<void>((resolve) => (recorded = resolve));
  const done = earshot.sql.begin(async (tx) => {
    await recordAccountEvent(tx, { workspaceId, name: 'wallet.low', data: { wallet: { balanceCents } }, occurredAt: new Date() });
    recorded();
    if ((await ending) === 'rollback') throw new Error('rolled back');
  });
  return { isRecorded, end, done };
}

const deliveryLog = async (key: string, channelId: string) => (await earshot.rest('GET', `/v1/channels/${channelId}/deliveries`, { key })).body.data;

describe('webhook deliveries of account events', () => {
  it('delivers an event signed, with alert null, to the channels subscribed when it was recorded', async () => {
    const { key, workspaceId, receiver, channel } = await subscribedChannel();
    await earshot.sql`/* backdated event */ insert into account_events (id, workspace_id, name, data, occurred_at, created_at)
      values ('evt_backdated', ${workspaceId}, 'wallet.low', '{"old":true}', now() - interval '1 hour', now() - interval '1 hour')`;
    await walletLow(workspaceId);
    await eventually(async () => receiver.received.length, (count) => count >= 1);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    const body = JSON.parse(request.body);
    expect(body).toEqual({
      id: expect.stringMatching(/^dlv_/),
      event: 'wallet.low',
      createdAt: expect.any(String),
      alert: null,
      data: { wallet: { balanceCents: 116 }, lastCreditCents: 580, at: '2026-01-01T00:00:00.000Z' },
    });
    expect(signatureMatches(request, channel.config.secret)).toBe(true);
    expect(new Webhook(channel.config.secret).verify(request.body, request.headers as Record<string, string>)).toEqual(body);
    const log = await eventually(() => deliveryLog(key, channel.id), (entries) => entries[0]?.status === 'delivered');
    expect(log).toEqual([expect.objectContaining({ id: body.id, kind: 'event', event: 'wallet.low', status: 'delivered', attempts: 1, alert: null, mention: null })]);
  });

  it('sends nothing for an event the channel does not subscribe to', async () => {
    const { workspaceId, receiver } = await subscribedChannel(['keyword.capped']);
    await walletLow(workspaceId);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(receiver.received).toEqual([]);
  });

  it('retries 5xx, 408 and 429 with the same id and bytes, and records every attempt', async () => {
    const { key, workspaceId, receiver, channel } = await subscribedChannel();
    receiver.answerNext({ status: 500 }, { status: 408 }, { status: 429, headers: { 'retry-after': '2' } }, { status: 200 });
    await walletLow(workspaceId);
    const log = await eventually(() => deliveryLog(key, channel.id), (entries) => entries[0]?.status === 'delivered', 30_000);
    expect(receiver.received).toHaveLength(4);
    expect(new Set(receiver.received.map((request) => request.body)).size).toBe(1);
    expect(new Set(receiver.received.map((request) => request.headers['webhook-id'])).size).toBe(1);
    for (const request of receiver.received) expect(signatureMatches(request, channel.config.secret)).toBe(true);
    expect(log[0]).toMatchObject({ status: 'delivered', attempts: 4, error: null });
    expect(log[0].attemptLog.map((attempt: any) => attempt.status)).toEqual([500, 408, 429, 200]);
    // EARSHOT_RETRY_DELAY_S=1 spaces the retries about 1 s apart, not up to a dispatcher poll more.
    for (const [earlier, later] of [[0, 1], [1, 2]]) {
      expect(receiver.received[later].at - receiver.received[earlier].at).toBeGreaterThanOrEqual(950);
      expect(receiver.received[later].at - receiver.received[earlier].at).toBeLessThan(1600);
    }
    // Retry-After: 2 is honoured over the 1 s retry delay.
    expect(receiver.received[3].at - receiver.received[2].at).toBeGreaterThanOrEqual(1900);
    expect(receiver.received[3].at - receiver.received[2].at).toBeLessThan(2600);
  });

  it('fails at once on another 4xx, without retrying', async () => {
    const { key, workspaceId, receiver, channel } = await subscribedChannel();
    receiver.answerNext({ status: 400 });
    await walletLow(workspaceId);
    const log = await eventually(() => deliveryLog(key, channel.id), (entries) => entries[0]?.status === 'failed');
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(receiver.received).toHaveLength(1);
    expect(log[0]).toMatchObject({ status: 'failed', attempts: 1, error: 'HTTP 400', attemptLog: [expect.objectContaining({ status: 400 })] });
  });

  it('gives up after 5 attempts, time-outs included', async () => {
    const { key, workspaceId, receiver, channel } = await subscribedChannel();
    receiver.answerNext({ status: 503 }, { status: 200, delayMs: 3000 }, { status: 502 }, { status: 500 }, { status: 504 });
    await walletLow(workspaceId);
    const log = await eventually(() => deliveryLog(key, channel.id), (entries) => entries[0]?.status === 'failed', 40_000);
    expect(log[0]).toMatchObject({ status: 'failed', attempts: 5, error: 'HTTP 504' });
    expect(log[0].attemptLog.map((attempt: any) => attempt.status)).toEqual([503, null, 502, 500, 504]);
    expect(log[0].attemptLog[1].error).toMatch(/no answer within 1 s/);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.received).toHaveLength(5);
    const listed = await earshot.rest('GET', '/v1/channels', { key });
    expect(listed.body.data[0].stats.last7d).toEqual({ total: 1, failed: 1 });
  });

  it('keeps a stalled endpoint from delaying another channel', async () => {
    const { key, workspaceId, receiver: stalled } = await subscribedChannel();
    const quick = await startWebhookReceiver();
    receivers.push(quick);
    expect((await earshot.rest('POST', '/v1/channels', { key, body: { kind: 'webhook', url: quick.url, events: ['wallet.low'] } })).status).toBe(200);
    stalled.answerNext(...Array.from({ length: 200 }, () => ({ status: 200, delayMs: 5000 })));
    const started = Date.now();
    for (let i = 0; i < 60; i++) await walletLow(workspaceId, i);
    await eventually(async () => quick.received.length, (count) => count >= 60, 10_000);
    expect(quick.received).toHaveLength(60);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('gives the deliveries of events recorded together ids that ascend in recording order, and sends them in that order', async () => {
    const { workspaceId, receiver } = await subscribedChannel(['wallet.low']);
    // Recorded in one statement, as the daily tick records a wallet's pauses: their deliveries are made in one fan-out, within a millisecond.
    await recordAccountEvents(
      earshot.sql,
      Array.from({ length: 12 }, (_, i) => ({ workspaceId, name: 'wallet.low' as const, data: { wallet: { balanceCents: i } }, occurredAt: new Date() })),
    );
    await eventually(async () => receiver.received.length, (count) => count >= 12);
    const bodies = receiver.bodies();
    const inRecordingOrder = [...bodies].sort((a, b) => a.data.wallet.balanceCents - b.data.wallet.balanceCents).map((body) => body.id);
    expect(inRecordingOrder).toEqual([...inRecordingOrder].sort());
    expect(bodies.map((body) => body.id)).toEqual(inRecordingOrder);
  });

  it('waits for an event whose transaction commits late, however late, and passes one that rolled back', async () => {
    const { workspaceId, receiver } = await subscribedChannel();
    const balances = () => receiver.received.map((request) => JSON.parse(request.body).data.wallet.balanceCents).sort((a, b) => a - b);
    const late = walletLowInOpenTransaction(workspaceId, 1);
    await late.isRecorded;
    await walletLow(workspaceId, 2);
    // Passes as if ten minutes had gone by: the event numbered before the committed one may still arrive.
    for (let pass = 0; pass < 3; pass++) await fanOutAccountEvents(earshot.sql, new Date(Date.now() + 600_000), {});
    expect(await earshot.sql`select id from deliveries where workspace_id = ${workspaceId}`).toEqual([]);
    late.end('commit');
    await late.done;
    expect(await eventually(async () => balances(), (seen) => seen.length >= 2)).toEqual([1, 2]);

    const dropped = walletLowInOpenTransaction(workspaceId, 3);
    await dropped.isRecorded;
    await walletLow(workspaceId, 4);
    dropped.end('rollback');
    await expect(dropped.done).rejects.toThrow('rolled back');
    expect(await eventually(async () => balances(), (seen) => seen.length >= 3)).toEqual([1, 2, 4]);
  });
});
