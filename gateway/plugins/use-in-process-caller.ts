import type { GatewayPlugin } from '@graphql-hive/gateway-runtime';
import { type ExecutionResult, isAsyncIterable } from '@graphql-tools/utils';

/** A GraphQL operation as the gateway's request parser would read it from a query string or body. */
export interface GraphQLOperation {
  query: string;
  variables: Record<string, unknown>;
}

/**
 * What a caller in the gateway's own process (the REST facade of the
 * all-in-one role) passes as the server context of its request: the
 * operation as the object, and a callback that takes a result that
 * succeeded as the object, so neither is written to text for the other
 * side to parse back.
 */
export interface InProcessCaller {
  operation: GraphQLOperation;
  takeResult(result: ExecutionResult): void;
}

const isInProcessCaller = (context: unknown): context is InProcessCaller =>
  typeof (context as Partial<InProcessCaller> | undefined)?.takeResult === 'function';

/**
 * An in-process caller's operation is read from its server context rather
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
    onRequestParse({ serverContext, setRequestParser }) {
      if (!isInProcessCaller(serverContext)) return;
      const { operation } = serverContext;
      setRequestParser(() => operation);
    },
    onResultProcess({ result, serverContext, setResultProcessor }) {
      if (!isInProcessCaller(serverContext) || isAsyncIterable(result) || Array.isArray(result)) return;
      const single = result as ExecutionResult;
      if (single.errors?.length || single.extensions) return;
      setResultProcessor(
        (_result, fetchAPI) => {
          serverContext.takeResult(single);
          return new fetchAPI.Response(null, { status: 200 });
        },
        'application/json',
      );
    },
  };
}
