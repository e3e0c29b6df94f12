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

export const slackRoutes: GraphQLRoute[] = [
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
];
