import { buildOpenApiDocument } from './openapi.ts';
import type { Route } from './route.ts';
import { webhookEvents } from './webhook-events.ts';
import { alertRoutes } from './routes/alerts.ts';
import { analyticsRoutes } from './routes/analytics.ts';
import { billingRoutes } from './routes/billing.ts';
import { channelRoutes } from './routes/channels.ts';
import { credentialRoutes } from './routes/credentials.ts';
import { groupRoutes } from './routes/groups.ts';
import { keywordInsightRoutes } from './routes/keyword-insights.ts';
import { keywordRoutes } from './routes/keywords.ts';
import { memberRoutes } from './routes/members.ts';
import { mentionRoutes } from './routes/mentions.ts';
import { peopleRoutes } from './routes/people.ts';
import { segmentRoutes } from './routes/segments.ts';
import { serviceRoutes } from './routes/service.ts';
import { sessionRoutes } from './routes/sessions.ts';
import { slackRoutes } from './routes/slack.ts';
import { workspaceSettingsRoutes } from './routes/workspace-settings.ts';

let openApiDocument: ReturnType<typeof buildOpenApiDocument> | undefined;

/** Every `/v1` route; the OpenAPI document is generated from this list and nothing else, once. */
export const routeTable: Route[] = [
  ...serviceRoutes(() => (openApiDocument ??= buildOpenApiDocument(routeTable, webhookEvents))),
  ...credentialRoutes,
  ...memberRoutes,
  ...sessionRoutes,
  ...keywordRoutes,
  ...keywordInsightRoutes,
  ...groupRoutes,
  ...workspaceSettingsRoutes,
  ...mentionRoutes,
  ...peopleRoutes,
  ...segmentRoutes,
  ...analyticsRoutes,
  ...billingRoutes,
  ...slackRoutes,
  ...channelRoutes,
  ...alertRoutes,
];
