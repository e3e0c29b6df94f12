import { z } from 'zod';
import type { RouteResponse } from './route.ts';

/** The responses many routes share, worded once so the OpenAPI document says the same thing everywhere. */
export const unauthorizedResponse: RouteResponse = { description: 'Missing, invalid, expired or revoked key (`unauthorized`)' };
export const readOnlyKeyResponse: RouteResponse = { description: 'A `read` key tried to change something (`read_only_key`)' };
export const invalidBodyResponse: RouteResponse = { description: 'A field is unknown, of the wrong type or breaks its rule (`validation_error`, with `field`)' };
export const notFoundResponse = (what: string): RouteResponse => ({ description: `No such ${what} in this workspace (\`not_found\`)` });

/** What `GET …/openapi.json` answers: an OpenAPI 3.1 document (its whole shape is the OpenAPI specification's). */
export const openApiDocumentResponse = (description: string): RouteResponse => ({
  description,
  schema: z
    .looseObject({
      openapi: z.string().regex(/^3\.1\.\d+$/),
      info: z.looseObject({ title: z.string(), version: z.string() }),
      paths: z.record(z.string(), z.unknown()),
      components: z.record(z.string(), z.unknown()).optional(),
    })
    .meta({ id: 'OpenApiDocument', description: 'An OpenAPI 3.1 document, as https://spec.openapis.org/oas/v3.1.0 describes it' }),
});
