import { isUtf8 } from 'node:buffer';
// The server adapter's own Response: sent from its string body, without the
// web-stream machinery a native Response needs.
import { Response } from '@whatwg-node/server';
import type { z } from 'zod';
import type { GraphQLOperation, InProcessCaller } from '../gateway/plugins/use-in-process-caller.ts';
import { bearerChallenge, sessionCookie } from '../gateway/request-state.ts';
import { clientAddressHeader } from '../runtime/client-address.ts';
import { readBoundedBody } from '../runtime/bounded-body.ts';
import { maxJsonNesting, nestedDeeperThan } from '../runtime/json-nesting.ts';
import { requestIdFrom } from '../runtime/request-id.ts';
import type { Logger } from '../runtime/logger.ts';
import { checkInput, type InputProblem } from '../subgraphs/validate-input.ts';
import type { Sql } from '../runtime/database.ts';
import { type ApiError, apiErrorFromGraphQL, statusOf } from './error-envelope.ts';
import {
  changesStateOnGet,
  type ErrorDialect,
  type GraphQLRoute,
  isGraphQLRoute,
  isPrefetch,
  isStreamedRoute,
  readsBody,
  RequestRefusal,
  type RestRequest,
  type RestResult,
  type Route,
  type RouteTable,
  type ServiceState,
  type StreamedBody,
  type StreamedRoute,
  tableServes,
  usesGateway,
} from './route.ts';

/**
 * Sends one GraphQL operation to the gateway's `/graphql` (in-process or
 * over HTTP, `gatewayHttpRequest`) with these headers and returns its HTTP
 * response. The in-process gateway takes the operation from `caller` as
 * the object, and hands a successful result to it the same way, with no
 * body to parse (an HTTP gateway ignores it).
 */
export type GatewayFetch = (operation: GraphQLOperation, headers: Record<string, string>, caller: InProcessCaller) => Promise<Response>;

type GraphQLPayload = { data?: Record<string, any> | null; errors?: { message: string; extensions?: Record<string, unknown> }[] };

export interface FacadeOptions {
  /** A request goes to the table whose prefix its path starts with, else to the first; each answers in its own envelope. */
  tables: RouteTable[];
  gatewayFetch: GatewayFetch;
  maxBodyBytes: number;
  log: Logger;
  /** What local routes (the health check) learn of the running service. */
  service: ServiceState;
  /** The database streamed routes read their bodies from (a pool of their own, so long downloads never starve requests). */
  streamSql: Sql;
}

interface CompiledRoute {
  route: Route;
  pattern: RegExp;
  paramNames: string[];
}

interface CompiledTable {
  prefix: string;
  routes: CompiledRoute[];
  errors: ErrorDialect;
  budgetHeaders?: (headers: Headers) => void;
}

/** Longest query string the facade sends the gateway in a GET; proxies commonly allow 8 KiB of request line. */
const maxQueryStringLength = 4096;

/**
 * How an operation travels to a gateway over HTTP: short queries as GETs
 * (GraphQL over HTTP allows it): without a body the gateway has no request
 * stream to read, which is a good part of its cost for a small query. Long
 * ones and mutations as POSTs, clear of URL limits. `search` is the query
 * string with its leading `?`, empty for a POST.
 */
export function gatewayHttpRequest(operation: GraphQLOperation, headers: Record<string, string>): { search: string; init: RequestInit } {
  const { query, variables } = operation;
  const search = query.startsWith('query') ? `?${new URLSearchParams({ query, variables: JSON.stringify(variables) })}` : '';
  return search && search.length <= maxQueryStringLength
    ? { search, init: { method: 'GET', headers } }
    : { search: '', init: { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) } };
}

/** The budget headers of the request rate (spec part 8), passed on from the gateway's answer. */
export const rateLimitHeaders = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'];

function compile(route: Route): CompiledRoute {
  const paramNames: string[] = [];
  const source = route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_match, name: string) => {
    paramNames.push(name);
    return '([^/]+)';
  });
  return { route, pattern: new RegExp(`^${source}$`), paramNames };
}

/**
 * The body parsed, and as received: a signed webhook is verified over its
 * exact bytes. A route taking a `rawBody` gets it unparsed, whatever its
 * format (Slack signs form-encoded requests).
 */
async function readBody(request: Request, maxBytes: number, parseJson: boolean): Promise<{ value: unknown; raw: string | undefined }> {
  const { bytes, whole } = await readBoundedBody(request, maxBytes).catch(() => {
    throw new RequestRefusal({ code: 'validation_error', message: 'The body was cut off or badly framed', field: null });
  });
  if (!whole) throw new RequestRefusal({ code: 'payload_too_large', message: `The body exceeds ${maxBytes} bytes` });
  if (bytes.length === 0) return { value: undefined, raw: undefined };
  // Decoded leniently, bytes that are not UTF-8 (a Latin-1 "é") were stored as U+FFFD; JSON is UTF-8 (RFC 8259 8.1), and so are the forms signed webhooks send.
  if (!isUtf8(bytes)) throw new RequestRefusal({ code: 'validation_error', message: 'The body is not valid UTF-8: send JSON encoded as UTF-8', field: null });
  const raw = new TextDecoder().decode(bytes);
  if (!parseJson) return { value: undefined, raw };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new RequestRefusal({ code: 'validation_error', message: 'The body is not valid JSON', field: null });
  }
  if (nestedDeeperThan(value, maxJsonNesting)) throw new RequestRefusal({ code: 'validation_error', message: `The body is nested deeper than ${maxJsonNesting} levels`, field: null });
  return { value, raw };
}

/** The input's problems as one refusal, led by the first. */
function inputError(problems: InputProblem[]): RequestRefusal {
  return new RequestRefusal({ code: 'validation_error', message: problems[0].message, field: problems[0].field, problems });
}

/** Whether a parameter refuses a list as such (`limit=5&limit=6`), rather than some item of it. */
const takesOneValue = (schema: z.ZodType, values: string[]) =>
  schema.safeParse(values, { reportInput: true }).error?.issues.some((issue) => issue.code === 'invalid_type' && issue.path.length === 0 && Array.isArray(issue.input)) ?? false;

/**
 * The query parameters as the route's `query` schema parses them. A
 * parameter the route does not take is refused rather than ignored: a
 * misspelt filter must not quietly widen the answer. A parameter given
 * more than once reaches the schema as the list of its values, which a
 * list parameter takes; any other is refused as given more than once.
 * Every problem is reported, unknown parameters first.
 */
function parseQuery(route: Route, query: URLSearchParams): Record<string, unknown> {
  const taken = Object.keys(route.query?.shape ?? {});
  const takes = taken.length ? `this route takes ${taken.join(', ')}` : 'this route takes none';
  const problems: InputProblem[] = [];
  const values = new Map<string, string | string[]>();
  for (const [name, value] of query) {
    if (!taken.includes(name)) {
      if (!problems.some((problem) => problem.field === name)) problems.push({ field: name, message: `${name}: unknown query parameter; ${takes}` });
      continue;
    }
    const seen = values.get(name);
    values.set(name, seen === undefined ? value : [...[seen].flat(), value]);
  }
  if (!route.query) {
    if (problems.length) throw inputError(problems);
    return {};
  }
  for (const [name, value] of values) {
    if (Array.isArray(value) && takesOneValue(route.query.shape[name], value)) {
      problems.push({ field: name, message: `${name}: is given more than once; this parameter takes one value` });
      values.delete(name);
    }
  }
  const checked = checkInput(route.query, Object.fromEntries(values));
  if (!checked.success) throw inputError([...problems, ...checked.problems]);
  if (problems.length) throw inputError(problems);
  return checked.data as Record<string, unknown>;
}

/**
 * The path parameters decoded. A segment that does not decode (`%E0%A4%A`)
 * or holds U+0000 cannot be any record's id, so the answer is `not_found`
 * without asking the subgraphs.
 */
function decodePathParams(names: string[], segments: string[], pathname: string): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [i, name] of names.entries()) {
    let value: string;
    try {
      value = decodeURIComponent(segments[i]);
    } catch {
      throw new RequestRefusal({ code: 'not_found', message: `Nothing at ${pathname}: the ${name} is not valid percent-encoded UTF-8` });
    }
    if (value.includes('\u0000')) throw new RequestRefusal({ code: 'not_found', message: `Nothing at ${pathname}: the ${name} holds a NUL character` });
    params[name] = value;
  }
  return params;
}

/**
 * The REST facade: matches a route of the table, runs its GraphQL operation
 * on the gateway with the caller's credential, and turns the result or the
 * GraphQL error (by `extensions.code`) into the HTTP response. Business rules
 * stay in the subgraphs; the facade only translates.
 */
/**
 * Whether an `Accept` header ranks `text/html` above JSON, as a browser's
 * does (`text/html,…,*\/*;q=0.8`) and an API client's (`*\/*`,
 * `application/json`) does not. Only these two types matter, so the
 * header's q-values are read here rather than through a negotiation library.
 */
export function ranksHtmlFirst(accept: string | null): boolean {
  const quality = (type: string) =>
    Math.max(
      0,
      ...(accept ?? '')
        .split(',')
        .map((part) => part.trim().split(';'))
        .filter(([range]) => range.trim().toLowerCase() === type)
        .map(([, ...parameters]) => {
          const q = parameters.map((parameter) => /^\s*q=([\d.]+)\s*$/i.exec(parameter)?.[1]).find(Boolean);
          return q === undefined ? 1 : Number(q) || 0;
        }),
    );
  return quality('text/html') > quality('application/json');
}

/**
 * The method a request is routed by: a HEAD is answered as its GET, whose
 * body Node's server leaves out (RFC 9110 9.1: a server must support HEAD
 * wherever it supports GET).
 */
const routeMethod = (request: Request) => (request.method === 'HEAD' ? 'GET' : request.method);

/** Whether a request carried a credential, which a 401's challenge says was refused. */
const sentCredential = (request: Request) => request.headers.get('authorization') !== null || sessionCookie({ request }) !== undefined;

export function createFacade(options: FacadeOptions): (request: Request) => Promise<Response> {
  const tables: CompiledTable[] = options.tables.map((table) => ({ ...table, routes: table.routes.map(compile) }));
  const tableFor = (pathname: string) => tables.find((table) => tableServes(table, pathname)) ?? tables[0];

  // `headers`: what the answer carries already (the gateway's budget headers), a set of this request's own, completed here.
  const json = (result: RestResult, requestId: string, headers: Headers = new Headers()) => {
    headers.set('x-request-id', requestId);
    for (const [name, value] of Object.entries(result.headers ?? {})) {
      if (Array.isArray(value)) for (const each of value) headers.append(name, each);
      else headers.set(name, value);
    }
    if (result.status === 204 || result.body === undefined) return new Response(null, { status: result.status, headers });
    if (!headers.has('content-type')) headers.set('content-type', 'application/json; charset=utf-8');
    const body = typeof result.body === 'string' ? result.body : JSON.stringify(result.body);
    return new Response(body, { status: result.status, headers });
  };
  const failure = (errors: ErrorDialect, error: ApiError, requestId: string, headers: Headers = new Headers()) => {
    // Spec part 7: `retryAfterSeconds` mirrors `Retry-After`.
    if (error.retryAfterSeconds !== undefined && !headers.has('retry-after')) headers.set('retry-after', String(error.retryAfterSeconds));
    return json({ status: statusOf(error), body: errors.body(error, requestId) }, requestId, headers);
  };

  const callGateway = async (request: Request, requestId: string, query: string, variables: Record<string, unknown>) => {
    const headers: Record<string, string> = { accept: 'application/json', 'x-request-id': requestId };
    // The credential, whichever way it came: a bearer key, or a session cookie with its CSRF token.
    // And where the client connected from, which the public server wrote.
    for (const name of ['authorization', 'cookie', 'x-csrf-token', clientAddressHeader]) {
      const value = request.headers.get(name);
      if (value) headers[name] = value;
    }
    let taken: GraphQLPayload | undefined;
    // The variables as the gateway would read them from text: a key whose value is undefined is absent, not null.
    const operation = { query, variables: JSON.parse(JSON.stringify(variables)) };
    const caller: InProcessCaller = { operation, takeResult: (result) => (taken = result as GraphQLPayload) };
    const response = await options.gatewayFetch(operation, headers, caller);
    const passOn = new Headers();
    for (const name of rateLimitHeaders) {
      const value = response.headers.get(name);
      if (value !== null) passOn.set(name, value);
    }
    const payload = taken ?? ((await response.json()) as GraphQLPayload);
    return { payload, headers: passOn };
  };

  // Bad input must not hide a bad credential: before answering 400 or 413 the
  // facade asks the gateway whether the caller may make this request at all,
  // with an operation of the route's own kind (a `read` key may run the
  // queries behind a POST of the compatibility API). On a route for a
  // signed-in person (team changes, spec 5.8) an API key is refused whatever
  // its body or query, as the subgraph would refuse it with valid ones: the
  // spec shows none of those bodies, so a caller cannot be expected to get
  // one right first. A path that cannot name anything stays 404 for it.
  const credentialProblem = async (route: Route, request: Request, requestId: string, refusal: ApiError): Promise<{ error?: ApiError; headers: Headers }> => {
    const changes = usesGateway(route) ? /^\s*mutation\b/.test(route.operation) : routeMethod(request) !== 'GET';
    const probe = changes ? 'mutation { __typename }' : 'query { __typename }';
    const { payload, headers } = await callGateway(request, requestId, probe, {});
    if (payload.errors?.length) return { error: apiErrorFromGraphQL(payload.errors[0]), headers };
    if (route.credentials && refusal.code !== 'not_found' && (await sentByApiKey(request, requestId))) {
      const needed = route.credentials === 'session' ? 'the dashboard session' : 'a signed-in person (an OAuth token or a dashboard session)';
      return { error: { code: 'forbidden', message: `This needs ${needed}, not an API key` }, headers };
    }
    return { headers };
  };

  const sentByApiKey = async (request: Request, requestId: string) => {
    const { payload } = await callGateway(request, requestId, 'query { whoami { auth { kind } } }', {});
    return (payload.data as { whoami?: { auth?: { kind?: string } } } | undefined)?.whoami?.auth?.kind === 'api_key';
  };

  /** Runs a route's operation: its data, or the response its first GraphQL error stands for. */
  const runOperation = async (route: GraphQLRoute | StreamedRoute, errors: ErrorDialect, request: Request, variables: Record<string, unknown>, requestId: string) => {
    const { payload, headers } = await callGateway(request, requestId, route.operation, variables);
    if (payload.errors?.length) {
      const error = apiErrorFromGraphQL(payload.errors[0]);
      if (error.code === 'internal_error') options.log.error('GraphQL operation failed', { requestId, route: route.operationId, errors: payload.errors });
      return { refused: failure(errors, error, requestId, headers), headers };
    }
    return { data: payload.data ?? {}, headers };
  };

  const runGraphQLRoute = async (route: GraphQLRoute, errors: ErrorDialect, request: Request, restRequest: RestRequest, variables: Record<string, unknown>) => {
    const answer = await runOperation(route, errors, request, variables, restRequest.requestId);
    if (answer.refused) return answer.refused;
    const result = route.result(answer.data, restRequest);
    const { requestId } = restRequest;
    return 'error' in result ? failure(errors, result.error, requestId, answer.headers) : json(result, requestId, answer.headers);
  };

  /** Carries a streamed body to the client as it reads it (a client that goes away ends the stream, and with it the read), or only its headers. */
  const streamedResponse = (streamed: StreamedBody, requestId: string, extra: Headers, headersOnly: boolean) => {
    const headers = new Headers(extra);
    headers.set('x-request-id', requestId);
    headers.set('content-type', streamed.contentType);
    for (const [name, value] of Object.entries(streamed.headers)) headers.set(name, value);
    if (headersOnly) return new Response(null, { status: 200, headers });
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const chunk = await streamed.chunks.next();
          if (chunk.done) controller.close();
          else controller.enqueue(encoder.encode(chunk.value));
        } catch (error) {
          options.log.error('streamed response failed', { requestId, error: error instanceof Error ? error.stack : String(error) });
          controller.error(error);
        }
      },
      async cancel() {
        await streamed.chunks.return?.();
      },
    });
    return new Response(body, { status: 200, headers });
  };

  const runStreamedRoute = async (route: StreamedRoute, errors: ErrorDialect, request: Request, variables: Record<string, unknown>, requestId: string) => {
    const answer = await runOperation(route, errors, request, variables, requestId);
    if (answer.refused) return answer.refused;
    const streamed = await route.stream(answer.data, options.streamSql);
    if (!streamed) {
      options.log.error('a granted download was gone before it was streamed', { requestId, route: route.operationId });
      return failure(errors, { code: 'internal_error', message: 'Something went wrong on our side' }, requestId, answer.headers);
    }
    // A HEAD reads the headers only: the download is closed unread.
    if (request.method === 'HEAD') await streamed.chunks.return?.();
    return streamedResponse(streamed, requestId, answer.headers, request.method === 'HEAD');
  };

  const answer = async (request: Request, url: URL, table: CompiledTable): Promise<Response> => {
    const requestId = requestIdFrom(request.headers.get('x-request-id'));
    try {
      let match: { entry: CompiledRoute; segments: string[] } | undefined;
      for (const entry of table.routes) {
        if (entry.route.method !== routeMethod(request)) continue;
        const found = entry.pattern.exec(url.pathname);
        if (found) {
          match = { entry, segments: found.slice(1) };
          break;
        }
      }
      if (!match) return failure(table.errors, { code: 'not_found', message: `No route for ${request.method} ${url.pathname}` }, requestId);
      const { route } = match.entry;
      if (route.browserPage && ranksHtmlFirst(request.headers.get('accept'))) {
        return new Response(null, { status: 303, headers: { location: `${route.browserPage}${url.search}`, 'x-request-id': requestId, vary: 'Accept' } });
      }
      if (!route.public && !request.headers.get('authorization') && !sessionCookie({ request })) {
        return failure(table.errors, { code: 'unauthorized', message: 'Send an API key as "Authorization: Bearer mk_live_…"' }, requestId);
      }

      let restRequest: RestRequest;
      let variables: Record<string, unknown> = {};
      try {
        const params = decodePathParams(match.entry.paramNames, match.segments, url.pathname);
        const query = route.ignoresInput ? {} : parseQuery(route, url.searchParams);
        const { value: sent, raw: rawBody } = readsBody(route)
          ? await readBody(request, options.maxBodyBytes, !route.rawBody)
          : { value: undefined, raw: undefined };
        const body = sent === undefined && route.bodyOptional ? {} : sent;
        if (route.body) {
          if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
            throw new RequestRefusal({ code: 'validation_error', message: 'The body must be a JSON object', field: null });
          }
          // Checked here too, not only by the subgraph, so REST callers read
          // about their JSON rather than GraphQL's coercion of it (which
          // would wrap a lone string into the list it stands for). The
          // subgraph gets the body as sent and parses it itself.
          const checked = checkInput(route.body, body);
          if (!checked.success) throw inputError(checked.problems);
        }
        restRequest = { params, query, body, rawBody, headers: request.headers, requestId };
        if (usesGateway(route)) variables = route.variables(restRequest);
      } catch (error) {
        if (!(error instanceof RequestRefusal)) throw error;
        if (route.public) return failure(table.errors, error.apiError, requestId);
        const problem = await credentialProblem(route, request, requestId, error.apiError);
        return failure(table.errors, problem.error ?? error.apiError, requestId, problem.headers);
      }

      if (changesStateOnGet(route)) {
        // A HEAD is answered as the GET would be, its query checked, without spending the link.
        if (request.method === 'HEAD') {
          return new Response(null, { status: 200, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-request-id': requestId } });
        }
        // Declined as browsers expect a prefetch to be (a non-2xx answer is not kept): the person's own click then follows the link.
        if (isPrefetch(request.headers)) {
          return failure(table.errors, { code: 'prefetch_declined', message: 'This link changes something when followed; it is not prefetched. Open it to follow it', status: 503 }, requestId, new Headers({ 'cache-control': 'no-store' }));
        }
      }
      if (isStreamedRoute(route)) return await runStreamedRoute(route, table.errors, request, variables, requestId);
      if (isGraphQLRoute(route)) return await runGraphQLRoute(route, table.errors, request, restRequest, variables);
      return json(await route.handle(restRequest, options.service), requestId);
    } catch (error) {
      options.log.error('REST request failed', { requestId, error: error instanceof Error ? error.stack : String(error) });
      return failure(table.errors, { code: 'internal_error', message: 'Something went wrong on our side' }, requestId);
    }
  };

  return async function handleRestRequest(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const table = tableFor(url.pathname);
    const response = await answer(request, url, table);
    table.budgetHeaders?.(response.headers);
    if (response.status === 401) response.headers.set('www-authenticate', bearerChallenge(sentCredential(request)));
    return response;
  };
}
