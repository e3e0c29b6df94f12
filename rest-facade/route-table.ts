import { buildOpenApiDocument } from './openapi.ts';
import type { Route } from './route.ts';
import { webhookEvents } from './webhook-events.ts';
import { alertRoutes } from './routes/alerts.ts';
import { billingRoutes } from './routes/billing.ts';
import { channelRoutes } from './routes/channels.ts';
import { credentialRoutes } from './routes/credentials.ts';
import { groupRoutes } from './routes/groups.ts';
import { invitationRoutes } from './routes/invitations.ts';
import { keywordInsightRoutes } from './routes/keyword-insights.ts';
import { keywordRoutes } from './routes/keywords.ts';
import { memberRoutes } from './routes/members.ts';
import { mentionRoutes } from './routes/mentions.ts';
import { notificationSettingsRoutes } from './routes/notification-settings.ts';
import { serviceRoutes } from './routes/service.ts';
import { sessionRoutes } from './routes/sessions.ts';
import { slackRoutes } from './routes/slack.ts';
import { workspaceSettingsRoutes } from './routes/workspace-settings.ts';

let openApiDocument: ReturnType<typeof buildOpenApiDocument> | undefined;

/** Every `/v1` route; the OpenAPI document is generated from this list and nothing else, once. */
export const routeTable: Route[] = [
  ...serviceRoutes(() => (openApiDocument ??= buildOpenApiDocument(routeTable, webhookEvents))),
  ...credentialRoutes,
  ...invitationRoutes,
  ...memberRoutes,
  ...notificationSettingsRoutes,
  ...sessionRoutes,
  ...keywordRoutes,
  ...keywordInsightRoutes,
  ...groupRoutes,
  ...workspaceSettingsRoutes,
  ...mentionRoutes,
  ...billingRoutes,
  ...slackRoutes,
  ...channelRoutes,
  ...alertRoutes,
];
