import { z } from 'zod';
import { notificationSettingsInput } from '../../subgraphs/team/index.ts';
import type { GraphQLRoute } from '../route.ts';
import { invalidBodyResponse, unauthorizedResponse } from '../route-responses.ts';

const settingsFields = 'email ownerEmails';

const settingsSchema = z
  .object({
    email: z.string().meta({ description: 'Where the e-mails go' }),
    ownerEmails: z.boolean().meta({
      description: 'Owner e-mails: a low wallet, tracking paused, a keyword at its cap, for every workspace the person owns. On unless turned off',
    }),
  })
  .meta({ id: 'NotificationSettings' });

const notAPerson = { description: 'An API key, which stands for no one (`forbidden`), or a cookie change without its `X-CSRF-Token` (`forbidden`)' };

const unsubscribeToken = z.object({ token: z.string().min(1).max(300).meta({ description: 'The `token` of the unsubscribe link' }) });
const unsubscribeResponses = {
  200: { description: 'Owner e-mails are off for the person the link was mailed to; `PATCH /v1/me/notifications` turns them on again', schema: settingsSchema },
  400: { description: '`token` is missing (`validation_error`)' },
  401: { description: 'The link is not one Earshot signed (`invalid_token`)' },
};
const unsubscribeOperation = `mutation UnsubscribeOwnerEmails($token: String!) { unsubscribeOwnerEmails(token: $token) { ${settingsFields} } }`;

export const notificationSettingsRoutes: GraphQLRoute[] = [
  {
    method: 'GET',
    path: '/v1/me/notifications',
    operationId: 'getNotificationSettings',
    credentials: 'person',
    summary: "The signed-in person's e-mail settings (a session or OAuth sign-in; the same in every workspace)",
    tag: 'Members',
    responses: { 200: { description: 'The settings', schema: settingsSchema }, 401: unauthorizedResponse, 403: notAPerson },
    operation: `query NotificationSettings { myNotificationSettings { ${settingsFields} } }`,
    variables: () => ({}),
    result: (data) => ({ status: 200, body: data.myNotificationSettings }),
  },
  {
    method: 'PATCH',
    path: '/v1/me/notifications',
    operationId: 'updateNotificationSettings',
    credentials: 'person',
    summary: "Changes the signed-in person's e-mail settings: `ownerEmails` false stops owner e-mails, true starts them again",
    tag: 'Members',
    body: notificationSettingsInput,
    responses: { 200: { description: 'The settings after the change', schema: settingsSchema }, 400: invalidBodyResponse, 401: unauthorizedResponse, 403: notAPerson },
    operation: `mutation UpdateNotificationSettings($input: NotificationSettingsInput!) { updateMyNotificationSettings(input: $input) { ${settingsFields} } }`,
    variables: ({ body }) => ({ input: body }),
    result: (data) => ({ status: 200, body: data.updateMyNotificationSettings }),
  },
  {
    method: 'GET',
    path: '/v1/me/notifications/unsubscribe',
    operationId: 'unsubscribeOwnerEmailsByLink',
    summary: "The unsubscribe link of an owner e-mail, opened by its reader: turns owner e-mails off. Needs no key (the link is signed); it keeps working however old the mail is",
    tag: 'Members',
    public: true,
    query: unsubscribeToken,
    responses: unsubscribeResponses,
    operation: unsubscribeOperation,
    variables: ({ query }) => ({ token: query.token }),
    result: (data) => ({ status: 200, body: data.unsubscribeOwnerEmails }),
  },
  {
    method: 'POST',
    path: '/v1/me/notifications/unsubscribe',
    operationId: 'unsubscribeOwnerEmails',
    summary:
      "One-click unsubscribe (RFC 8058): the address of an owner e-mail's `List-Unsubscribe` header, which mail programs POST `List-Unsubscribe=One-Click` to. Turns owner e-mails off; needs no key (the link is signed)",
    tag: 'Members',
    public: true,
    query: unsubscribeToken,
    rawBody: z.object({ 'List-Unsubscribe': z.literal('One-Click').optional() }),
    responses: unsubscribeResponses,
    operation: unsubscribeOperation,
    variables: ({ query }) => ({ token: query.token }),
    result: (data) => ({ status: 200, body: data.unsubscribeOwnerEmails }),
  },
];
