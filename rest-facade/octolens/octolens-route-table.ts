import type { GraphQLRoute } from '../route.ts';
import { featureDisabledRoutes } from './octolens-routes.ts';
import { octolensAnalyticsRoutes } from './routes/analytics.ts';
import { octolensCompanyRoutes } from './routes/company.ts';
import { octolensFilterRoutes } from './routes/filters.ts';
import { octolensKeywordRoutes } from './routes/keywords.ts';
import { octolensMentionRoutes } from './routes/mentions.ts';
import { octolensOrganizationRoutes } from './routes/organization.ts';
import { octolensViewRoutes } from './routes/views.ts';

/**
 * Every route of the Octolens-compatible API (spec 1.9, 4.8), on the
 * facade's machinery. Routes of features Earshot does not offer answer 501;
 * they come first where their paths would otherwise match an id route.
 */
export const octolensRouteTable: GraphQLRoute[] = [
  ...featureDisabledRoutes('author timelines', [
    {
      method: 'GET',
      path: '/mentions/by-author',
      operationId: 'octolensMentionsByAuthor',
      query: ['source', 'handle', 'profileUrl', 'limit', 'cursor', 'includeEngagementMetrics'],
    },
  ]),
  ...octolensMentionRoutes,
  ...octolensKeywordRoutes,
  ...octolensFilterRoutes,
  ...octolensOrganizationRoutes,
  ...octolensViewRoutes,
  ...featureDisabledRoutes('feeds', [
    { method: 'GET', path: '/feeds', operationId: 'octolensListFeeds', query: ['excludeWithNotifications'] },
    { method: 'POST', path: '/feeds', operationId: 'octolensCreateFeed' },
    { method: 'GET', path: '/feeds/{id}', operationId: 'octolensGetFeed' },
    { method: 'PATCH', path: '/feeds/{id}', operationId: 'octolensUpdateFeed' },
    { method: 'DELETE', path: '/feeds/{id}', operationId: 'octolensDeleteFeed' },
  ]),
  ...octolensAnalyticsRoutes,
  ...octolensCompanyRoutes,
  ...featureDisabledRoutes('feedback statistics', [{ method: 'GET', path: '/feedback/stats', operationId: 'octolensFeedbackStats' }]),
  ...featureDisabledRoutes('notifications', [
    { method: 'GET', path: '/notifications', operationId: 'octolensListNotifications' },
    { method: 'POST', path: '/notifications', operationId: 'octolensCreateNotification' },
    { method: 'GET', path: '/notifications/{id}', operationId: 'octolensGetNotification' },
    { method: 'PATCH', path: '/notifications/{id}', operationId: 'octolensUpdateNotification' },
    { method: 'DELETE', path: '/notifications/{id}', operationId: 'octolensDeleteNotification' },
    { method: 'POST', path: '/notifications/{id}/test', operationId: 'octolensTestNotification' },
  ]),
  ...featureDisabledRoutes('on-demand searches', [
    { method: 'POST', path: '/search', operationId: 'octolensRunSearch' },
    { method: 'GET', path: '/search', operationId: 'octolensListSearches', query: ['limit', 'cursor'] },
    { method: 'GET', path: '/search/{searchId}', operationId: 'octolensGetSearch' },
  ]),
  ...featureDisabledRoutes('attention signals', [
    { method: 'GET', path: '/attention', operationId: 'octolensListAttention' },
    { method: 'POST', path: '/attention/{id}/dismiss', operationId: 'octolensDismissAttention' },
  ]),
  ...featureDisabledRoutes('AI filter wizards', [{ method: 'POST', path: '/ai/filter-wizard', operationId: 'octolensFilterWizard' }]),
  ...featureDisabledRoutes('Slack integration reads', [
    { method: 'GET', path: '/integrations/slack', operationId: 'octolensSlackStatus' },
    { method: 'GET', path: '/integrations/slack/channels', operationId: 'octolensSlackChannels', query: ['q', 'cursor', 'pages'] },
  ]),
  ...featureDisabledRoutes('upgrade links', [{ method: 'POST', path: '/org/upgrade-link', operationId: 'octolensUpgradeLink' }]),
];
