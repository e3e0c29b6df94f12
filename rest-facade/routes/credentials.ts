import { z } from 'zod';
import { createApiKeyInput } from '../../subgraphs/team/index.ts';
import type { GraphQLRoute } from '../route.ts';
import { readOnlyKeyResponse, unauthorizedResponse } from '../route-responses.ts';

const timestamp = z.iso.datetime();

const apiKeyFields = 'id name prefix scope createdAt lastUsedAt expiresAt';

const apiKeySchema = z
  .object({
    id: z.string().meta({ example: 'key_01jd8x3m5c2v7q9r4t6w8y0z1a' }),
    name: z.string(),
    prefix: z.string().meta({ description: 'The first characters of the key', example: 'mk_live_4fT9qZ' }),
    scope: z.enum(['read', 'write']),
    createdAt: timestamp,
    lastUsedAt: timestamp.nullable().meta({ description: 'Updated whenever the key authenticates a request, to the second' }),
    expiresAt: timestamp.nullable(),
  })
  .meta({ id: 'ApiKey' });

const createdApiKeySchema = apiKeySchema
  .extend({ key: z.string().meta({ description: 'The full secret, shown only here', example: 'mk_live_…' }) })
  .meta({ id: 'CreatedApiKey' });

const whoamiSchema = z
  .object({
    workspace: z.object({ id: z.string().meta({ example: 'org_01jd8x3m5c2v7q9r4t6w8y0z1a' }), name: z.string() }),
    auth: z.object({
      kind: z.enum(['api_key', 'oauth', 'session']),
      scope: z.enum(['read', 'write']),
      apiKeyId: z.string().nullable(),
      expiresAt: timestamp.nullable(),
    }),
    user: z.object({ id: z.string(), name: z.string(), email: z.string().nullable() }).nullable(),
  })
  .meta({ id: 'Whoami' });


export const credentialRoutes: GraphQLRoute[] = [
  {
    method: 'GET',
    path: '/v1/whoami',
    operationId: 'whoami',
    summary: 'The workspace and credential this request acts as',
    tag: 'Credentials',
    responses: { 200: { description: 'Who is calling', schema: whoamiSchema }, 401: unauthorizedResponse },
    operation: `query Whoami { whoami { workspace { id name } auth { kind scope apiKeyId expiresAt } user { id name email } } }`,
    variables: () => ({}),
    result: (data) => ({ status: 200, body: data.whoami }),
  },
  {
    method: 'POST',
    path: '/v1/api-keys',
    operationId: 'createApiKey',
    summary: 'Creates an API key; its secret is shown in this response only',
    tag: 'Credentials',
    body: createApiKeyInput,
    responses: {
      200: { description: 'The new key, with `key`', schema: createdApiKeySchema },
      400: { description: 'A field is unknown, of the wrong type or breaks its rule (`validation_error`, with `field`)' },
      401: unauthorizedResponse,
      403: readOnlyKeyResponse,
    },
    operation: `mutation CreateApiKey($input: CreateApiKeyInput!) { createApiKey(input: $input) { ${apiKeyFields} key } }`,
    variables: ({ body }) => ({ input: body }),
    result: (data) => ({ status: 200, body: data.createApiKey }),
  },
  {
    method: 'GET',
    path: '/v1/api-keys',
    operationId: 'listApiKeys',
    summary: "The workspace's live API keys, oldest first, without secrets",
    tag: 'Credentials',
    responses: {
      200: { description: 'The keys', schema: z.object({ data: z.array(apiKeySchema) }).meta({ id: 'ApiKeyList' }) },
      401: unauthorizedResponse,
    },
    operation: `query ListApiKeys { apiKeys { ${apiKeyFields} } }`,
    variables: () => ({}),
    result: (data) => ({ status: 200, body: { data: data.apiKeys } }),
  },
  {
    method: 'DELETE',
    path: '/v1/api-keys/{id}',
    operationId: 'revokeApiKey',
    summary: 'Revokes a key: it stops working at once and leaves the list',
    tag: 'Credentials',
    responses: {
      204: { description: 'Revoked' },
      401: unauthorizedResponse,
      403: readOnlyKeyResponse,
      404: { description: 'No such key in this workspace (`not_found`)' },
    },
    operation: `mutation RevokeApiKey($id: ID!) { revokeApiKey(id: $id) { id } }`,
    variables: ({ params }) => ({ id: params.id }),
    result: () => ({ status: 204 }),
  },
];
