import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestEarshot, testSecrets, type TestEarshot } from './harness.ts';
import { signatureMatches, startWebhookReceiver, type WebhookReceiver } from './fake-upstreams/webhook-receiver.ts';

let earshot: TestEarshot;
let key: string;
let receiver: WebhookReceiver;

const timestampPattern = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

beforeAll(async () => {
  earshot = await startTestEarshot({ env: { EARSHOT_ALLOW_PRIVATE_URLS: '1' } });
  key = (await earshot.createWorkspace('Acme')).apiKey;
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await earshot?.stop();
});

const createWebhook = (body: Record<string, unknown> = {}) =>
  earshot.rest('POST', '/v1/channels', { key, body: { kind: 'webhook', url: receiver.url, label: 'Ops', ...body } });

describe('channels', () => {
  it('creates a webhook whose secret is shown once, then lists it with stats', async () => {
    const created = await createWebhook({ headers: { 'X-Team': 'growth' }, events: ['wallet.low', 'keyword.capped'] });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^dest_[0-9a-z]{26}$/),
      kind: 'webhook',
      label: 'Ops',
      config: {
        url: receiver.url,
        headers: { 'X-Team': 'growth' },
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
        events: ['wallet.low', 'keyword.capped'],
      },
      stats: { alerts: 0, activeAlerts: 0, lastDeliveryAt: null, last7d: { total: 0, failed: 0 } },
      createdAt: expect.stringMatching(timestampPattern),
    });
    expect(Buffer.from(created.body.config.secret.slice(6), 'base64')).toHaveLength(32);
    const listed = await earshot.rest('GET', '/v1/channels', { key });
    expect(listed.status).toBe(200);
    const { secret: _, ...config } = created.body.config;
    expect(listed.body.data.find((channel: any) => channel.id === created.body.id)).toEqual({ ...created.body, config });
  });

  it('refuses bad input naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ kind: 'webhook', label: 'x' }, 'url'],
      [{ kind: 'webhook', url: 'ftp://example.com/x' }, 'url'],
      [{ kind: 'pigeon', url: 'https://example.com' }, 'kind'],
      [{ kind: 'webhook', url: 'https://example.com', headers: { 'X-A': 5 } }, 'headers.X-A'],
      [{ kind: 'webhook', url: 'https://example.com', headers: ['a'] }, 'headers'],
      [{ kind: 'webhook', url: 'https://example.com', headers: { 'X-Mood': 'ok 😀' } }, 'headers.X-Mood'],
      [{ kind: 'webhook', url: 'https://example.com', headers: { 'X-City': 'Zürich' } }, 'headers.X-City'],
      [{ kind: 'webhook', url: 'https://example.com', events: ['wallet.exploded'] }, 'events.0'],
      [{ kind: 'webhook', url: 'https://example.com', colour: 'red' }, 'colour'],
    ];
    for (const [body, field] of cases) {
      const answer = await earshot.rest('POST', '/v1/channels', { key, body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error).toMatchObject({ code: 'validation_error', field });
    }
  });

  it('says what is wrong with a header name, as its schema words it', async () => {
    const answer = await earshot.rest('POST', '/v1/channels', { key, body: { kind: 'webhook', url: 'https://example.com', headers: { 'X Team': 'growth' } } });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'validation_error', field: 'headers.X Team', message: 'headers.X Team: must be an HTTP header name of 1 to 100 characters' });
    const nothing = await earshot.rest('POST', '/v1/channels', { key, body: { kind: 'webhook', url: 'https://example.com', headers: null } });
    expect(nothing.body.error).toMatchObject({ code: 'validation_error', field: 'headers', message: 'headers: expected an object, got null' });
  });

  it('answers the not-yet-connected kinds with their own code', async () => {
    for (const kind of ['slack', 'telegram', 'email']) {
      const answer = await earshot.rest('POST', '/v1/channels', { key, body: { kind, label: kind } });
      expect(answer.status).toBe(501);
      expect(answer.body.error.code).toBe(`${kind}_not_configured`);
    }
  });

  it('refuses private and loopback addresses unless EARSHOT_ALLOW_PRIVATE_URLS=1', async () => {
    const strict = await startTestEarshot();
    try {
      const own = (await strict.createWorkspace()).apiKey;
      for (const url of ['http://127.0.0.1:9/x', 'http://10.1.2.3/x', 'http://[::1]/x', 'http://localhost/x']) {
        const answer = await strict.rest('POST', '/v1/channels', { key: own, body: { kind: 'webhook', url } });
        expect(answer.status, url).toBe(400);
        expect(answer.body.error).toMatchObject({ code: 'validation_error', field: 'url' });
      }
    } finally {
      await strict.stop();
    }
  });

  it('refuses a private address again at send time, whatever the stored URL says', async () => {
    const strict = await startTestEarshot();
    try {
      const { apiKey: own, workspace } = await strict.createWorkspace();
      const port = new URL(receiver.url).port;
      for (const url of [`http://127.0.0.1:${port}/hook`, `http://localhost:${port}/hook`]) {
        const id = `dest_${Math.random().toString(36).slice(2)}`;
        const secret = testSecrets.seal('whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0MTI=', `channels.secret/${id}`);
        const [row] = await strict.sql<{ id: string }[]>`
          insert into channels (id, workspace_id, kind, label, url, secret)
          values (${id}, ${workspace.id}, 'webhook', 'sneaky', ${url}, ${secret})
          returning id`;
        const before = receiver.received.length;
        const tested = await strict.rest('POST', `/v1/channels/${row.id}/test`, { key: own });
        expect(tested.body.outcomes[0]).toEqual({ channelId: row.id, ok: false, error: expect.stringMatching(/^refused: .*private or loopback/) });
        expect(receiver.received.length).toBe(before);
      }
    } finally {
      await strict.stop();
    }
  });

  it('sends the connection and framing headers of the URL and the body, whatever a channel names them', async () => {
    const created = await createWebhook({ headers: { 'Transfer-Encoding': 'chunked', Host: 'elsewhere.example', Connection: 'close', Expect: '100-continue', 'X-Team': 'growth' } });
    expect(created.status).toBe(200);
    const before = receiver.received.length;
    const tested = await earshot.rest('POST', `/v1/channels/${created.body.id}/test`, { key });
    expect(tested.body).toEqual({ outcomes: [{ channelId: created.body.id, ok: true, error: null }] });
    const request = receiver.received[before];
    expect(request.headers.host).toBe(new URL(receiver.url).host);
    expect(request.headers['transfer-encoding']).toBeUndefined();
    expect(request.headers.expect).toBeUndefined();
    expect(request.headers['content-length']).toBe(String(Buffer.byteLength(request.body)));
    expect(request.headers['x-team']).toBe('growth');
    expect(signatureMatches(request, created.body.config.secret)).toBe(true);
  });

  it('logs a stored header that cannot be sent as a failed send, never a server error', async () => {
    const { apiKey: own, workspace } = await earshot.createWorkspace();
    const id = `dest_${Math.random().toString(36).slice(2)}`;
    const secret = testSecrets.seal('whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0MTI=', `channels.secret/${id}`);
    const headers = testSecrets.seal(JSON.stringify({ 'X-Mood': 'ok 😀' }), `channels.headers/${id}`);
    await earshot.sql`insert into channels (id, workspace_id, kind, label, url, secret, headers)
      values (${id}, ${workspace.id}, 'webhook', 'saved before the check', ${receiver.url}, ${secret}, ${headers})`;
    const before = receiver.received.length;
    const tested = await earshot.rest('POST', `/v1/channels/${id}/test`, { key: own });
    expect(tested.status).toBe(200);
    expect(tested.body.outcomes).toEqual([{ channelId: id, ok: false, error: expect.stringMatching(/^nothing was sent: .*X-Mood/) }]);
    expect(receiver.received.length).toBe(before);
    const log = (await earshot.rest('GET', `/v1/channels/${id}/deliveries`, { key: own })).body.data;
    expect(log).toEqual([expect.objectContaining({ kind: 'event', event: 'test', status: 'failed', attempts: 1 })]);
  });

  it('lists the events in the order they were given, on creation, on a PATCH and in the list', async () => {
    const given = ['wallet.paused', 'keyword.paused_for_balance', 'keyword.capped', 'wallet.low'];
    const created = await createWebhook({ events: given });
    expect(created.body.config.events).toEqual(given);
    const patched = await earshot.rest('PATCH', `/v1/channels/${created.body.id}`, { key, body: { events: ['wallet.resumed', 'keyword.resumed', 'wallet.resumed'] } });
    expect(patched.body.config.events).toEqual(['wallet.resumed', 'keyword.resumed']);
    const listed = await earshot.rest('GET', '/v1/channels', { key });
    expect(listed.body.data.find((channel: { id: string }) => channel.id === created.body.id).config.events).toEqual(['wallet.resumed', 'keyword.resumed']);
    const untouched = await earshot.rest('PATCH', `/v1/channels/${created.body.id}`, { key, body: { label: 'Kept order' } });
    expect(untouched.body.config.events).toEqual(['wallet.resumed', 'keyword.resumed']);
  });

  it('patches label, headers and the whole events set without showing the secret', async () => {
    const created = await createWebhook({ events: ['wallet.low'] });
    const patched = await earshot.rest('PATCH', `/v1/channels/${created.body.id}`, { key, body: { label: 'Renamed', events: ['keyword.resumed'], headers: { A: 'b' } } });
    expect(patched.status).toBe(200);
    expect(patched.body.label).toBe('Renamed');
    expect(patched.body.config).toEqual({ url: receiver.url, headers: { A: 'b' }, events: ['keyword.resumed'] });
    const bad = await earshot.rest('PATCH', `/v1/channels/${created.body.id}`, { key, body: { url: 'nope' } });
    expect(bad.body.error).toMatchObject({ code: 'validation_error', field: 'url' });
  });

  it('sends a signed test that the Standard Webhooks verifier accepts, and logs it', async () => {
    const created = await createWebhook({ headers: { 'X-Team': 'growth', 'Content-Type': 'text/evil', 'X-Mentions-Signature': 'forged' } });
    const before = receiver.received.length;
    const tested = await earshot.rest('POST', `/v1/channels/${created.body.id}/test`, { key });
    expect(tested.status).toBe(200);
    expect(tested.body).toEqual({ outcomes: [{ channelId: created.body.id, ok: true, error: null }] });
    const request = receiver.received[before];
    const body = JSON.parse(request.body);
    expect(body).toEqual({
      id: expect.stringMatching(/^dlv_/),
      event: 'test',
      createdAt: expect.stringMatching(timestampPattern),
      alert: null,
      data: { message: expect.any(String) },
    });
    expect(request.headers['x-team']).toBe('growth');
    expect(request.headers['content-type']).toBe('application/json');
    expect(signatureMatches(request, created.body.config.secret)).toBe(true);
    expect(request.headers['webhook-id']).toBe(body.id);
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(request.headers['x-mentions-signature-v2']))!;
    const { createHmac } = await import('node:crypto');
    expect(v1).toBe(createHmac('sha256', created.body.config.secret).update(`${t}.${request.body}`).digest('hex'));
    expect(new Webhook(created.body.config.secret).verify(request.body, request.headers as Record<string, string>)).toEqual(body);

    const log = await earshot.rest('GET', `/v1/channels/${created.body.id}/deliveries`, { key });
    expect(log.status).toBe(200);
    expect(log.body).toEqual({
      data: [
        {
          id: body.id,
          kind: 'event',
          status: 'delivered',
          attempts: 1,
          error: null,
          sentAt: expect.stringMatching(timestampPattern),
          alert: null,
          mention: null,
          event: 'test',
          attemptLog: [{ at: expect.stringMatching(timestampPattern), status: 200, error: null }],
          createdAt: expect.stringMatching(timestampPattern),
        },
      ],
      nextCursor: null,
    });
    const listed = await earshot.rest('GET', '/v1/channels', { key });
    const stats = listed.body.data.find((channel: any) => channel.id === created.body.id).stats;
    expect(stats).toEqual({ alerts: 0, activeAlerts: 0, lastDeliveryAt: log.body.data[0].sentAt, last7d: { total: 1, failed: 0 } });
  });

  // An endpoint may take 10 s (spec 6.1) but every request is answered within 5 s: a test waited, and met the public deadline's 503.
  it('answers a test whose endpoint is slow without waiting past the request deadline, and logs how it went', async () => {
    const created = await createWebhook();
    receiver.answerNext({ status: 200, delayMs: 5000 });
    const started = Date.now();
    const tested = await earshot.rest('POST', `/v1/channels/${created.body.id}/test`, { key });
    expect(Date.now() - started).toBeLessThan(4500);
    expect(tested.status).toBe(200);
    expect(tested.body).toEqual({ outcomes: [{ channelId: created.body.id, ok: false, error: expect.stringMatching(/^no answer within 3\.5 s; the endpoint has 10 s/) }] });
    const log = await eventually(
      async () => (await earshot.rest('GET', `/v1/channels/${created.body.id}/deliveries`, { key })).body.data,
      (entries: any[]) => entries[0]?.status === 'delivered',
      10_000,
    );
    expect(log[0]).toMatchObject({ kind: 'event', event: 'test', status: 'delivered', attempts: 1 });
  });

  it('reports a refused test and rotates the secret so the old one stops verifying at once', async () => {
    const created = await createWebhook();
    receiver.answerNext({ status: 400 });
    const refused = await earshot.rest('POST', `/v1/channels/${created.body.id}/test`, { key });
    expect(refused.body).toEqual({ outcomes: [{ channelId: created.body.id, ok: false, error: 'HTTP 400' }] });
    const rotated = await earshot.rest('POST', `/v1/channels/${created.body.id}/rotate-secret`, { key });
    expect(rotated.status).toBe(200);
    expect(rotated.body.config.secret).toMatch(/^whsec_/);
    expect(rotated.body.config.secret).not.toBe(created.body.config.secret);
    await earshot.rest('POST', `/v1/channels/${created.body.id}/test`, { key });
    const last = receiver.received.at(-1)!;
    expect(signatureMatches(last, rotated.body.config.secret)).toBe(true);
    expect(signatureMatches(last, created.body.config.secret)).toBe(false);
  });

  it('pages the delivery log newest first', async () => {
    const created = await createWebhook();
    for (let i = 0; i < 3; i++) await earshot.rest('POST', `/v1/channels/${created.body.id}/test`, { key });
    const first = await earshot.rest('GET', `/v1/channels/${created.body.id}/deliveries?limit=2`, { key });
    expect(first.body.data).toHaveLength(2);
    const second = await earshot.rest('GET', `/v1/channels/${created.body.id}/deliveries?limit=2&cursor=${first.body.nextCursor}`, { key });
    expect(second.body.data).toHaveLength(1);
    expect(second.body.nextCursor).toBeNull();
    const ids = [...first.body.data, ...second.body.data].map((d: any) => d.id);
    expect(ids).toEqual([...ids].sort().reverse());
    // Cursors of the right shape with a time PostgreSQL cannot read were a 500.
    for (const time of ['2026-02-30T00:00:00.000Z', '-100000-01-01T00:00:00.000Z']) {
      const tampered = Buffer.from(`${time}|${ids[0]}`).toString('base64url');
      const refused = await earshot.rest('GET', `/v1/channels/${created.body.id}/deliveries?cursor=${tampered}`, { key });
      expect([refused.status, refused.body.error?.code]).toEqual([400, 'invalid_cursor']);
    }
  });

  it('narrows the delivery log to one status or kind, paging within it', async () => {
    const created = await createWebhook();
    const log = async (query: string) => earshot.rest('GET', `/v1/channels/${created.body.id}/deliveries?${query}`, { key });
    receiver.answerNext({ status: 200 }, { status: 410 }, { status: 200 }, { status: 200 });
    for (let i = 0; i < 4; i++) await earshot.rest('POST', `/v1/channels/${created.body.id}/test`, { key });

    const failed = await log('status=failed');
    expect(failed.body.data.map((d: any) => ({ status: d.status, error: d.error }))).toEqual([{ status: 'failed', error: 'HTTP 410' }]);
    const first = await log('status=delivered&limit=2');
    const second = await log(`status=delivered&limit=2&cursor=${first.body.nextCursor}`);
    expect([...first.body.data, ...second.body.data].map((d: any) => d.status)).toEqual(['delivered', 'delivered', 'delivered']);
    expect(second.body.nextCursor).toBeNull();
    // A test send is kind event (spec 2.10).
    expect((await log('kind=event')).body.data).toHaveLength(4);
    expect((await log('kind=mention')).body).toEqual({ data: [], nextCursor: null });
    for (const query of ['status=sent', 'kind=test']) {
      const refused = await log(query);
      expect({ status: refused.status, code: refused.body.error.code, field: refused.body.error.field }).toEqual({ status: 400, code: 'validation_error', field: query.split('=')[0] });
    }
  });

  it('deletes a channel (204) and keeps other workspaces out', async () => {
    const created = await createWebhook();
    const other = (await earshot.createWorkspace('Other')).apiKey;
    for (const [method, path] of [
      ['GET', ''], ['PATCH', ''], ['DELETE', ''], ['POST', '/rotate-secret'], ['POST', '/test'], ['GET', '/deliveries'],
    ] as const) {
      const answer = await earshot.rest(method, `/v1/channels/${created.body.id}${path}`, { key: other, ...(method === 'PATCH' ? { body: { label: 'x' } } : {}) });
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body.error.code).toBe('not_found');
    }
    expect((await earshot.rest('GET', '/v1/channels', { key: other })).body.data).toEqual([]);
    const deleted = await earshot.rest('DELETE', `/v1/channels/${created.body.id}`, { key });
    expect(deleted.status).toBe(204);
    expect((await earshot.rest('GET', `/v1/channels/${created.body.id}`, { key })).status).toBe(404);
  });
});
