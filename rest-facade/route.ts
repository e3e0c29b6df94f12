import type { z } from 'zod';
import type { Sql } from '../runtime/database.ts';

/** A refusal before it is put in a table's envelope; its status follows from `code` (error-envelope.ts) unless `status` says otherwise. */
export interface ApiError {
  code: string;
  message: string;
  retryAfterSeconds?: number;
  field?: string | null;
  /**
   * Every problem found in the input, the first being the refusal's own
   * `field` and `message`; only Octolens's envelope lists them (`details`).
   */
  problems?: { field: string | null; message: string }[];
  /**
   * Where one code covers two kinds of refusal that HTTP tells apart: an
   * invitation link that names nothing is `invalid_token` 401, one whose
   * invitation was answered or expired is `invalid_token` 410 Gone.
   */
  status?: number;
}

/**
 * A request refused before any operation runs: bad input, or (thrown by a
 * route's `variables`) something the route cannot ask the domain for. The
 * facade still checks the credential first, so it never hides a bad key.
 */
export class RequestRefusal extends Error {
  constructor(readonly apiError: ApiError) {
    super(apiError.message);
  }
}

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** A REST request after the facade has read it. */
export interface RestRequest {
  params: Record<string, string>;
  /** Query parameters as the route's `query` schema parsed them. */
  query: Record<string, any>;
  body: unknown;
  /** The body exactly as received, for routes that verify a signature over it (the payment provider's webhook). */
  rawBody: string | undefined;
  headers: Headers;
  /** The request's `X-Request-Id`, which an error envelope repeats. */
  requestId: string;
}

/** What a local route may ask of the running service. */
export interface ServiceState {
  /** Whether the database answers now. */
  databaseStatus(): Promise<{ up: boolean; reason?: string }>;
}

/** What a route answers: a status and a JSON body (none for 204). */
export interface RestResult {
  status: number;
  body?: unknown;
  /** A list sets the header once per value (`Set-Cookie`). */
  headers?: Record<string, string | string[]>;
}

export interface RouteResponse {
  description: string;
  schema?: z.ZodType;
  /** A body that is not JSON (`text/csv`): its media type; the body is then described as text. */
  contentType?: string;
  /** Headers the response carries, by name, described. */
  headers?: Record<string, string>;
}

interface RouteBase {
  method: HttpMethod;
  /** OpenAPI-style path, `{name}` for a parameter. */
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  /** Public routes need no credential. */
  public?: boolean;
  /**
   * The credentials the route takes when not every kind does (spec 4.5, 5.8),
   * for `openapi.json`; the subgraph enforces it. `person`: a signed-in
   * person, by OAuth token or dashboard session, never an API key.
   * `session`: the dashboard session alone (its own cookie is the subject).
   */
  credentials?: 'person' | 'session';
  body?: z.ZodType;
  /** A request without a body is read as sending `{}`: every field of `body` is optional (Octolens's mention list and export). */
  bodyOptional?: boolean;
  /**
   * The body is not JSON and reaches the route only as `rawBody`, unparsed
   * (Slack's form-encoded, signed interactivity requests; a mail program's
   * one-click unsubscribe). The schema documents its form fields.
   */
  rawBody?: z.ZodObject;
  /** Query parameters; each property of the object is one parameter. */
  query?: z.ZodObject;
  /**
   * The answer is the same whatever the request carries beyond its
   * credential (a feature not offered, spec 4.8: 501): the query is not
   * checked (`query` only documents it) and the body is not read.
   */
  ignoresInput?: boolean;
  /**
   * A link people open in a browser (an e-mail's, Slack's redirect): a GET
   * that ranks HTML above JSON is sent (303) to this dashboard page with the
   * same query string, and the page makes the route's call over `/graphql`.
   * API clients keep the JSON answer.
   */
  browserPage?: string;
  responses: Record<number, RouteResponse>;
}

/** A route that runs one GraphQL operation on the gateway. */
export interface GraphQLRoute extends RouteBase {
  operation: string;
  /** The operation's variables; may throw `RequestRefusal`. */
  variables(request: RestRequest): Record<string, unknown>;
  /** The HTTP answer to the operation's data (shaped, where the route's answer has several shapes, by the request), or an error the table's envelope states (a feature the route does not offer). */
  result(data: Record<string, any>, request: RestRequest): RestResult | { error: ApiError };
}

/** What a streamed route sends: the media type, headers, and the body a chunk at a time (`return()` ends it early). */
export interface StreamedBody {
  contentType: string;
  headers: Record<string, string>;
  chunks: AsyncIterableIterator<string>;
}

/**
 * A route whose body is too large to hold, such as the CSV export: one
 * GraphQL operation decides and grants it (every rule and error lives in
 * the subgraph), then `stream` reads the grant's rows from the database
 * through a function the owning subgraph's `index.ts` exports. The facade
 * only carries the chunks to the client as it reads them.
 */
export interface StreamedRoute extends RouteBase {
  operation: string;
  variables(request: RestRequest): Record<string, unknown>;
  /** The body of the granted download; undefined when the grant is no longer there. */
  stream(data: Record<string, any>, sql: Sql): Promise<StreamedBody | undefined>;
}

/** A route the facade answers itself (health, the OpenAPI document). */
export interface LocalRoute extends RouteBase {
  handle(request: RestRequest, service: ServiceState): RestResult | Promise<RestResult>;
}

export type Route = GraphQLRoute | StreamedRoute | LocalRoute;

export const isStreamedRoute = (route: Route): route is StreamedRoute => 'stream' in route;
export const isGraphQLRoute = (route: Route): route is GraphQLRoute => 'operation' in route && !isStreamedRoute(route);
/** Whether the route runs a GraphQL operation on the gateway (and so may meet a lost database there). */
export const usesGateway = (route: Route): route is GraphQLRoute | StreamedRoute => 'operation' in route;

/**
 * A link Earshot mails or hands out that changes state when followed (an
 * e-mail channel's confirmation, an unsubscribe link, a magic link): a GET
 * running a mutation. Mail scanners and link previews follow links too, with
 * HEAD or with a prefetch GET, and must not spend them.
 */
export const changesStateOnGet = (route: Route): route is GraphQLRoute => route.method === 'GET' && isGraphQLRoute(route) && /^\s*mutation\b/.test(route.operation);

/** A speculative GET (a browser's prefetch, a link preview), not a person following the link (Fetch's `Sec-Purpose`, the older `Purpose` and `X-Purpose`, Firefox's `X-Moz`). */
export const isPrefetch = (headers: Headers): boolean =>
  [headers.get('sec-purpose'), headers.get('purpose'), headers.get('x-purpose'), headers.get('x-moz')].some((value) => value !== null && /\b(prefetch|preview)\b/i.test(value));

/** Whether the facade reads a request body for the route (up to the largest it takes, else `payload_too_large`): every method but GET, and DELETE only when it takes one, unless the route ignores its input. */
export const readsBody = (route: Route): boolean => !route.ignoresInput && route.method !== 'GET' && !(route.method === 'DELETE' && !route.body);

/**
 * How one table's refusals read: its envelope and that envelope's named
 * schema for the OpenAPI document, and the wording of the refusals every
 * route shares. The status of a code is the same in every table.
 */
export interface ErrorDialect {
  body(error: ApiError, requestId: string): unknown;
  /** Named with `.meta({ id })`: error responses point at it. */
  schema: z.ZodType;
  shared: { badQuery: string; payloadTooLarge: string; deadCredential: string; rateLimited: string; unavailable: string; internal: string };
}

/** Routes under one path prefix (`/v1/`, `/compat/octolens/`) that answer in one error envelope. */
export interface RouteTable {
  prefix: string;
  routes: Route[];
  errors: ErrorDialect;
  /** Restates the rate-limit headers of every answer in another vendor's form; left out, they stay as the gateway wrote them. */
  budgetHeaders?: (headers: Headers) => void;
  /** Its routes are described as taking a workspace API key as bearer alone (spec 4.8), not every credential of spec 5.2. */
  apiKeyOnly?: boolean;
}

/** Whether `pathname` is the table's: under its prefix, or the prefix without its slash (a 404 in the table's own envelope). */
export const tableServes = (table: { prefix: string }, pathname: string) =>
  pathname.startsWith(table.prefix) || pathname === table.prefix.slice(0, -1);
