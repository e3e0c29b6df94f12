import { z } from 'zod';
import { channelKinds, createChannelInput, deliveryLogFilter, updateChannelInput } from '../../subgraphs/team/index.ts';
import type { GraphQLRoute } from '../route.ts';
import { invalidBodyResponse, notFoundResponse, readOnlyKeyResponse, unauthorizedResponse } from '../route-responses.ts';
import { pageLimit } from '../query-parameters.ts';

const timestamp = z.iso.datetime();

const channelFields = 'id kind label config { url headers secret events chatId channelId channelName address confirmed } stats { alerts activeAlerts lastDeliveryAt last7d { total failed } } createdAt';

const channelConfig = {
  url: z.string().nullable(),
  headers: z.record(z.string(), z.string()),
  events: z.array(z.string()).meta({ description: 'Account event names this channel receives; empty when none' }),
  chatId: z.string().optional().meta({ description: 'Telegram: the chat the bot posts to' }),
  channelId: z.string().optional().meta({ description: 'Slack: the id of the channel posted to' }),
  channelName: z.string().optional().meta({ description: 'Slack: that channel’s name' }),
  address: z.string().optional().meta({ description: 'E-mail: the address' }),
  confirmed: z.boolean().optional().meta({ description: 'E-mail: whether the address was confirmed with the link mailed to it; nothing else is sent before' }),
};
const channelBase = {
  id: z.string().meta({ example: 'dest_01jd8x3m5c2v7q9r4t6w8y0z1a' }),
  kind: z.enum(channelKinds),
  label: z.string(),
  stats: z.object({
    alerts: z.number().int(),
    activeAlerts: z.number().int(),
    lastDeliveryAt: timestamp.nullable(),
    last7d: z.object({ total: z.number().int(), failed: z.number().int() }),
  }),
  createdAt: timestamp,
};

export const channelSchema = z.object({ ...channelBase, config: z.object(channelConfig) }).meta({ id: 'Channel' });
const channelWithSecretSchema = z
  .object({
    ...channelBase,
    config: z.object({
      ...channelConfig,
      secret: z.string().nullable().meta({ description: 'A webhook’s, shown only here: `whsec_` and the base64 of 32 random bytes; null for other kinds', example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }),
    }),
  })
  .meta({ id: 'ChannelWithSecret' });

/** A channel as the API shows it: the secret only where it is shown once. */
const channelBody = (channel: any, withSecret: boolean) => {
  const { secret, ...config } = channel.config;
  // A field of another kind's target is left out rather than shown as null.
  const own = Object.fromEntries(Object.entries(config).filter(([field, value]) => !(kindFields.includes(field) && value === null)));
  return { ...channel, config: withSecret ? { ...own, secret } : own };
};
const kindFields = ['chatId', 'channelId', 'channelName', 'address', 'confirmed'];

export const testOutcomesSchema = z
  .object({ outcomes: z.array(z.object({ channelId: z.string(), ok: z.boolean(), error: z.string().nullable() })) })
  .meta({ id: 'TestOutcomes' });

const deliverySchema = z
  .object({
    id: z.string().meta({ example: 'dlv_01jd8x3m5c2v7q9r4t6w8y0z1a', description: 'The envelope `id`; every attempt resends it' }),
    kind: z.enum(['mention', 'digest', 'event']).meta({ description: 'A test send is `event`, its `event` being `test`' }),
    status: z.enum(['pending', 'delivered', 'failed']),
    attempts: z.number().int(),
    error: z.string().nullable().meta({ description: 'The last attempt’s error' }),
    sentAt: timestamp.nullable(),
    alert: z.object({ id: z.string().nullable(), name: z.string() }).nullable(),
    mention: z.object({ id: z.string(), platform: z.string(), url: z.string(), text: z.string() }).nullable().meta({ description: 'A short summary of the mention delivered' }),
    event: z.string().nullable().meta({ description: 'For `kind: event`: the account event’s name, or `test`' }),
    attemptLog: z
      .array(z.object({ at: timestamp, status: z.number().int().nullable(), error: z.string().nullable() }))
      .meta({ description: 'Every attempt, oldest first: the HTTP status answered (null for a time-out or network error)' }),
    createdAt: timestamp,
  })
  .meta({ id: 'Delivery' });

const idNotFound = notFoundResponse('channel');

export const channelRoutes: GraphQLRoute[] = [
  {
    method: 'GET',
    path: '/v1/channels/email/confirm',
    operationId: 'confirmEmailChannel',
    browserPage: '/confirm-email',
    summary: 'The link of the confirmation e-mail: confirms the e-mail channel, which receives alerts from then on. Needs no API key (the token is the credential); a token works once',
    tag: 'Channels',
    public: true,
    query: z.object({ token: z.string().min(1).max(200) }),
    responses: {
      200: {
        description: 'The channel is confirmed',
        schema: z.object({ confirmed: z.literal(true), channelId: z.string(), address: z.string() }).meta({ id: 'EmailConfirmation' }),
      },
      400: invalidBodyResponse,
      401: { description: '`invalid_token`: the link is unknown or was already used' },
    },
    operation: `mutation ConfirmEmailChannel($token: String!) { confirmEmailChannel(token: $token) { confirmed channelId address } }`,
    variables: ({ query }) => ({ token: query.token }),
    result: (data) => ({ status: 200, body: data.confirmEmailChannel }),
  },
  ...(['GET', 'POST'] as const).map(
    (method): GraphQLRoute => ({
      method,
      path: '/v1/channels/email/unsubscribe',
      operationId: method === 'GET' ? 'unsubscribeEmailChannelByLink' : 'unsubscribeEmailChannel',
      summary:
        method === 'GET'
          ? "The unsubscribe link of an e-mail channel's mails (alerts, digests, account events), opened by its reader: nothing more is sent to the address. Needs no key (the link is signed); it keeps working however old the mail is"
          : "One-click unsubscribe (RFC 8058): the address of a channel e-mail's `List-Unsubscribe` header, which mail programs POST `List-Unsubscribe=One-Click` to, with no other credential. Nothing more is sent to the address",
      tag: 'Channels',
      public: true,
      query: z.object({ token: z.string().min(1).max(300).meta({ description: 'The `token` of the unsubscribe link' }) }),
      ...(method === 'POST' ? { rawBody: z.object({ 'List-Unsubscribe': z.literal('One-Click').optional() }) } : {}),
      responses: {
        200: {
          description: 'The channel sends nothing more to its address (its `config.confirmed` is false); a new e-mail channel asks for a confirmation again',
          schema: z.object({ unsubscribed: z.literal(true), channelId: z.string(), address: z.string() }).meta({ id: 'EmailUnsubscription' }),
        },
        400: { description: '`token` is missing (`validation_error`)' },
        401: { description: 'The link is not one Earshot signed, or its channel is gone (`invalid_token`)' },
      },
      operation: `mutation UnsubscribeEmailChannel($token: String!) { unsubscribeEmailChannel(token: $token) { unsubscribed channelId address } }`,
      variables: ({ query }) => ({ token: query.token }),
      result: (data) => ({ status: 200, body: data.unsubscribeEmailChannel }),
    }),
  ),
  {
    method: 'POST',
    path: '/v1/channels',
    operationId: 'createChannel',
    summary: 'Creates a channel: a webhook (`url`; it gets a signing secret, shown in this response only) a Slack channel (`channelId`), a Telegram chat (`chatId`) or an e-mail address (`address`; a confirmation link is mailed to it, and nothing else until it is opened)',
    tag: 'Channels',
    body: createChannelInput,
    responses: {
      200: { description: 'The channel, with `config.secret`', schema: channelWithSecretSchema },
      400: { description: `${invalidBodyResponse.description}; a URL leading to a private or loopback address is refused; a Telegram chat the bot cannot reach (Telegram's \`getChat\` finds no such chat, or the bot was removed or blocked) is refused on \`chatId\`` },
      401: unauthorizedResponse,
      403: readOnlyKeyResponse,
      409: { description: '`slack_not_connected`: a Slack channel for a workspace that has not installed the Slack app' },
      501: { description: 'A kind this server is not connected to (`slack_not_configured`, `telegram_not_configured`, `email_not_configured`)' },
      502: {
        description:
          "An `email` channel's confirmation could not be sent (the mail server could not be reached or refused for now), or Telegram could not say whether the bot reaches a `telegram` channel's chat (`upstream_unavailable`); nothing was stored",
      },
    },
    operation: `mutation CreateChannel($input: CreateChannelInput!) { createChannel(input: $input) { ${channelFields} } }`,
    variables: ({ body }) => ({ input: body }),
    result: (data) => ({ status: 200, body: channelBody(data.createChannel, true) }),
  },
  {
    method: 'GET',
    path: '/v1/channels',
    operationId: 'listChannels',
    summary: "The workspace's channels, oldest first, with their stats (never their secrets)",
    tag: 'Channels',
    responses: {
      200: { description: 'The channels', schema: z.object({ data: z.array(channelSchema) }).meta({ id: 'ChannelList' }) },
      401: unauthorizedResponse,
    },
    operation: `query ListChannels { channels { ${channelFields} } }`,
    variables: () => ({}),
    result: (data) => ({ status: 200, body: { data: data.channels.map((channel: any) => channelBody(channel, false)) } }),
  },
  {
    method: 'GET',
    path: '/v1/channels/{id}',
    operationId: 'getChannel',
    summary: 'One channel with its stats',
    tag: 'Channels',
    responses: { 200: { description: 'The channel', schema: channelSchema }, 401: unauthorizedResponse, 404: idNotFound },
    operation: `query GetChannel($id: ID!) { channel(id: $id) { ${channelFields} } }`,
    variables: ({ params }) => ({ id: params.id }),
    result: (data) => ({ status: 200, body: channelBody(data.channel, false) }),
  },
  {
    method: 'PATCH',
    path: '/v1/channels/{id}',
    operationId: 'updateChannel',
    summary:
      'Changes a channel: `label`; a webhook’s `url`, `headers` and `events` (the whole set); a Telegram channel’s `chatId`; a Slack channel’s `channelId` and `channelName` (the id’s name by default). The secret is not shown again',
    tag: 'Channels',
    body: updateChannelInput,
    responses: {
      200: { description: 'The channel after the change', schema: channelSchema },
      400: { description: `${invalidBodyResponse.description}; a field another kind of channel takes is refused (\`field\` names it); so is a Telegram \`chatId\` the bot cannot reach` },
      401: unauthorizedResponse,
      403: readOnlyKeyResponse,
      404: idNotFound,
      501: { description: 'A Telegram `chatId` on a server without a Telegram bot (`telegram_not_configured`)' },
      502: { description: 'Telegram could not say whether the bot reaches the new `chatId` (`upstream_unavailable`); nothing was changed' },
    },
    operation: `mutation UpdateChannel($id: ID!, $input: UpdateChannelInput!) { updateChannel(id: $id, input: $input) { ${channelFields} } }`,
    variables: ({ params, body }) => ({ id: params.id, input: body }),
    result: (data) => ({ status: 200, body: channelBody(data.updateChannel, false) }),
  },
  {
    method: 'DELETE',
    path: '/v1/channels/{id}',
    operationId: 'deleteChannel',
    summary: 'Deletes a channel; it leaves every rule',
    tag: 'Channels',
    responses: { 204: { description: 'Deleted' }, 401: unauthorizedResponse, 403: readOnlyKeyResponse, 404: idNotFound },
    operation: `mutation DeleteChannel($id: ID!) { deleteChannel(id: $id) }`,
    variables: ({ params }) => ({ id: params.id }),
    result: () => ({ status: 204 }),
  },
  {
    method: 'POST',
    path: '/v1/channels/{id}/rotate-secret',
    operationId: 'rotateChannelSecret',
    summary: 'A new signing secret, shown in this response only; the old one stops verifying at once',
    tag: 'Channels',
    responses: {
      200: { description: 'The channel, with its new `config.secret`', schema: channelWithSecretSchema },
      401: unauthorizedResponse,
      403: readOnlyKeyResponse,
      404: idNotFound,
    },
    operation: `mutation RotateChannelSecret($id: ID!) { rotateChannelSecret(id: $id) { ${channelFields} } }`,
    variables: ({ params }) => ({ id: params.id }),
    result: (data) => ({ status: 200, body: channelBody(data.rotateChannelSecret, true) }),
  },
  {
    method: 'POST',
    path: '/v1/channels/{id}/test',
    operationId: 'testChannel',
    summary: 'Sends event `test` (`data.message`) to the channel now and says how it went',
    tag: 'Channels',
    responses: {
      200: { description: 'One outcome; `ok` false with the `error` when the endpoint did not take it, or did not answer within 3.5 s (the send goes on; the delivery log shows how it went)', schema: testOutcomesSchema },
      401: unauthorizedResponse,
      403: readOnlyKeyResponse,
      404: idNotFound,
    },
    operation: `mutation TestChannel($id: ID!) { testChannel(id: $id) { outcomes { channelId ok error } } }`,
    variables: ({ params }) => ({ id: params.id }),
    result: (data) => ({ status: 200, body: data.testChannel }),
  },
  {
    method: 'GET',
    path: '/v1/channels/{id}/deliveries',
    operationId: 'listChannelDeliveries',
    summary: "A channel's delivery log (spec 2.10), newest first, optionally only one `status` or `kind`. Pass `nextCursor` back as `cursor`",
    tag: 'Channels',
    query: z.object({
      limit: pageLimit,
      cursor: z.string().min(1).optional().meta({ description: 'The `nextCursor` of the previous page, with the same filters' }),
      ...deliveryLogFilter.shape,
    }),
    responses: {
      200: { description: 'A page of deliveries', schema: z.object({ data: z.array(deliverySchema), nextCursor: z.string().nullable() }).meta({ id: 'DeliveryPage' }) },
      400: { description: 'A bad `limit`, `status` or `kind` (`validation_error`) or cursor (`invalid_cursor`)' },
      401: unauthorizedResponse,
      404: idNotFound,
    },
    operation: `query ChannelDeliveries($id: ID!, $first: Int, $after: String, $status: String, $kind: String) {
      channelDeliveries(id: $id, first: $first, after: $after, status: $status, kind: $kind) {
        nodes { id kind status attempts error sentAt alert { id name } mention { id platform url text } event attemptLog { at status error } createdAt }
        nextCursor
      }
    }`,
    variables: ({ params, query }) => ({ id: params.id, first: query.limit ?? null, after: query.cursor ?? null, status: query.status ?? null, kind: query.kind ?? null }),
    result: (data) => ({ status: 200, body: { data: data.channelDeliveries.nodes, nextCursor: data.channelDeliveries.nextCursor } }),
  },
];
