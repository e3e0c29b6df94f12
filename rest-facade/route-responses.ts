import type { RouteResponse } from './route.ts';

/** The responses many routes share, worded once so the OpenAPI document says the same thing everywhere. */
export const unauthorizedResponse: RouteResponse = {
  description: 'Missing, invalid, expired or revoked key (`unauthorized`)',
  headers: { 'WWW-Authenticate': '`Bearer realm="earshot"`, with `error="invalid_token"` when a credential was sent and refused' },
};
export const readOnlyKeyResponse: RouteResponse = { description: 'A `read` key tried to change something (`read_only_key`)' };
export const invalidBodyResponse: RouteResponse = { description: 'A field is unknown, of the wrong type or breaks its rule (`validation_error`, with `field`)' };
export const notFoundResponse = (what: string): RouteResponse => ({ description: `No such ${what} in this workspace (\`not_found\`)` });
