import { z } from 'zod';
import { slackNotificationsInput } from '../../subgraphs/team/index.ts';
import type { GraphQLRoute } from '../route.ts';
import { readOnlyKeyResponse, unauthorizedResponse } from '../route-responses.ts';

const slackStatusSchema = z
  .object({
    configured: z.boolean().meta({ description: 'Whether this install has a Slack app configured' }),
    connected: z.boolean().meta({ description: 'Whether the workspace has installed the Slack app' }),
    teamName: z.string().meta({ description: 'The Slack workspace the app is installed in' }),
    notifications: z.object({
      channelId: z.string().meta({ example: 'C0123ABCDEF' }),
      channelName: z.string().meta({ example: 'brand-alerts' }),
      minRelevance: z.number().int().min(0).max(100).nullable(),
      sources: z.array(z.string()).meta({ description: 'Platforms notified about; empty for all' }),
    }),
  })
  .meta({ id: 'SlackStatus' });

const slackInstallResultSchema = z
  .object({ connected: z.literal(true), teamName: z.string().meta({ description: 'The Slack workspace the app was installed in' }) })
  .meta({ id: 'SlackInstallResult' });

const slackChannelListSchema = z
  .object({
    channels: z.array(
      z.object({
        id: z.string().meta({ example: 'C0123ABCDEF', description: 'What `channelId` of `PUT /v1/slack/notifications` takes' }),
        name: z.string().meta({ example: 'brand-alerts', description: 'Without `#`' }),
        isPrivate: z.boolean().meta({ description: 'A private channel; Slack lists only those the app was invited to' }),
        isMember: z.boolean().meta({ description: 'Whether the app is in the channel' }),
      }),
    ),
  })
  .meta({ id: 'SlackChannelList' });

export const slackRoutes: GraphQLRoute[] = [
  {
    method: 'GET',
    path: '/v1/slack/install',
    operationId: 'startSlackInstall',
    summary: "Where to send a person who connects this workspace to Slack: Slack's authorize page, valid for ten minutes",
    tag: 'Channels',
    responses: {
      200: { description: 'The install address', schema: z.object({ url: z.string() }).meta({ id: 'SlackInstallStart' }) },
      401: unauthorizedResponse,
      501: { description: 'No Slack app is configured on this install (`slack_not_configured`)' },
    },
    operation: `query SlackInstall { slackInstall { url } }`,
    variables: () => ({}),
    result: (data) => ({ status: 200, body: data.slackInstall }),
  },
  {
    method: 'GET',
    path: '/v1/slack/oauth/callback',
    operationId: 'completeSlackInstall',
    browserPage: '/slack/connected',
    summary:
      "Slack's OAuth redirect after an install (list `EARSHOT_PUBLIC_URL/v1/slack/oauth/callback` among the app's redirect URLs). Needs no API key: the signed `state` names the workspace",
    tag: 'Channels',
    public: true,
    query: z.object({
      state: z.string().min(1).max(200),
      code: z.string().min(1).max(500).optional(),
      error: z.string().max(200).optional().meta({ description: 'Set by Slack instead of `code` when the person declined' }),
    }),
    responses: {
      200: { description: 'The workspace is connected', schema: slackInstallResultSchema },
      400: { description: 'A forged or expired `state`, a declined install or a code Slack refuses (`validation_error`, with `field`)' },
      501: { description: 'No Slack app is configured on this install (`slack_not_configured`)' },
      502: { description: 'Slack did not answer (`upstream_unavailable`)' },
    },
    operation: `mutation CompleteSlackInstall($state: String!, $code: String, $error: String) {
      completeSlackInstall(state: $state, code: $code, error: $error) { connected teamName }
    }`,
    variables: ({ query }) => ({ state: query.state, code: query.code ?? null, error: query.error ?? null }),
    result: (data) => ({ status: 200, body: data.completeSlackInstall }),
  },
  {
    method: 'GET',
    path: '/v1/slack/channels',
    operationId: 'listSlackChannels',
    summary:
      "The connected Slack workspace's channels to send notifications to: public ones and the private ones the app was invited to, archived ones left out, sorted by name, at most 1,000 (Slack's `conversations.list`, asked on each call). A `read` key may list",
    tag: 'Channels',
    responses: {
      200: { description: 'The channels', schema: slackChannelListSchema },
      401: unauthorizedResponse,
      409: { description: 'The workspace has not installed the Slack app (`slack_not_connected`)' },
      501: { description: 'No Slack app is configured on this install (`slack_not_configured`)' },
      502: { description: 'Slack refused the listing or did not answer (`upstream_unavailable`); the channel can still be typed' },
    },
    operation: `query SlackChannels { slackChannels { channels { id name isPrivate isMember } } }`,
    variables: () => ({}),
    result: (data) => ({ status: 200, body: data.slackChannels }),
  },
  {
    method: 'PUT',
    path: '/v1/slack/notifications',
    operationId: 'updateSlackNotifications',
    summary: 'Sets the Slack channel notifications go to, the lowest relevance they carry and the platforms they cover',
    tag: 'Channels',
    body: slackNotificationsInput,
    responses: {
      200: { description: 'The Slack connection with the new settings', schema: slackStatusSchema },
      400: { description: 'A field is unknown, of the wrong type or breaks its rule (`validation_error`, with `field`); checked first' },
      401: unauthorizedResponse,
      403: readOnlyKeyResponse,
      409: { description: 'The workspace has not installed the Slack app (`slack_not_connected`)' },
      501: { description: 'No Slack app is configured on this install (`slack_not_configured`)' },
    },
    operation: `mutation UpdateSlackNotifications($input: SlackNotificationsInput!) {
      updateSlackNotifications(input: $input) { configured connected teamName notifications { channelId channelName minRelevance sources } }
    }`,
    variables: ({ body }) => ({ input: body }),
    result: (data) => ({ status: 200, body: data.updateSlackNotifications }),
  },
  {
    method: 'POST',
    path: '/v1/slack/interactions',
    operationId: 'receiveSlackInteraction',
    summary:
      "The Slack app's Interactivity request URL: a click on an alert's Interacted button marks every match of the post done and notes who clicked. Needs no API key: `X-Slack-Signature` is checked over the raw form-encoded body with EARSHOT_SLACK_SIGNING_SECRET",
    tag: 'Channels',
    public: true,
    rawBody: z.object({ payload: z.string().meta({ description: 'The interaction, JSON' }) }),
    responses: {
      200: {
        description: 'Received; clicks on other buttons are acknowledged and change nothing',
        schema: z.object({ mentionsDone: z.array(z.string()) }).meta({ id: 'SlackInteractionReceipt' }),
      },
      400: { description: 'The signature does not match the body or is older than five minutes (`invalid_signature`)' },
      501: { description: 'No Slack app is configured on this install (`slack_not_configured`)' },
    },
    operation: `mutation ReceiveSlackInteraction($body: String!, $timestamp: String, $signature: String) {
      receiveSlackInteraction(body: $body, timestamp: $timestamp, signature: $signature) { mentionsDone }
    }`,
    variables: ({ rawBody, headers }) => ({
      body: rawBody ?? '',
      timestamp: headers.get('x-slack-request-timestamp'),
      signature: headers.get('x-slack-signature'),
    }),
    result: (data) => ({ status: 200, body: data.receiveSlackInteraction }),
  },
];
