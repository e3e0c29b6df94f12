import { z } from 'zod';
import { databaseRetryAfterSeconds } from '../../runtime/database-availability.ts';
import { errorBody } from '../error-envelope.ts';
import type { LocalRoute } from '../route.ts';
import { openApiDocumentResponse } from '../route-responses.ts';

const healthSchema = z
  .object({ status: z.literal('ok'), version: z.string(), time: z.iso.datetime() })
  .meta({ id: 'Health' });

/** Health, and the OpenAPI document `document` returns (built from the whole route table, which holds these routes too). */
export const serviceRoutes = (document: () => unknown): LocalRoute[] => [
  {
    method: 'GET',
    path: '/v1/health',
    operationId: 'getHealth',
    summary: 'Health check: whether the service and its database answer; needs no credential',
    tag: 'Service',
    public: true,
    responses: {
      200: { description: 'The service and its database answer', schema: healthSchema },
      503: { description: 'The database is down (`service_unavailable`, the message says why); retry after `Retry-After` seconds' },
    },
    handle: async ({ requestId }, service) => {
      const database = await service.databaseStatus();
      if (database.up) return { status: 200, body: { status: 'ok', version: '0.0.1', time: new Date().toISOString() } };
      return {
        status: 503,
        headers: { 'retry-after': String(databaseRetryAfterSeconds) },
        body: errorBody(
          { code: 'service_unavailable', message: `The database is down: ${database.reason ?? 'it does not answer'}`, retryAfterSeconds: databaseRetryAfterSeconds },
          requestId,
        ),
      };
    },
  },
  {
    method: 'GET',
    path: '/v1/openapi.json',
    operationId: 'getOpenApiDocument',
    summary: 'This API described in OpenAPI 3.1; needs no credential',
    tag: 'Service',
    public: true,
    responses: { 200: openApiDocumentResponse('The OpenAPI document') },
    handle: () => ({ status: 200, body: document() }),
  },
];
