import { OpenApiBuilder, type OperationObject, type ParameterObject, type SchemaObject, type SecurityRequirementObject } from 'openapi3-ts/oas31';
import { z } from 'zod';
import { changesStateOnGet, readsBody, type Route, type RouteTable, usesGateway } from './route.ts';
import type { WebhookEvent } from './webhook-events.ts';

/** Schemas named with `.meta({ id })`, shared by every operation as `#/components/schemas/<id>`. */
type NamedSchemas = Record<string, SchemaObject>;

function pointRefsAtComponents(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(pointRefsAtComponents);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) =>
      key === '$ref' && typeof inner === 'string'
        ? [key, inner.replace(/^#\/\$defs\//, '#/components/schemas/')]
        : [key, pointRefsAtComponents(inner)],
    ),
  );
}

// zod puts named schemas under the schema's own `$defs` and points at them
// with `#/$defs/…`, which resolves against the whole document, not the
// schema; they are moved to `components.schemas` instead.
const jsonSchema = (schema: z.ZodType, io: 'input' | 'output', named: NamedSchemas): SchemaObject => {
  const { $schema: _, $defs, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
  for (const [id, definition] of Object.entries(($defs ?? {}) as Record<string, unknown>)) {
    const component = pointRefsAtComponents(definition) as SchemaObject;
    if (named[id] && JSON.stringify(named[id]) !== JSON.stringify(component)) {
      throw new Error(`Two different schemas are named "${id}" in the OpenAPI document`);
    }
    named[id] = component;
  }
  return pointRefsAtComponents(rest) as SchemaObject;
};

/** The headers the port puts on answers (spec 4, 7 and 8), described once under `components.headers`. */
const answerHeaders = {
  'X-Request-Id': 'The request id: the inbound `X-Request-Id` when it is 8 to 64 URL-safe characters, else a new one; `requestId` of an error envelope',
  'X-RateLimit-Limit': "Requests a minute of the workspace's budget, one budget for /v1, the compatibility API, GraphQL and MCP",
  'X-RateLimit-Remaining': "Requests left in the workspace's current minute",
  'X-RateLimit-Reset': 'When the current minute ends: seconds from now on /v1, the Unix time in seconds on the compatibility API (as Octolens gives it)',
  'Retry-After': 'Seconds to wait before trying again (mirrored by `retryAfterSeconds` in the error envelope)',
  'WWW-Authenticate': '`Bearer realm="earshot"`, with `error="invalid_token"` when a credential (or a link\'s token) was sent and refused',
} as const;
type AnswerHeader = keyof typeof answerHeaders;
const headerRefs = (names: AnswerHeader[]) => Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));

/**
 * The three credentials of spec 5.2 as security schemes: the API key, the
 * OAuth token of an MCP sign-in (a bearer too, scoped `read` or `write`) and
 * the dashboard session's cookie, which changes repeat in `X-CSRF-Token`.
 */
const securitySchemes = {
  apiKey: { type: 'http', scheme: 'bearer', description: 'A workspace API key, `mk_live_…`' },
  oauth: {
    type: 'oauth2',
    description: 'An access token of an OAuth 2.1 sign-in (PKCE, dynamic client registration at `/oauth/register`), sent as `Authorization: Bearer …`; the workspace is chosen at consent',
    flows: {
      authorizationCode: {
        authorizationUrl: '/oauth/authorize',
        tokenUrl: '/oauth/token',
        refreshUrl: '/oauth/token',
        scopes: { read: 'GET requests only', write: 'Everything the signed-in person may do' },
      },
    },
  },
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: 'earshot_session',
    description: 'The dashboard session, set by the sign-in routes; a request that changes anything repeats the `earshot_csrf` cookie in `X-CSRF-Token`',
  },
} as const;

type Credentials = 'any' | 'apiKey' | 'person' | 'session';

/**
 * The schemes a route takes, by its `credentials` (any of them when it names
 * none); an OAuth token needs the `write` scope for anything but a GET (spec 5.5).
 */
function credentialSecurity(takes: Credentials, method = 'GET'): SecurityRequirementObject[] {
  const oauth = { oauth: [method === 'GET' ? 'read' : 'write'] };
  if (takes === 'any') return [{ apiKey: [] }, oauth, { session: [] }];
  if (takes === 'person') return [oauth, { session: [] }];
  return [takes === 'apiKey' ? { apiKey: [] } : { session: [] }];
}

/** The operation's own `security`, where it differs from the document's (`documented`, as a GET takes it). */
function operationSecurity(route: Route, table: RouteTable, documented: Credentials) {
  if (route.public) return { security: [] };
  const takes = route.credentials ?? (table.apiKeyOnly ? 'apiKey' : 'any');
  return takes === documented && route.method === 'GET' ? {} : { security: credentialSecurity(takes, route.method) };
}

function operationFor(route: Route, table: RouteTable, named: NamedSchemas, documented: Credentials): OperationObject {
  const errors = table.errors;
  const errorRef = jsonSchema(errors.schema, 'output', named);
  const pathParams: ParameterObject[] = [...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const queryParams: ParameterObject[] = Object.entries(route.query?.shape ?? {}).map(([name, schema]) => ({
    name,
    in: 'query',
    required: !(schema as z.ZodType).safeParse(undefined).success,
    schema: jsonSchema(schema as z.ZodType, 'input', named),
  }));
  const responses: OperationObject['responses'] = {};
  for (const [status, response] of Object.entries(route.responses)) {
    const isError = Number(status) >= 400;
    const schema = isError ? errorRef : response.schema ? jsonSchema(response.schema, 'output', named) : undefined;
    const headers = response.headers
      ? { headers: Object.fromEntries(Object.entries(response.headers).map(([name, description]) => [name, { description, schema: { type: 'string' as const } }])) }
      : {};
    const content = !isError && response.contentType
      ? { content: { [response.contentType]: { schema: { type: 'string' as const } } } }
      : schema
        ? { content: { 'application/json': { schema } } }
        : {};
    responses[status] = { description: response.description, ...headers, ...content };
  }
  if (route.browserPage) {
    responses['303'] ??= {
      description: `Opened in a browser (\`Accept\` ranks \`text/html\` above JSON): the dashboard's page \`${route.browserPage}\`, with the same query string, which makes this call and shows its outcome`,
      headers: { Location: { description: 'The dashboard page', schema: { type: 'string' } } },
    };
  }
  const shared = (description: string) => ({ description, content: { 'application/json': { schema: errorRef } } });
  if (changesStateOnGet(route)) {
    responses['503'] = shared(
      'A prefetch (`Sec-Purpose: prefetch`, `Purpose: prefetch`, `X-Purpose: preview`, `X-Moz: prefetch`) is declined with `prefetch_declined` and the link is not spent; a `HEAD` answers 200 with the headers a `GET` would send, its query checked, and does nothing either. Also `service_unavailable` while the database is down',
    );
  }
  if (!route.ignoresInput) responses['400'] ??= shared(errors.shared.badQuery);
  if (readsBody(route)) responses['413'] ??= shared(errors.shared.payloadTooLarge);
  // The gateway judges a credential that is sent even where none is needed.
  if (route.public && usesGateway(route)) responses['401'] ??= shared(errors.shared.deadCredential);
  if (!route.public) responses['429'] ??= shared(errors.shared.rateLimited);
  if (usesGateway(route)) responses['503'] ??= shared(errors.shared.unavailable);
  responses['500'] ??= shared(errors.shared.internal);
  // A request the gateway counted carries the budget; 429, 502 and 503 say when to come back.
  const counted: AnswerHeader[] = route.public || !usesGateway(route) ? [] : ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];
  for (const [status, response] of Object.entries(responses)) {
    const retry: AnswerHeader[] = ['429', '502', '503'].includes(status) ? ['Retry-After'] : [];
    // The facade challenges on every 401, a refused link token included (RFC 6750 3).
    const challenge: AnswerHeader[] = status === '401' ? ['WWW-Authenticate'] : [];
    const described = response as { headers?: Record<string, unknown> };
    // Not counted: a request refused before its credential was read, or one the database or a fault stopped before.
    const budget = ['401', '500', '503'].includes(status) ? [] : counted;
    described.headers = { ...headerRefs(['X-Request-Id', ...budget, ...retry, ...challenge]), ...described.headers };
  }
  return {
    operationId: route.operationId,
    summary: route.summary,
    tags: [route.tag],
    ...operationSecurity(route, table, documented),
    parameters: [...pathParams, ...queryParams],
    ...(route.body
      ? { requestBody: { required: !route.bodyOptional, content: { 'application/json': { schema: jsonSchema(route.body, 'input', named) } } } }
      : {}),
    ...(route.rawBody
      ? { requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: jsonSchema(route.rawBody, 'input', named) } } } }
      : {}),
    responses,
  };
}

/** Builds the OpenAPI 3.1 document of the given route tables and of the requests the service sends (`webhooks`). */
export function buildOpenApiDocument(tables: RouteTable[], webhooks: WebhookEvent[] = []) {
  const builder = OpenApiBuilder.create()
    .addOpenApiVersion('3.1.0')
    .addTitle('Earshot API')
    .addVersion('0.0.1')
    .addDescription(
      'Keyword and brand mention tracking. Every endpoint except health and this document needs a credential (see `security`): a workspace API key as `Authorization: Bearer mk_live_…`, ' +
        'the access token of an OAuth sign-in as a bearer too, or the dashboard session cookie (a change made with it repeats the `earshot_csrf` cookie in `X-CSRF-Token`). ' +
        'Changes to the team take a signed-in person, by OAuth token or session: an API key is 403 `forbidden` there. ' +
        'Errors are `{ error: { code, message, requestId } }`; every response carries `X-Request-Id`, authenticated ones `X-RateLimit-*`. ' +
        'Input is checked strictly: an unknown query parameter or body field is 400 `validation_error` naming it, and an id that cannot be one is 404 `not_found`. ' +
        'A request the HTTP parser cannot read gets the same envelope and a closed connection: 431 `headers_too_large` for a request line and headers over 16 KiB, ' +
        '408 `request_timeout` for headers that did not arrive in time, 417 `expectation_failed` for an `Expect` other than `100-continue`, ' +
        '400 `validation_error` for anything else malformed (such as `Content-Length` beside chunked framing, or an HTTP/1.1 request without `Host`).\n\n' +
        'Webhook channels receive `POST` requests with a JSON envelope `{ id, event, createdAt, alert, data }` (see `webhooks`). Each is signed three ways with the channel secret: ' +
        '`X-Mentions-Signature`, the lowercase hex HMAC-SHA256 of the raw body keyed with the whole secret string (compare in constant time); ' +
        '`X-Mentions-Signature-V2`, `t=<unix seconds>,v1=<lowercase hex HMAC-SHA256 of "<t>.<body>">` with the same key, which lets a receiver refuse replays; ' +
        'and the Standard Webhooks headers `webhook-id` (the delivery id), `webhook-timestamp` and `webhook-signature` (`v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` keyed with the base64-decoded part of the secret after `whsec_`), ' +
        'which the official `standardwebhooks` verifiers accept unmodified. Deduplicate on `id`: a retry resends the same id and bytes.\n\n' +
        'The routes tagged `Octolens compatibility` (`/compat/octolens/api/v2/...`) answer Octolens\'s API v2 request and response shapes on the same workspace, keys and rate limit; ' +
        'their errors are `{ error: { code, message, status } }` with upper-case codes, and their ids are integers given when an object is first shown.',
    );
  // A document of API-key tables alone (the compatibility API's own) names that scheme alone.
  const documented: Credentials = tables.every((table) => table.apiKeyOnly) ? 'apiKey' : 'any';
  for (const [name, scheme] of Object.entries(securitySchemes)) if (documented === 'any' || name === 'apiKey') builder.addSecurityScheme(name, scheme);
  const named: NamedSchemas = {};
  const document = builder.getSpec();
  document.security = credentialSecurity(documented);
  document.servers = [{ url: '/' }];
  for (const table of tables) {
    jsonSchema(table.errors.schema, 'output', named);
    for (const route of table.routes) {
      const item = (document.paths![route.path] ??= {});
      (item as Record<string, OperationObject>)[route.method.toLowerCase()] = operationFor(route, table, named, documented);
    }
  }
  for (const webhook of webhooks) {
    builder.addWebhook(webhook.name, {
      post: {
        summary: webhook.summary,
        description: webhook.description,
        requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(webhook.schema, 'output', named) } } },
        responses: { '200': { description: 'Any 2xx within 10 seconds accepts the delivery; the body is ignored' } },
      },
    });
  }
  for (const [id, schema] of Object.entries(named)) builder.addSchema(id, schema);
  for (const [name, description] of Object.entries(answerHeaders)) builder.addHeader(name, { description, schema: { type: name.startsWith('X-RateLimit') || name === 'Retry-After' ? 'integer' : 'string' } });
  return document;
}
