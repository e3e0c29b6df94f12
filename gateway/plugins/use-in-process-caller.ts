import type { GatewayPlugin } from '@graphql-hive/gateway-runtime';
import { type ExecutionResult, isAsyncIterable } from '@graphql-tools/utils';

/** A GraphQL operation as the gateway's request parser would read it from a query string or body. */
export interface GraphQLOperation {
  query: string;
  variables: Record<string, unknown>;
}

/**
 * What a caller in the gateway's own process (the REST facade of the
 * all-in-one role) attaches to its request (`inProcessRequest`): the
 * operation as the object, and a callback that takes a result that
 * succeeded as the object, so neither is written to text for the other
 * side to parse back.
 */
export interface InProcessCaller {
  operation: GraphQLOperation;
  takeResult(result: ExecutionResult): void;
}

/**
 * The callers of requests made in this process, by request. Not the server
 * context: the server adapter copies a context it is given property by
 * property onto a new object, which then stays slow to read and extend for
 * every plugin of the request.
 */
const callers = new WeakMap<Request, InProcessCaller>();

/** Marks a request the caller hands the gateway (its `handleRequest`) as made in this process: `caller` gives the operation and takes the result. */
export function inProcessRequest(request: Request, caller: InProcessCaller): Request {
  callers.set(request, caller);
  return request;
}

/**
 * An in-process caller's operation is read from the caller rather
 * than from a query string or a JSON body: no URL to encode and parse back,
 * no variables as text. The request still carries the method and headers
 * (credential, request id), which the other plugins read as from any client.
 *
 * A result with data only (no errors, no extensions: nothing that sets the
 * status or headers) goes to an in-process caller as the object, and the
 * HTTP response carries no body; the plugins' headers (rate limits) are
 * still set on it. Over HTTP, and for any result with errors, the answer
 * is the usual JSON.
 */
export function useInProcessCaller(): GatewayPlugin {
  return {
    // Runs after GraphQL Yoga's own request parsers, whichever of them matched.
    onRequestParse({ request, setRequestParser }) {
      const caller = callers.get(request);
      if (caller) setRequestParser(() => caller.operation);
    },
    onResultProcess({ request, result, setResultProcessor }) {
      const caller = callers.get(request);
      if (!caller || isAsyncIterable(result) || Array.isArray(result)) return;
      const single = result as ExecutionResult;
      if (single.errors?.length || single.extensions) return;
      setResultProcessor(
        (_result, fetchAPI) => {
          caller.takeResult(single);
          return new fetchAPI.Response(null, { status: 200 });
        },
        'application/json',
      );
    },
  };
}
