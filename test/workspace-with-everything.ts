import type { EarshotConfig } from '../runtime/config.ts';
import type { Logger } from '../runtime/logger.ts';
import { storeComment } from '../subgraphs/mentions/comment-store.ts';
import { addMember } from '../subgraphs/team/member-store.ts';
import { insertSession } from '../subgraphs/team/session-store.ts';
import { setUserPassword } from '../subgraphs/team/user-password.ts';
import { findOrCreateUser } from '../subgraphs/team/user-store.ts';
import { provisionWorkspace } from '../subgraphs/team/workspace-provisioning.ts';
import { type FakeSlack, startFakeSlack } from './fake-upstreams/slack.ts';
import { type FakeSmtp, startFakeSmtp } from './fake-upstreams/smtp.ts';
import { type FakeStripe, startFakeStripe, stripeEnv } from './fake-upstreams/stripe.ts';
import { type FakeTelegram, startFakeTelegram } from './fake-upstreams/telegram.ts';
import { patiently, startTestEarshotOnPort, type TestEarshot } from './harness.ts';
import { type IdCatalogue, idsIn } from './id-catalogue.ts';
import { authorizedTokens } from './oauth-flow.ts';
import { redditPost, storeAndScore } from './scored-mentions.ts';

/**
 * Earshot with every integration configured against local fakes (Stripe,
 * Slack, Telegram, SMTP), so that no route answers 501 for a missing
 * setting, and workspaces holding one of every kind of record. The fuzz runs
 * and the isolation audit start from here.
 */
export interface ConfiguredEarshot {
  earshot: TestEarshot;
  stripe: FakeStripe;
  slack: FakeSlack;
  telegram: FakeTelegram;
  smtp: FakeSmtp;
  /** Every secret the configuration holds, for tests that look for secrets where none should be. */
  configuredSecrets: string[];
  stop(): Promise<void>;
}

export const stripeWebhookSecret = 'whsec_configured_earshot_webhook_secret';
export const slackSigningSecret = 'configured-earshot-slack-signing-secret';

export async function startConfiguredEarshot(overrides: Partial<EarshotConfig> = {}, options: { log?: Logger } = {}): Promise<ConfiguredEarshot> {
  const [stripe, slack, telegram, smtp] = await Promise.all([startFakeStripe(), startFakeSlack(), startFakeTelegram(), startFakeSmtp()]);
  const envFor = (port: number) => ({
    ...stripeEnv(stripe, stripeWebhookSecret),
    EARSHOT_SLACK_CLIENT_ID: slack.clientId,
    EARSHOT_SLACK_CLIENT_SECRET: slack.clientSecret,
    EARSHOT_SLACK_SIGNING_SECRET: slackSigningSecret,
    EARSHOT_UPSTREAM_SLACK: slack.url,
    EARSHOT_TELEGRAM_BOT_TOKEN: telegram.botToken,
    EARSHOT_UPSTREAM_TELEGRAM: telegram.url,
    EARSHOT_SMTP_URL: smtp.url,
    // OAuth clients check that the issuer is the server they talk to.
    EARSHOT_PUBLIC_URL: `http://127.0.0.1:${port}`,
    EARSHOT_WEBHOOK_TIMEOUT_MS: '1000',
    // Platforms on a closed port: a look-back fails at once instead of leaving the machine.
    ...Object.fromEntries(
      ['HACKERNEWS', 'REDDIT', 'REDDIT_AUTH', 'BLUESKY', 'GITHUB', 'STACKOVERFLOW', 'DEVTO', 'YOUTUBE', 'X', 'NEWS', 'LINKEDIN', 'TIKTOK', 'INSTAGRAM', 'APPSTORE', 'GOOGLEPLAY', 'TRUSTPILOT', 'GOOGLEMAPS'].map(
        (platform) => [`EARSHOT_UPSTREAM_${platform}`, 'http://127.0.0.1:9'],
      ),
    ),
    ...overrides.env,
  });
  const { earshot } = await startTestEarshotOnPort((port) => ({ pollIntervalSeconds: 3600, ...overrides, env: envFor(port) }), { log: options.log });
  return {
    earshot,
    stripe,
    slack,
    telegram,
    smtp,
    configuredSecrets: [stripe.secretKey, stripeWebhookSecret, slack.clientSecret, slackSigningSecret, telegram.botToken, smtp.pass],
    async stop() {
      await earshot.stop();
      await Promise.all([stripe.close(), slack.close(), telegram.close(), smtp.close()]);
    },
  };
}

/** A workspace with one record of every kind, the credentials of each kind, and a marker string in its names. */
export interface SeededWorkspace {
  workspaceId: string;
  /** In names, terms and notes of its records: a response to anyone else must never hold it. */
  marker: string;
  apiKey: string;
  readKey: string;
  owner: { id: string; email: string; password: string };
  memberId: string;
  /** The owner's dashboard session: `Cookie` and the CSRF token changes repeat. */
  session: { cookie: string; csrfToken: string };
  /** An OAuth access token of a connected app (write). */
  oauthToken: string;
  keywordIds: string[];
  mentionIds: string[];
  /** Every public id its seeding was answered with, whatever its kind (some, like a top-up's, no list shows). */
  seededIds: string[];
  /** Secrets this workspace holds that must never be shown again or stored as they are. */
  secrets: string[];
}


export async function seedEveryObject(configured: ConfiguredEarshot, label: string): Promise<SeededWorkspace> {
  const { earshot } = configured;
  const marker = `zq${label.toLowerCase().replace(/[^a-z0-9]/g, '')}mark`;
  const password = `pw-${marker}-correct-horse`;
  const provisioned = await provisionWorkspace(earshot.sql, `Workspace ${marker}`, { ownerEmail: `owner.${marker}@example.com` });
  const workspaceId = provisioned.workspace.id;
  const key = provisioned.apiKey;
  await setUserPassword(earshot.sql, provisioned.owner!.email, password);
  const member = await findOrCreateUser(earshot.sql, { email: `member.${marker}@example.com`, name: `Member ${marker}` });
  await addMember(earshot.sql, { workspaceId, userId: member.id, role: 'member' });
  const rest = (method: string, path: string, body?: unknown) => patiently(() => earshot.rest(method, path, { key, body }));
  const seeded: IdCatalogue = { ids: [], integerIds: [] };
  const ok = (what: string, answer: { status: number; body: any }) => {
    if (answer.status >= 300) throw new Error(`seeding ${what} failed: ${answer.status} ${JSON.stringify(answer.body)}`);
    idsIn(answer.body, seeded, false);
    return answer.body;
  };

  // A session as signing in makes one (the sign-in itself, a deliberately slow password hash, is tested on its own).
  const session = await insertSession(earshot.sql, { userId: provisioned.owner!.id, workspaceId });
  const cookie = `earshot_session=${session.token}; earshot_csrf=${session.csrfToken}`;
  const csrfToken = session.csrfToken;
  const oauth = await authorizedTokens(earshot.url, { cookie, workspaceId });
  const signedIn = (method: string, path: string, body?: unknown) =>
    patiently(() => earshot.rest(method, path, { body, headers: { cookie, ...(method === 'GET' ? {} : { 'x-csrf-token': csrfToken }) } }));

  const readKey = ok('a read key', await rest('POST', '/v1/api-keys', { name: `Read ${marker}`, scope: 'read' })).key;
  const group = ok('a group', await rest('POST', '/v1/groups', { name: `Group ${marker}`, externalId: `ext-${marker}`, description: `About ${marker}` }));
  const keyword = ok('a keyword', await rest('POST', '/v1/keywords', { term: marker, groupId: group.id, context: `Context ${marker}` }));
  const second = ok('a second keyword', await rest('POST', '/v1/keywords', { term: `${marker} cloud`, kind: 'competitor' }));
  ok('filters', await rest('PATCH', '/v1/filters', { excludedTerms: [`noise${marker}`] }));
  ok('the company profile', await rest('PATCH', '/v1/company-profile', { name: `Company ${marker}`, website: `https://${marker}.example` }));

  const mentionIds = await storeAndScore(earshot, workspaceId, [
    { post: redditPost(`Has anyone tried ${marker}? Looking to buy a tool like it.`, `author${marker}`), keywordIds: [keyword.id, second.id] },
    { post: redditPost(`${marker} broke my build again, terrible.`, `critic${marker}`), keywordIds: [keyword.id] },
  ]);
  await storeComment(earshot.sql, mentionIds[0], { ...redditPost(`A reply about ${marker} with enough words`), replyTo: mentionIds[0] }, false);
  ok('a triage', await rest('PATCH', `/v1/mentions/${mentionIds[0]}`, { status: 'done', relevant: true }));

  const webhook = ok('a webhook channel', await rest('POST', '/v1/channels', { kind: 'webhook', url: 'https://93.184.215.14/hooks/earshot', label: `Hook ${marker}`, headers: { 'x-team': marker }, events: ['wallet.low'] }));
  const install = ok('a Slack install', await rest('GET', '/v1/slack/install'));
  const authorize = await fetch(install.url, { redirect: 'manual' });
  const callback = new URL(authorize.headers.get('location')!);
  ok('the Slack callback', await patiently(() => earshot.rest('GET', callback.pathname + callback.search)));
  ok('Slack notifications', await rest('PUT', '/v1/slack/notifications', { channelId: 'C0ALERTS01', channelName: 'alerts', minRelevance: 50, sources: ['reddit'] }));
  const slackChannel = ok('a Slack channel', await rest('POST', '/v1/channels', { kind: 'slack', label: `Slack ${marker}`, channelId: 'C0ALERTS01', channelName: 'alerts' }));
  configured.telegram.chats.add('-1001234567890');
  const telegramChannel = ok('a Telegram channel', await rest('POST', '/v1/channels', { kind: 'telegram', label: `Telegram ${marker}`, chatId: '-1001234567890' }));
  const emailChannel = ok('an e-mail channel', await rest('POST', '/v1/channels', { kind: 'email', label: `Mail ${marker}`, address: `alerts.${marker}@example.com` }));
  ok('a saved view', await rest('POST', '/v1/views', { name: `View ${marker}`, filter: { keywordIds: [keyword.id], q: marker }, sort: 'priority' }));
  const rule = ok('an alert rule', await rest('POST', '/v1/alerts', { name: `Rule ${marker}`, channelIds: [webhook.id, slackChannel.id, telegramChannel.id], filter: { keywordIds: [keyword.id] } }));
  // Half a day away, so that it does not run while a test compares what is stored.
  const digestHour = (new Date().getUTCHours() + 12) % 24;
  ok('a digest rule', await rest('POST', '/v1/alerts', { name: `Digest ${marker}`, mode: 'daily', schedule: { hour: digestHour }, channelIds: [emailChannel.id] }));
  ok('a test send', await rest('POST', `/v1/channels/${telegramChannel.id}/test`));
  ok('a rule test send', await rest('POST', `/v1/alerts/${rule.id}/test`));
  ok('an invitation', await signedIn('POST', '/v1/members/invitations', { email: `invitee.${marker}@example.com`, role: 'member' }));
  ok('a top-up', await rest('POST', '/v1/billing/top-ups', { amountCents: 2500 }));
  ok('a segment', await rest('POST', '/v1/segments', { name: `Segment ${marker}`, filter: { stages: ['contacted'], linkHosts: [`${marker}.example`] } }));
  ok('auto-recharge settings', await rest('PUT', '/v1/billing/auto-recharge', { enabled: true, thresholdCents: 500, amountCents: 2000 }));

  // The compatibility API's integer ids are handed out when first shown.
  ok('compatibility keywords', await rest('GET', '/compat/octolens/api/v2/keywords'));
  ok('compatibility views', await rest('GET', '/compat/octolens/api/v2/views'));
  ok('compatibility mentions', await rest('POST', '/compat/octolens/api/v2/mentions', { includeAll: true }));
  ok('compatibility feedback', await rest('POST', '/compat/octolens/api/v2/feedback', { sourceId: mentionIds[1], feedbackType: 'NOT_RELEVANT', feedbackReason: `Noise ${marker}` }));

  return {
    workspaceId,
    marker,
    apiKey: key,
    readKey,
    owner: { id: provisioned.owner!.id, email: provisioned.owner!.email, password },
    memberId: member.id,
    session: { cookie, csrfToken },
    oauthToken: oauth.access_token,
    keywordIds: [keyword.id, second.id],
    mentionIds,
    seededIds: seeded.ids,
    secrets: [key, readKey, password, oauth.access_token, oauth.refresh_token, webhook.config.secret, session.token],
  };
}
