import { z } from 'zod';
import type { GraphQLRoute } from '../route.ts';
import { notFoundResponse, unauthorizedResponse } from '../route-responses.ts';

const connectedAppFields = 'id clientId clientName clientUri user { id name email } scope connectedAt lastUsedAt';

const connectedAppSchema = z
  .object({
    id: z.string().meta({ description: 'The grant id', example: 'oag_01jd8x3m5c2v7q9r4t6w8y0z1a' }),
    clientId: z.string().meta({ description: "The application's OAuth `client_id`" }),
    clientName: z.string().nullable().meta({ description: 'The name the application registered with (its own words, not checked)' }),
    clientUri: z.string().nullable().meta({ description: 'The home page the application registered with' }),
    user: z.object({ id: z.string(), name: z.string(), email: z.string().nullable() }).meta({ description: 'The person it acts for' }),
    scope: z.enum(['read', 'write']),
    connectedAt: z.iso.datetime(),
    lastUsedAt: z.iso.datetime().nullable().meta({ description: 'When one of its tokens last authenticated a request, updated at most once a minute' }),
  })
  .meta({ id: 'ConnectedApp' });

/** Applications connected through OAuth (issue 13 point 4): what the dashboard lists and disconnects. */
export const connectedAppRoutes: GraphQLRoute[] = [
  {
    method: 'GET',
    path: '/v1/connected-apps',
    operationId: 'listConnectedApps',
    summary: 'Applications connected to this workspace through OAuth that can still act, oldest first',
    tag: 'Credentials',
    responses: {
      200: { description: 'The connected applications', schema: z.object({ data: z.array(connectedAppSchema) }).meta({ id: 'ConnectedAppList' }) },
      401: unauthorizedResponse,
    },
    operation: `query ListConnectedApps { connectedApps { ${connectedAppFields} } }`,
    variables: () => ({}),
    result: (data) => ({ status: 200, body: { data: data.connectedApps } }),
  },
  {
    method: 'DELETE',
    path: '/v1/connected-apps/{id}',
    operationId: 'revokeConnectedApp',
    summary: 'Disconnects an application: every token it holds stops working at once. The user who connected it, or an owner or admin, may',
    tag: 'Credentials',
    responses: {
      204: { description: 'Disconnected' },
      401: unauthorizedResponse,
      403: {
        description:
          "An API key (`forbidden`: it stands for no one), a plain member disconnecting another member's app (`forbidden`), or a `read` credential (`read_only_key`)",
      },
      404: notFoundResponse('connected app'),
    },
    operation: `mutation RevokeConnectedApp($id: ID!) { revokeConnectedApp(id: $id) { id } }`,
    variables: ({ params }) => ({ id: params.id }),
    result: () => ({ status: 204 }),
  },
];
