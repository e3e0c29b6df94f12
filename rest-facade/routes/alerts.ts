import { z } from 'zod';
import { createAlertRuleInput, updateAlertRuleInput } from '../../subgraphs/mentions/index.ts';
import type { GraphQLRoute } from '../route.ts';
import { invalidBodyResponse, notFoundResponse, readOnlyKeyResponse, unauthorizedResponse } from '../route-responses.ts';
import { testOutcomesSchema } from './channels.ts';

const timestamp = z.iso.datetime();

const alertRuleFields = `id name mode event channelIds enabled lastRunAt createdAt schedule { hour weekday }
  filter { sentiments intents minRelevance languages automated linkHosts keywordIds platforms mutedAuthors }`;

const alertRuleSchema = z
  .object({
    id: z.string().meta({ example: 'feed_01jd8x3m5c2v7q9r4t6w8y0z1a' }),
    name: z.string(),
    mode: z.enum(['instant', 'hourly', 'daily', 'weekly']).meta({ description: 'An hourly digest runs at the start of every hour (UTC) and cannot go to an e-mail channel' }),
    event: z.string(),
    filter: z.object({
      sentiments: z.array(z.string()).optional(),
      intents: z.array(z.string()).optional(),
      minRelevance: z.number().int().optional(),
      languages: z.array(z.string()).optional(),
      automated: z.boolean().optional(),
      linkHosts: z.array(z.string()).optional(),
      keywordIds: z.array(z.string()).optional(),
      platforms: z.array(z.string()).optional(),
      mutedAuthors: z.array(z.string()).optional(),
    }).meta({ description: 'Only the keys that filter; relevant open mentions only, always' }),
    channelIds: z.array(z.string()),
    schedule: z.object({ hour: z.number().int(), weekday: z.string().optional() }).nullable().meta({ description: 'Daily and weekly digests: the UTC hour, and the weekday of a weekly rule; null for instant and hourly rules' }),
    enabled: z.boolean(),
    lastRunAt: timestamp.nullable(),
    createdAt: timestamp,
  })
  .meta({ id: 'AlertRule' });

/** The rule as REST shows it: a filter or schedule key that does not apply is left out rather than null. */
const alertRuleBody = (rule: any) => ({
  ...rule,
  filter: Object.fromEntries(Object.entries(rule.filter).filter(([, value]) => value !== null)),
  schedule: rule.schedule && (rule.schedule.weekday === null ? { hour: rule.schedule.hour } : rule.schedule),
});

const ruleNotFound = notFoundResponse('alert rule');
const writeResponses = {
  400: {
    description:
      `${invalidBodyResponse.description}; a daily or weekly digest without its schedule (\`schedule_required\`); ` +
      'an hourly rule with an e-mail channel, made so by its mode or its channels (`hourly_email_unsupported`, `field` `channelIds`): e-mail takes daily and weekly digests only',
  },
  401: unauthorizedResponse,
  403: readOnlyKeyResponse,
};

export const alertRoutes: GraphQLRoute[] = [
  {
    method: 'POST',
    path: '/v1/alerts',
    operationId: 'createAlertRule',
    summary:
      'Creates an alert rule. A preset `event` (spec 6.2) brings its mode and filter; `event` defaults to `mention.matched` (instant) or `digest` (hourly, daily, weekly)',
    tag: 'Alerts',
    body: createAlertRuleInput,
    responses: {
      200: { description: 'The rule', schema: alertRuleSchema },
      ...writeResponses,
      404: { description: 'A channel id this workspace does not have (`unknown_channel`), or a `filter.keywordIds` entry naming no keyword of it (`not_found`, with `field`)' },
    },
    operation: `mutation CreateAlertRule($input: CreateAlertRuleInput!) { createAlertRule(input: $input) { ${alertRuleFields} } }`,
    variables: ({ body }) => ({ input: body }),
    result: (data) => ({ status: 200, body: alertRuleBody(data.createAlertRule) }),
  },
  {
    method: 'GET',
    path: '/v1/alerts',
    operationId: 'listAlertRules',
    summary: "The workspace's alert rules, oldest first",
    tag: 'Alerts',
    responses: { 200: { description: 'The rules', schema: z.object({ data: z.array(alertRuleSchema) }).meta({ id: 'AlertRuleList' }) }, 401: unauthorizedResponse },
    operation: `query ListAlertRules { alertRules { ${alertRuleFields} } }`,
    variables: () => ({}),
    result: (data) => ({ status: 200, body: { data: data.alertRules.map(alertRuleBody) } }),
  },
  {
    method: 'GET',
    path: '/v1/alerts/{id}',
    operationId: 'getAlertRule',
    summary: 'One alert rule',
    tag: 'Alerts',
    responses: { 200: { description: 'The rule', schema: alertRuleSchema }, 401: unauthorizedResponse, 404: ruleNotFound },
    operation: `query GetAlertRule($id: ID!) { alertRule(id: $id) { ${alertRuleFields} } }`,
    variables: ({ params }) => ({ id: params.id }),
    result: (data) => ({ status: 200, body: alertRuleBody(data.alertRule) }),
  },
  {
    method: 'PATCH',
    path: '/v1/alerts/{id}',
    operationId: 'updateAlertRule',
    summary: 'Changes a rule; omitted fields stay, `filter` and `channelIds` are replaced whole',
    tag: 'Alerts',
    body: updateAlertRuleInput,
    responses: {
      200: { description: 'The rule after the change', schema: alertRuleSchema },
      ...writeResponses,
      404: {
        description: 'No such rule (`not_found`), a channel id this workspace does not have (`unknown_channel`), or a `filter.keywordIds` entry naming no keyword of it (`not_found`, with `field`)',
      },
    },
    operation: `mutation UpdateAlertRule($id: ID!, $input: UpdateAlertRuleInput!) { updateAlertRule(id: $id, input: $input) { ${alertRuleFields} } }`,
    variables: ({ params, body }) => ({ id: params.id, input: body }),
    result: (data) => ({ status: 200, body: alertRuleBody(data.updateAlertRule) }),
  },
  {
    method: 'DELETE',
    path: '/v1/alerts/{id}',
    operationId: 'deleteAlertRule',
    summary: 'Deletes a rule; its delivery log entries stay with their channels',
    tag: 'Alerts',
    responses: { 204: { description: 'Deleted' }, 401: unauthorizedResponse, 403: readOnlyKeyResponse, 404: ruleNotFound },
    operation: `mutation DeleteAlertRule($id: ID!) { deleteAlertRule(id: $id) }`,
    variables: ({ params }) => ({ id: params.id }),
    result: () => ({ status: 204 }),
  },
  {
    method: 'POST',
    path: '/v1/alerts/{id}/test',
    operationId: 'testAlertRule',
    summary: 'Sends event `test` through every channel of the rule now, with `alert` filled in, and says how each went',
    tag: 'Alerts',
    responses: {
      200: { description: 'One outcome per channel, as a channel test gives it (an endpoint waited for 3.5 s at most)', schema: testOutcomesSchema },
      401: unauthorizedResponse,
      403: readOnlyKeyResponse,
      404: ruleNotFound,
    },
    operation: `mutation TestAlertRule($id: ID!) { testAlertRule(id: $id) { outcomes { channelId ok error } } }`,
    variables: ({ params }) => ({ id: params.id }),
    result: (data) => ({ status: 200, body: data.testAlertRule }),
  },
  {
    method: 'POST',
    path: '/v1/alerts/{id}/run',
    operationId: 'runAlertRule',
    summary:
      'Runs an hourly, daily or weekly rule now: one digest (event `digest`) per channel of what was scored since its last run (a first run: the hour, day or week before it), sent even when that is nothing (a digest of zero mentions); the next run starts here',
    tag: 'Alerts',
    responses: {
      200: {
        description: 'The period covered and the deliveries queued',
        schema: z
          .object({ alertId: z.string(), from: timestamp, to: timestamp, mentions: z.number().int(), deliveryIds: z.array(z.string()) })
          .meta({ id: 'DigestRun' }),
      },
      401: unauthorizedResponse,
      403: readOnlyKeyResponse,
      404: ruleNotFound,
      409: { description: 'An instant rule, which has no digest to run (`not_a_digest`)' },
    },
    operation: `mutation RunAlertRule($id: ID!) { runAlertRule(id: $id) { alertId from to mentions deliveryIds } }`,
    variables: ({ params }) => ({ id: params.id }),
    result: (data) => ({ status: 200, body: data.runAlertRule }),
  },
];
