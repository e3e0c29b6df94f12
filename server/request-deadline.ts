// The server adapter's own Response, as the handlers it bounds answer with.
import { Response } from '@whatwg-node/server';
import { databaseRetryAfterSeconds } from '../runtime/database-availability.ts';
import { requestIdFrom } from '../runtime/request-id.ts';
import { mcpServiceUnavailable } from '../mcp/service-unavailable.ts';
import { errorsForPath } from '../rest-facade/route-table.ts';

/**
 * The longest a request waits for its answer: the contract's 5 s, less a
 * margin for the answer to reach the client. The request pools' statement
 * timeout is shorter still, so a deadline is met only when the database
 * does not answer at all (frozen, or the network to it gone quiet).
 */
export const requestDeadlineMs = 4500;

/**
 * What a request past its deadline is told, from the database's last known
 * status: most often the database stopped answering, but a request may
 * also run out of time with the database well (an outside service slow to
 * answer, a process too busy), and saying "the database" then sends whoever
 * reads it the wrong way. Without a status the cause is left unsaid.
 */
export function lateAnswerMessage(database?: { up: boolean }): string {
  const late = `No answer within ${requestDeadlineMs / 1000} s`;
  if (!database) return `${late}; retry shortly`;
  if (!database.up) return `${late}: the database is not answering; retry shortly`;
  return `${late}: the request took too long, though the database answers; retry shortly`;
}

/**
 * Bounds a request handler: a request it has not answered in time gets
 * `late(request, ...context)`, and what the handler answers after that is dropped.
 */
export function answerWithin<Context extends unknown[]>(
  handler: (request: Request, ...context: Context) => Promise<Response> | Response,
  late: (request: Request, ...context: Context) => Response,
  ms = requestDeadlineMs,
): (request: Request, ...context: Context) => Promise<Response> {
  return (request, ...context) =>
    new Promise((resolve, reject) => {
      const deadline = setTimeout(() => resolve(late(request, ...context)), ms);
      Promise.resolve()
        .then(() => handler(request, ...context))
        .then(resolve, reject)
        .finally(() => clearTimeout(deadline));
    });
}

const lateHeaders = (requestId: string) => ({
  'content-type': 'application/json; charset=utf-8',
  'retry-after': String(databaseRetryAfterSeconds),
  'x-request-id': requestId,
});

/** The REST answer to a request past its deadline: 503 `service_unavailable` in the envelope of the API it asked. */
export function lateRestResponse(request: Request, message: string): Response {
  const requestId = requestIdFrom(request.headers.get('x-request-id'));
  const errors = errorsForPath(new URL(request.url).pathname);
  const body = errors.body({ code: 'service_unavailable', message, retryAfterSeconds: databaseRetryAfterSeconds }, requestId);
  return new Response(JSON.stringify(body), { status: 503, headers: lateHeaders(requestId) });
}

/** The MCP answer to a request past its deadline: 503 with a JSON-RPC error. */
export function lateMcpResponse(request: Request, message: string): Response {
  return mcpServiceUnavailable(requestIdFrom(request.headers.get('x-request-id')), message);
}

/** The GraphQL answer to a request past its deadline: the same error as a GraphQL error, status 503. */
export function lateGraphQLResponse(request: Request, message: string): Response {
  const requestId = requestIdFrom(request.headers.get('x-request-id'));
  const errors = [{ message, extensions: { code: 'service_unavailable', retryAfterSeconds: databaseRetryAfterSeconds, requestId } }];
  return new Response(JSON.stringify({ errors }), { status: 503, headers: lateHeaders(requestId) });
}

/**
 * Whether the request's body was still arriving (the server adapter's
 * context holds Node's request): a client that declared a body and did not
 * send it in time is answered 408 `request_timeout`, its own delay, where a
 * 503 would have blamed the service and told it to send the same again.
 */
export const bodyStillArriving = (context: unknown[]): boolean => (context[0] as { req?: { complete?: boolean } } | undefined)?.req?.complete === false;

export const bodyTimeoutMessage = `The request body did not arrive within ${requestDeadlineMs / 1000} s of its headers`;

/** The answer to a request whose body did not arrive in time: 408 `request_timeout` in the envelope of the API it asked. */
export function bodyTimeoutResponse(request: Request, api: 'rest' | 'graphql' | 'mcp'): Response {
  const requestId = requestIdFrom(request.headers.get('x-request-id'));
  const error = { code: 'request_timeout', message: bodyTimeoutMessage };
  const body =
    api === 'rest'
      ? errorsForPath(new URL(request.url).pathname).body(error, requestId)
      : api === 'graphql'
        ? { errors: [{ message: error.message, extensions: { code: error.code, requestId } }] }
        : { jsonrpc: '2.0', id: null, error: { code: -32000, message: error.message, data: { code: error.code, requestId } } };
  return new Response(JSON.stringify(body), { status: 408, headers: { 'content-type': 'application/json; charset=utf-8', connection: 'close', 'x-request-id': requestId } });
}
