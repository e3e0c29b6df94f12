import { z } from 'zod';
import type { GraphQLRoute, HttpMethod, LocalRoute, RouteResponse } from '../route.ts';
import { openApiDocumentResponse } from '../route-responses.ts';

/** Every path of the compatibility API begins here (spec 4.8: only `/api/v2` exists). */
export const octolensBase = '/compat/octolens/api/v2';

export const octolensTag = 'Octolens compatibility';

/** The refusals every compatibility route shares, worded with Octolens's codes. */
export const octolensUnauthorized: RouteResponse = { description: 'Missing, invalid, expired or revoked key (`UNAUTHORIZED`)' };
export const octolensReadOnly: RouteResponse = { description: 'A `read` key tried to change something (`FORBIDDEN`)' };
export const octolensBadBody: RouteResponse = { description: 'A field is unknown, of the wrong type or breaks its rule (`VALIDATION_ERROR`, `details` naming each problem)' };
export const octolensNotFound = (what: string): RouteResponse => ({ description: `No such ${what} in this workspace (\`NOT_FOUND\`)` });

const ignoredParameter = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .meta({ description: "Octolens's parameter: taken, and the route answers 501 whatever its value" });

/**
 * Routes of Octolens features Earshot does not offer: each still checks the
 * credential and counts against the rate limit like any request (its
 * operation asks the gateway nothing else), then answers 501
 * `FEATURE_DISABLED` (spec 4.8) whatever the query and body, which it
 * neither checks nor reads: a route that is not there has no input to get
 * wrong. One that is not a GET asks as a mutation, so a `read` key gets 403
 * there as on every write (spec 5.5: a read key may only list and export
 * beyond GET).
 */
export function featureDisabledRoutes(feature: string, routes: { method: HttpMethod; path: string; operationId: string; query?: string[] }[]): GraphQLRoute[] {
  return routes.map(({ method, path, operationId, query }) => {
    const responses: Record<number, RouteResponse> = {
      401: octolensUnauthorized,
      501: { description: `Earshot does not offer ${feature} through this API (\`FEATURE_DISABLED\`)` },
    };
    if (path.includes('{')) responses[404] = { description: 'A path segment that cannot be an id (`NOT_FOUND`)' };
    if (method !== 'GET') responses[403] = octolensReadOnly;
    return {
      method,
      path: `${octolensBase}${path}`,
      operationId,
      summary: `Octolens ${feature}: not offered here; answers 501 \`FEATURE_DISABLED\``,
      tag: octolensTag,
      // The query parameters Octolens documents for the route, shown in the document; they are not checked, nor is any other.
      ...(query ? { query: z.object(Object.fromEntries(query.map((name) => [name, ignoredParameter]))) } : {}),
      ignoresInput: true,
      responses,
      operation: `${method === 'GET' ? 'query' : 'mutation'} FeatureCheck { __typename }`,
      variables: () => ({}),
      result: () => ({ error: { code: 'feature_disabled', message: `Octolens ${feature} are not offered by this compatibility API` } }),
    };
  });
}

/**
 * Octolens gives `X-RateLimit-Reset` as the Unix time in seconds at which
 * its window resets, where the gateway writes the seconds left of ours: the
 * budget is the same, restated.
 */
export function octolensBudgetHeaders(headers: Headers): void {
  const secondsLeft = headers.get('x-ratelimit-reset');
  if (secondsLeft !== null) headers.set('x-ratelimit-reset', String(Math.floor(Date.now() / 1000) + Number(secondsLeft)));
}

/**
 * Octolens's own description of its API, `GET /api/v2/openapi.json`
 * (public): here the compatibility routes alone, as `document` builds them,
 * so a client generated from it calls this API.
 */
export const octolensOpenApiRoute = (document: () => unknown): LocalRoute => ({
  method: 'GET',
  path: `${octolensBase}/openapi.json`,
  operationId: 'octolensOpenApiDocument',
  summary: 'The compatibility routes described in OpenAPI 3.1, as Octolens serves its own at this path; needs no credential',
  tag: octolensTag,
  public: true,
  responses: { 200: openApiDocumentResponse('The OpenAPI document of the compatibility routes') },
  handle: () => ({ status: 200, body: document() }),
});
