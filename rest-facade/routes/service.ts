import { z } from 'zod';
import type { LocalRoute } from '../route.ts';

const healthSchema = z
  .object({ status: z.literal('ok'), version: z.string(), time: z.iso.datetime() })
  .meta({ id: 'Health' });

/** Health, and the OpenAPI document `document` returns (built from the whole route table, which holds these routes too). */
export const serviceRoutes = (document: () => unknown): LocalRoute[] => [
  {
    method: 'GET',
    path: '/v1/health',
    operationId: 'getHealth',
    summary: 'Liveness check; needs no credential',
    tag: 'Service',
    public: true,
    responses: { 200: { description: 'The service answers', schema: healthSchema } },
    handle: () => ({ status: 200, body: { status: 'ok', version: '0.0.1', time: new Date().toISOString() } }),
  },
  {
    method: 'GET',
    path: '/v1/openapi.json',
    operationId: 'getOpenApiDocument',
    summary: 'This API described in OpenAPI 3.1; needs no credential',
    tag: 'Service',
    public: true,
    responses: { 200: { description: 'The OpenAPI document' } },
    handle: () => ({ status: 200, body: document() }),
  },
];
