import type { GatewayPlugin } from '@graphql-hive/gateway-runtime';
import { isAsyncIterable, mapAsyncIterator } from '@graphql-tools/utils';
import { type ExecutionResult, GraphQLError, type GraphQLFormattedError } from 'graphql';
import { requestIdFrom } from '../../runtime/request-id.ts';
import { withExtensions } from '../error-extensions.ts';

const withRequestIdOn = (error: GraphQLError | GraphQLFormattedError, requestId: string): GraphQLError | GraphQLFormattedError =>
  error instanceof GraphQLError ? withExtensions(error, { requestId }) : { ...error, extensions: { ...error.extensions, requestId } };

/**
 * The result with `extensions.requestId` on each of its errors, as the REST
 * envelope carries `requestId` (spec 7): a GraphQL client quotes the same id
 * for the same failure. Results without errors are returned as they are.
 */
export function withRequestId<Result extends ExecutionResult>(result: Result, requestId: string): Result {
  if (!result.errors?.length) return result;
  return { ...result, errors: result.errors.map((error) => withRequestIdOn(error, requestId)) };
}

/**
 * Gives every operation a request id (the client's `X-Request-Id` when
 * acceptable), puts it on the context for logs and subgraphs, echoes it in
 * the `X-Request-Id` response header and in every error's
 * `extensions.requestId`. A graphql-ws operation comes with its id on the
 * context (the public server gives each one), where the public server reads
 * it back for the errors of its results.
 */
export function useRequestId(): GatewayPlugin {
  const ids = new WeakMap<Request, string>();
  const idOf = (request: Request) => {
    let id = ids.get(request);
    if (!id) {
      id = requestIdFrom(request.headers.get('x-request-id'));
      ids.set(request, id);
    }
    return id;
  };
  return {
    onContextBuilding({ context, extendContext }) {
      const { request, requestId } = context as { request?: Request; requestId?: string };
      extendContext({ requestId: request ? idOf(request) : (requestId ?? requestIdFrom(undefined)) } as never);
    },
    onResultProcess({ request, result, setResult }) {
      const requestId = idOf(request);
      if (isAsyncIterable<ExecutionResult>(result)) setResult(mapAsyncIterator(result, (each) => withRequestId(each, requestId)) as never);
      else if (Array.isArray(result)) setResult(result.map((each) => withRequestId(each, requestId)) as never);
      else if ((result as ExecutionResult).errors?.length) setResult(withRequestId(result as ExecutionResult, requestId) as never);
    },
    onResponse({ request, response }) {
      response.headers.set('x-request-id', idOf(request));
    },
  };
}
