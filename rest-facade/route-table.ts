import { v1Errors } from './error-envelope.ts';
import { buildOpenApiDocument } from './openapi.ts';
import { octolensErrors } from './octolens/octolens-errors.ts';
import { octolensRouteTable } from './octolens/octolens-route-table.ts';
import { octolensBudgetHeaders, octolensOpenApiRoute } from './octolens/octolens-routes.ts';
import { type ErrorDialect, type Route, type RouteTable, tableServes } from './route.ts';
import { webhookEvents } from './webhook-events.ts';
import { alertRoutes } from './routes/alerts.ts';
import { analyticsRoutes } from './routes/analytics.ts';
import { billingRoutes } from './routes/billing.ts';
import { channelRoutes } from './routes/channels.ts';
import { connectedAppRoutes } from './routes/connected-apps.ts';
import { credentialRoutes } from './routes/credentials.ts';
import { groupRoutes } from './routes/groups.ts';
import { invitationRoutes } from './routes/invitations.ts';
import { keywordInsightRoutes } from './routes/keyword-insights.ts';
import { keywordRoutes } from './routes/keywords.ts';
import { memberRoutes } from './routes/members.ts';
import { mentionRoutes } from './routes/mentions.ts';
import { notificationSettingsRoutes } from './routes/notification-settings.ts';
import { peopleRoutes } from './routes/people.ts';
import { segmentRoutes } from './routes/segments.ts';
import { serviceRoutes } from './routes/service.ts';
import { sessionRoutes } from './routes/sessions.ts';
import { slackRoutes } from './routes/slack.ts';
import { telegramRoutes } from './routes/telegram.ts';
import { viewRoutes } from './routes/views.ts';
import { workspaceSettingsRoutes } from './routes/workspace-settings.ts';

let openApiDocument: ReturnType<typeof buildOpenApiDocument> | undefined;
let octolensOpenApiDocument: ReturnType<typeof buildOpenApiDocument> | undefined;

/** Every `/v1` route. */
export const routeTable: Route[] = [
  ...serviceRoutes(() => (openApiDocument ??= buildOpenApiDocument(routeTables, webhookEvents))),
  ...credentialRoutes,
  ...connectedAppRoutes,
  ...invitationRoutes,
  ...memberRoutes,
  ...notificationSettingsRoutes,
  ...sessionRoutes,
  ...keywordRoutes,
  ...keywordInsightRoutes,
  ...groupRoutes,
  ...workspaceSettingsRoutes,
  ...mentionRoutes,
  ...peopleRoutes,
  ...segmentRoutes,
  ...analyticsRoutes,
  ...viewRoutes,
  ...billingRoutes,
  ...slackRoutes,
  ...telegramRoutes,
  ...channelRoutes,
  ...alertRoutes,
];

const octolensTable: RouteTable = {
  prefix: '/compat/octolens/',
  routes: [...octolensRouteTable, octolensOpenApiRoute(() => (octolensOpenApiDocument ??= buildOpenApiDocument([octolensTable])))],
  errors: octolensErrors,
  budgetHeaders: octolensBudgetHeaders,
  apiKeyOnly: true,
};

/** The tables the facade serves; the OpenAPI documents are generated from them and nothing else, once. */
export const routeTables: RouteTable[] = [{ prefix: '/v1/', routes: routeTable, errors: v1Errors }, octolensTable];

/** The envelope a refusal at `pathname` is written in, the facade's own answers aside (a request past its deadline). */
export const errorsForPath = (pathname: string): ErrorDialect => (routeTables.find((table) => tableServes(table, pathname)) ?? routeTables[0]).errors;
