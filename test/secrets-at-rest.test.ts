import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../runtime/config.ts';
import { connect, type Sql } from '../runtime/database.ts';
import { loadSecretBox, secretBox } from '../runtime/secret-box.ts';
import { type FakeSlack, startFakeSlack } from './fake-upstreams/slack.ts';
import { signatureMatches, startWebhookReceiver, type WebhookReceiver } from './fake-upstreams/webhook-receiver.ts';
import { provisionWorkspace } from '../subgraphs/team/workspace-provisioning.ts';
import { setUserPassword } from '../subgraphs/team/user-password.ts';
import { createTestDatabase, recordingLogger, startTestEarshot, testSecrets, type TestEarshot } from './harness.ts';

const sealedPattern = /^v1\.[A-Za-z0-9_-]+$/;

let slack: FakeSlack;
let receiver: WebhookReceiver;
const started: TestEarshot[] = [];
const pools: Sql[] = [];
const dataDirs: string[] = [];

beforeAll(async () => {
  slack = await startFakeSlack();
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await Promise.all(started.map((earshot) => earshot.stop()));
  await Promise.all(pools.map((pool) => pool.end()));
  await slack?.close();
  await receiver?.close();
  await Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A migrated database of its own, closed after the file. */
async function freshDatabase(): Promise<Sql> {
  const sql = connect(await createTestDatabase());
  pools.push(sql);
  return sql;
}

const slackEnv = () => ({
  EARSHOT_SLACK_CLIENT_ID: slack.clientId,
  EARSHOT_SLACK_CLIENT_SECRET: slack.clientSecret,
  EARSHOT_SLACK_SIGNING_SECRET: 'signing-secret',
  EARSHOT_UPSTREAM_SLACK: slack.url,
  EARSHOT_PUBLIC_URL: 'https://app.example',
  EARSHOT_ALLOW_PRIVATE_URLS: '1',
});

async function earshotOn(databaseUrl?: string, options: Parameters<typeof startTestEarshot>[1] = {}) {
  const earshot = await startTestEarshot({ env: slackEnv() }, { ...options, databaseUrl });
  started.push(earshot);
  return earshot;
}

/** The install as a browser follows it: Earshot's install address, Slack's authorize page, back to the callback. */
async function installSlack(earshot: TestEarshot, key: string) {
  const start = await earshot.rest('GET', '/v1/slack/install', { key });
  const authorize = await fetch(start.body.url, { redirect: 'manual' });
  const callback = new URL(authorize.headers.get('location')!);
  expect((await earshot.rest('GET', callback.pathname + callback.search)).status).toBe(200);
}

async function webhook(earshot: TestEarshot, key: string, headers?: Record<string, string>) {
  const created = await earshot.rest('POST', '/v1/channels', { key, body: { kind: 'webhook', url: `${receiver.url}/hook`, headers } });
  expect(created.status).toBe(200);
  return { id: created.body.id as string, secret: created.body.config.secret as string };
}

const rawSecret = async (sql: Sql, channelId: string) => (await sql`select secret from channels where id = ${channelId}`)[0].secret as string;
const rawHeaders = async (sql: Sql, channelId: string) => (await sql`select headers from channels where id = ${channelId}`)[0].headers as string | null;
const rawBotToken = async (sql: Sql, workspaceId: string) => (await sql`select bot_token from slack_connections where workspace_id = ${workspaceId}`)[0].botToken as string;

/** The test send of a channel, and the request the receiver got from it, if any. */
async function testSend(earshot: TestEarshot, key: string, channelId: string) {
  const before = receiver.received.length;
  const answer = await earshot.rest('POST', `/v1/channels/${channelId}/test`, { key });
  return { answer, request: receiver.received[before] };
}

describe('secrets at rest', () => {
  it('keeps webhook secrets and the Slack bot token sealed in their rows, and still signs and posts with them', async () => {
    const earshot = await earshotOn();
    const { workspace, apiKey: key } = await earshot.createWorkspace('Sealed');
    const channel = await webhook(earshot, key);
    expect(channel.secret).toMatch(/^whsec_/);
    const stored = await rawSecret(earshot.sql, channel.id);
    expect(stored).toMatch(sealedPattern);
    expect(stored).not.toContain(channel.secret.slice('whsec_'.length, 20));
    expect(testSecrets.open(stored, `channels.secret/${channel.id}`)).toBe(channel.secret);

    const sent = await testSend(earshot, key, channel.id);
    expect(sent.answer.body).toEqual({ outcomes: [{ channelId: channel.id, ok: true, error: null }] });
    expect(signatureMatches(sent.request, channel.secret)).toBe(true);

    const rotated = (await earshot.rest('POST', `/v1/channels/${channel.id}/rotate-secret`, { key })).body.config.secret as string;
    const restored = await rawSecret(earshot.sql, channel.id);
    expect(restored).toMatch(sealedPattern);
    expect(restored).not.toBe(stored);
    expect(testSecrets.open(restored, `channels.secret/${channel.id}`)).toBe(rotated);
    const afterRotation = await testSend(earshot, key, channel.id);
    expect(signatureMatches(afterRotation.request, rotated)).toBe(true);
    expect(signatureMatches(afterRotation.request, channel.secret)).toBe(false);

    await installSlack(earshot, key);
    const token = [...slack.botTokens].at(-1)!;
    const storedToken = await rawBotToken(earshot.sql, workspace.id);
    expect(storedToken).toMatch(sealedPattern);
    expect(storedToken).not.toContain(token);
    const slackChannel = await earshot.rest('POST', '/v1/channels', { key, body: { kind: 'slack', channelId: 'C0ALERTS01', channelName: 'alerts' } });
    const posted = slack.messages.length;
    expect((await earshot.rest('POST', `/v1/channels/${slackChannel.body.id}/test`, { key })).body).toEqual({
      outcomes: [{ channelId: slackChannel.body.id, ok: true, error: null }],
    });
    expect(slack.messages.slice(posted)).toEqual([expect.objectContaining({ channel: 'C0ALERTS01' })]);

    const deployment = await earshot.sql`select name, value from deployment_secrets order by name`;
    expect(deployment.map((row) => row.name)).toEqual(expect.arrayContaining(['gateway', 'secrets-key-check']));
    for (const row of deployment) expect(row.value).toMatch(sealedPattern);
  });

  it("keeps a webhook's own headers sealed in its row (a receiver's credentials go there), shows them back and sends them", async () => {
    const earshot = await earshotOn();
    const { apiKey: key } = await earshot.createWorkspace('Headers');
    const credential = 'Bearer receiver-token-5f0c1e9a';
    const channel = await webhook(earshot, key, { Authorization: credential, 'X-Team': 'growth' });
    const stored = await rawHeaders(earshot.sql, channel.id);
    expect(stored).toMatch(sealedPattern);
    expect(stored).not.toContain('receiver-token');
    expect(JSON.parse(testSecrets.open(stored!, `channels.headers/${channel.id}`))).toEqual({ Authorization: credential, 'X-Team': 'growth' });
    expect((await earshot.rest('GET', `/v1/channels/${channel.id}`, { key })).body.config.headers).toEqual({ Authorization: credential, 'X-Team': 'growth' });
    const sent = await testSend(earshot, key, channel.id);
    expect(sent.request.headers).toMatchObject({ authorization: credential, 'x-team': 'growth' });

    const patched = await earshot.rest('PATCH', `/v1/channels/${channel.id}`, { key, body: { headers: { 'X-Api-Key': 'k-77aa' } } });
    expect(patched.body.config.headers).toEqual({ 'X-Api-Key': 'k-77aa' });
    const repatched = await rawHeaders(earshot.sql, channel.id);
    expect(repatched).toMatch(sealedPattern);
    expect(repatched).not.toContain('k-77aa');
    expect((await testSend(earshot, key, channel.id)).request.headers).toMatchObject({ 'x-api-key': 'k-77aa' });

    const cleared = await earshot.rest('PATCH', `/v1/channels/${channel.id}`, { key, body: { headers: {} } });
    expect(cleared.body.config.headers).toEqual({});
    expect(await rawHeaders(earshot.sql, channel.id)).toBeNull();
    const bare = await webhook(earshot, key);
    expect(await rawHeaders(earshot.sql, bare.id)).toBeNull();
    expect((await earshot.rest('GET', `/v1/channels/${bare.id}`, { key })).body.config.headers).toEqual({});
  });

  it('refuses to send with a secret copied from another channel: nothing is posted, and the log says why', async () => {
    const earshot = await earshotOn();
    const { apiKey: key } = await earshot.createWorkspace('Copier');
    const source = await webhook(earshot, key);
    const target = await webhook(earshot, key);
    await earshot.sql`update channels set secret = (select secret from channels where id = ${source.id}) where id = ${target.id}`;
    const sent = await testSend(earshot, key, target.id);
    expect(sent.request).toBeUndefined();
    expect(sent.answer.body).toEqual({
      outcomes: [
        {
          channelId: target.id,
          ok: false,
          error:
            `nothing was sent: channels.secret/${target.id} does not open with the secrets key of this process (EARSHOT_SECRETS_KEY): ` +
            'it was sealed with another key, or belongs to another row. Every process of a deployment needs the same EARSHOT_SECRETS_KEY (or the same key file).',
        },
      ],
    });
    const log = (await earshot.rest('GET', `/v1/channels/${target.id}/deliveries`, { key })).body.data;
    expect(log[0]).toMatchObject({ status: 'failed', attempts: 1, error: sent.answer.body.outcomes[0].error });
  });

  it('refuses to start with another key than the one the database was sealed with, naming the variable', async () => {
    const databaseUrl = await createTestDatabase();
    const first = await earshotOn(databaseUrl);
    const { apiKey: key } = await first.createWorkspace('Keyed');
    await webhook(first, key);
    await expect(startTestEarshot({ env: slackEnv(), secretsKey: randomBytes(32) }, { databaseUrl })).rejects.toThrow(
      'deployment_secrets.value/secrets-key-check does not open with the secrets key of this process (EARSHOT_SECRETS_KEY): ' +
        'it was sealed with another key, or belongs to another row. Every process of a deployment needs the same EARSHOT_SECRETS_KEY (or the same key file).',
    );
    const second = await earshotOn(databaseUrl);
    expect((await second.rest('GET', '/v1/channels', { key })).status).toBe(200);
  });

  it('seals on start-up the secrets stored in clear before migrations 045 and 048, once, and signs and posts with them as before', async () => {
    const databaseUrl = await createTestDatabase();
    const sql = connect(databaseUrl, { max: 1 });
    pools.push(sql);
    const legacy = await earshotOn(databaseUrl);
    const { workspace, apiKey: key } = await legacy.createWorkspace('Legacy');
    const channel = await webhook(legacy, key, { Authorization: 'Bearer legacy-9d1' });
    await installSlack(legacy, key);
    const token = [...slack.botTokens].at(-1)!;
    const gateway = testSecrets.open((await sql`select value from deployment_secrets where name = 'gateway'`)[0].value, 'deployment_secrets.value/gateway');
    await legacy.stop();
    started.splice(started.indexOf(legacy), 1);
    // The database as migration 045 finds it: values in clear, the constraints added not valid.
    await sql.unsafe(`
      alter table channels drop constraint channels_secret_sealed;
      alter table channels drop constraint channels_headers_sealed;
      alter table slack_connections drop constraint slack_connections_bot_token_sealed;
      alter table deployment_secrets drop constraint deployment_secrets_value_sealed`);
    await sql`update channels set secret = ${channel.secret}, headers = ${JSON.stringify({ Authorization: 'Bearer legacy-9d1' })} where id = ${channel.id}`;
    await sql`update slack_connections set bot_token = ${token} where workspace_id = ${workspace.id}`;
    await sql`update deployment_secrets set value = ${gateway} where name = 'gateway'`;
    await sql`delete from deployment_secrets where name = 'secrets-key-check'`;
    await sql.unsafe(`
      alter table channels add constraint channels_secret_sealed check (secret ~ '^v[0-9]+\\.') not valid;
      alter table channels add constraint channels_headers_sealed check (headers ~ '^v[0-9]+\\.') not valid;
      alter table slack_connections add constraint slack_connections_bot_token_sealed check (bot_token ~ '^v[0-9]+\\.') not valid;
      alter table deployment_secrets add constraint deployment_secrets_value_sealed check (value ~ '^v[0-9]+\\.') not valid`);
    await expect(sql`update channels set label = 'changed in clear' where id = ${channel.id}`).rejects.toThrow(/channels_(secret|headers)_sealed/);

    const { log, lines } = recordingLogger();
    const upgraded = await earshotOn(databaseUrl, { log });
    expect(lines.filter((line) => line.message.startsWith('sealed the secrets'))).toEqual([expect.objectContaining({ sealed: 4 })]);
    const sealed = await rawSecret(sql, channel.id);
    expect(sealed).toMatch(sealedPattern);
    expect(testSecrets.open(sealed, `channels.secret/${channel.id}`)).toBe(channel.secret);
    expect(testSecrets.open(await rawBotToken(sql, workspace.id), `slack_connections.bot_token/${workspace.id}`)).toBe(token);
    expect(JSON.parse(testSecrets.open((await rawHeaders(sql, channel.id))!, `channels.headers/${channel.id}`))).toEqual({ Authorization: 'Bearer legacy-9d1' });
    const constraints = await sql`select conname, convalidated from pg_constraint where conname like '%_sealed' order by conname`;
    expect(constraints.map((row) => [row.conname, row.convalidated])).toEqual([
      ['channels_headers_sealed', true],
      ['channels_secret_sealed', true],
      ['deployment_secrets_value_sealed', true],
      ['slack_connections_bot_token_sealed', true],
    ]);
    const sent = await testSend(upgraded, key, channel.id);
    expect(signatureMatches(sent.request, channel.secret)).toBe(true);
    expect(sent.request.headers.authorization).toBe('Bearer legacy-9d1');
    const slackChannel = await upgraded.rest('POST', '/v1/channels', { key, body: { kind: 'slack', channelId: 'C0ALERTS01', channelName: 'alerts' } });
    expect((await upgraded.rest('POST', `/v1/channels/${slackChannel.body.id}/test`, { key })).body.outcomes[0]).toMatchObject({ ok: true });

    const again = recordingLogger();
    await earshotOn(databaseUrl, { log: again.log });
    expect(again.lines.filter((line) => line.message.startsWith('sealed the secrets'))).toEqual([]);
    expect(await rawSecret(sql, channel.id)).toBe(sealed);
  });
});

describe('the log', () => {
  // Every credential of a workspace made, used, failed with and rotated, with the logger at its most talkative.
  it('holds no API key, session token, webhook secret or Slack bot token, however they are used', async () => {
    const { log, lines } = recordingLogger();
    const earshot = await earshotOn(undefined, { log });
    const { apiKey: key } = await provisionWorkspace(earshot.sql, 'Logged', { ownerEmail: 'owner@example.com' });
    await setUserPassword(earshot.sql, 'owner@example.com', 'correct horse battery');
    const signIn = await earshot.rest('POST', '/v1/auth/password', { body: { email: 'owner@example.com', password: 'correct horse battery' } });
    const cookies = Object.fromEntries(signIn.headers.getSetCookie().map((cookie) => cookie.split(';')[0].split('=') as [string, string]));
    expect(cookies.earshot_session).toBeTruthy();
    const cookie = `earshot_session=${cookies.earshot_session}; earshot_csrf=${cookies.earshot_csrf}`;
    expect((await earshot.rest('GET', '/v1/whoami', { headers: { cookie } })).status).toBe(200);
    expect((await earshot.rest('GET', '/v1/whoami', { headers: { cookie: `earshot_session=${cookies.earshot_session}x` } })).status).toBe(401);

    const channel = await webhook(earshot, key);
    receiver.answerNext({ status: 500 });
    expect((await testSend(earshot, key, channel.id)).answer.body.outcomes[0]).toMatchObject({ ok: false, error: 'HTTP 500' });
    const rotated = (await earshot.rest('POST', `/v1/channels/${channel.id}/rotate-secret`, { key })).body.config.secret as string;
    expect((await testSend(earshot, key, channel.id)).answer.body.outcomes[0]).toMatchObject({ ok: true });

    await installSlack(earshot, key);
    const botToken = [...slack.botTokens].at(-1)!;
    const slackChannel = (await earshot.rest('POST', '/v1/channels', { key, body: { kind: 'slack', channelId: 'C0ALERTS01', channelName: 'alerts' } })).body.id;
    slack.failPostsWith('not_in_channel');
    expect((await earshot.rest('POST', `/v1/channels/${slackChannel}/test`, { key })).body.outcomes[0]).toMatchObject({ ok: false });
    expect((await earshot.rest('POST', `/v1/channels/${slackChannel}/test`, { key })).body.outcomes[0]).toMatchObject({ ok: true });
    expect((await earshot.rest('GET', '/v1/whoami', { key: `${key}x` })).status).toBe(401);
    expect((await earshot.rest('POST', '/v1/channels', { key, body: { kind: 'webhook', url: `${botToken} ${rotated}` } })).status).toBe(400);

    const secrets = [key, cookies.earshot_session, channel.secret, rotated, botToken, slack.clientSecret];
    const written = lines.map((line) => JSON.stringify(line));
    expect(written.length).toBeGreaterThan(0);
    expect(secrets.flatMap((secret) => written.filter((line) => line.includes(secret)).map((line) => `${secret.slice(0, 12)}… in ${line.slice(0, 300)}`))).toEqual([]);
  });
});

describe('the secrets key', () => {
  it('is taken from EARSHOT_SECRETS_KEY only as base64 of 32 bytes, refused otherwise without echoing it', () => {
    const key = randomBytes(32);
    expect(readConfig({ EARSHOT_SECRETS_KEY: key.toString('base64') }).secretsKey).toEqual(key);
    expect(readConfig({}).secretsKey).toBeUndefined();
    for (const bad of [randomBytes(16).toString('base64'), 'not-a-key', `${key.toString('base64')}AA`, key.toString('hex')]) {
      expect(() => readConfig({ EARSHOT_SECRETS_KEY: bad })).toThrow(
        new Error('EARSHOT_SECRETS_KEY must be base64 of 32 random bytes (e.g. the output of `openssl rand -base64 32`); it is not'),
      );
    }
  });

  it('is otherwise created once in the data directory, readable by its owner only, and the same on every later load', async () => {
    const sql = await freshDatabase();
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'earshot-key-'));
    dataDirs.push(dataDir);
    const [first, second] = await Promise.all([loadSecretBox({ secretsKey: undefined, dataDir }, sql), loadSecretBox({ secretsKey: undefined, dataDir }, sql)]);
    const file = path.join(dataDir, 'secrets.key');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(Buffer.from((await readFile(file, 'utf8')).trim(), 'base64')).toHaveLength(32);
    const sealed = first.seal('whsec_abc', 'channels.secret/dest_1');
    expect(second.open(sealed, 'channels.secret/dest_1')).toBe('whsec_abc');
    expect((await loadSecretBox({ secretsKey: undefined, dataDir }, sql)).open(sealed, 'channels.secret/dest_1')).toBe('whsec_abc');
    expect(() => second.open(sealed, 'channels.secret/dest_2')).toThrow(/does not open/);

    await writeFile(file, 'garbage\n');
    await expect(loadSecretBox({ secretsKey: undefined, dataDir }, sql)).rejects.toThrow(
      `The secrets key file ${file} must be base64 of 32 random bytes (e.g. the output of \`openssl rand -base64 32\`); it is not`,
    );
  });

  it('is the file the first process named in the database for every process that can read it, whatever its own data directory', async () => {
    const sql = await freshDatabase();
    const [firstDir, roleDir] = [await mkdtemp(path.join(os.tmpdir(), 'earshot-key-')), await mkdtemp(path.join(os.tmpdir(), 'earshot-key-'))];
    dataDirs.push(firstDir, roleDir);
    const first = await loadSecretBox({ secretsKey: undefined, dataDir: firstDir }, sql);
    const sealed = first.seal('xoxb-shared', 'slack_connections.bot_token/org_1');
    // A --role process on DATABASE_URL, with the default data directory or another one, opens what the first sealed.
    expect((await loadSecretBox({ secretsKey: undefined, dataDir: roleDir }, sql)).open(sealed, 'slack_connections.bot_token/org_1')).toBe('xoxb-shared');
    expect(await stat(path.join(roleDir, 'secrets.key')).catch(() => 'none')).toBe('none');
    expect(await sql`select path from secrets_key_file`).toEqual([{ path: path.join(firstDir, 'secrets.key') }]);

    // One that cannot read the named file (another machine) makes its own, which the key check then refuses.
    await rm(firstDir, { recursive: true, force: true });
    const elsewhere = await loadSecretBox({ secretsKey: undefined, dataDir: roleDir }, sql);
    expect(() => elsewhere.open(sealed, 'slack_connections.bot_token/org_1')).toThrow(`the key file ${path.join(roleDir, 'secrets.key')}`);
  });

  it('seals each value with its own nonce, and a value altered by one bit no longer opens', () => {
    const box = secretBox(randomBytes(32), 'a test key');
    const [one, two] = [box.seal('xoxb-token', 'owner'), box.seal('xoxb-token', 'owner')];
    expect(one).not.toBe(two);
    const bytes = Buffer.from(one.slice(3), 'base64url');
    bytes[20] ^= 1;
    expect(() => box.open(`v1.${bytes.toString('base64url')}`, 'owner')).toThrow(/does not open/);
    expect(() => box.open('whsec_in_clear', 'owner')).toThrow('owner is not sealed');
    expect(() => box.open(one.replace(/^v1/, 'v2'), 'owner')).toThrow('owner is sealed with key v2, which this process does not have');
  });
});
