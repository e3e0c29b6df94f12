import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEarshot, type TestEarshot } from './harness.ts';
import { startWebhookReceiver, type WebhookReceiver } from './fake-upstreams/webhook-receiver.ts';

let earshot: TestEarshot;
let key: string;
let receiver: WebhookReceiver;

beforeAll(async () => {
  earshot = await startTestEarshot({ env: { EARSHOT_ALLOW_PRIVATE_URLS: '1' } });
  key = (await earshot.createWorkspace('Acme')).apiKey;
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await earshot?.stop();
});

describe('channels, rules and deliveries over GraphQL', () => {
  it('creates a channel and a rule, test-sends through it, and reads the log in one supergraph', async () => {
    const channel = await earshot.graphql(
      `mutation($input: CreateChannelInput!) { createChannel(input: $input) { id kind label config { url secret events } } }`,
      { input: { kind: 'webhook', url: receiver.url, label: 'Ops', events: ['wallet.paused'] } },
      key,
    );
    expect(channel.body.errors).toBeUndefined();
    const channelId = channel.body.data.createChannel.id;
    expect(channel.body.data.createChannel).toMatchObject({ kind: 'webhook', label: 'Ops', config: { url: receiver.url, events: ['wallet.paused'], secret: expect.stringMatching(/^whsec_/) } });

    const rule = await earshot.graphql(
      `mutation($input: CreateAlertRuleInput!) { createAlertRule(input: $input) { id mode event channelIds filter { sentiments } } }`,
      { input: { name: 'Negative', event: 'mention.negative', channelIds: [channelId] } },
      key,
    );
    expect(rule.body.data.createAlertRule).toMatchObject({ mode: 'instant', event: 'mention.negative', channelIds: [channelId], filter: { sentiments: ['negative'] } });
    const ruleId = rule.body.data.createAlertRule.id;

    const tested = await earshot.graphql(`mutation($id: ID!) { testAlertRule(id: $id) { outcomes { channelId ok error } } }`, { id: ruleId }, key);
    expect(tested.body.data.testAlertRule).toEqual({ outcomes: [{ channelId, ok: true, error: null }] });

    const read = await earshot.graphql(
      `query($id: ID!) { channels { id config { secret } stats { alerts activeAlerts last7d { total } } } alertRules { id } channelDeliveries(id: $id) { nodes { kind status alert { id name } } } }`,
      { id: channelId },
      key,
    );
    expect(read.body.data).toEqual({
      channels: [{ id: channelId, config: { secret: null }, stats: { alerts: 1, activeAlerts: 1, last7d: { total: 1 } } }],
      alertRules: [{ id: ruleId }],
      channelDeliveries: { nodes: [{ kind: 'event', status: 'delivered', alert: { id: ruleId, name: 'Negative' } }] },
    });
  });

  it('answers the same error codes in extensions.code', async () => {
    const codeOf = async (query: string, variables: Record<string, unknown>) => (await earshot.graphql(query, variables, key)).body.errors?.[0]?.extensions?.code;
    const createRule = `mutation($input: CreateAlertRuleInput!) { createAlertRule(input: $input) { id } }`;
    expect(await codeOf(createRule, { input: { name: 'X', channelIds: ['dest_nothing'] } })).toBe('unknown_channel');
    expect(await codeOf(createRule, { input: { name: 'X', mode: 'weekly', schedule: { hour: 1 } } })).toBe('schedule_required');
    expect(await codeOf(createRule, { input: { name: 'X', mode: 'sometimes' } })).toBe('validation_error');
    const instant = await earshot.graphql(createRule, { input: { name: 'Now' } }, key);
    expect(await codeOf(`mutation($id: ID!) { runAlertRule(id: $id) { alertId } }`, { id: instant.body.data.createAlertRule.id })).toBe('not_a_digest');
    expect(await codeOf(`mutation($input: CreateChannelInput!) { createChannel(input: $input) { id } }`, { input: { kind: 'slack' } })).toBe('slack_not_configured');
    expect(await codeOf(`mutation($id: ID!) { rotateChannelSecret(id: $id) { id } }`, { id: 'dest_nothing' })).toBe('not_found');
  });
});
