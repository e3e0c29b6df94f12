import type { GatewayPlugin } from '@graphql-hive/gateway-runtime';
import { type ExecutionResult, isAsyncIterable } from '@graphql-tools/utils';

/**
 * What a caller in the gateway's own process (the REST facade of the
 * all-in-one role) passes as the server context of its request: a result
 * that succeeded is handed to it as the object, not written to JSON for the
 * caller to parse back.
 */
export interface InProcessCaller {
  takeResult(result: ExecutionResult): void;
}

const isInProcessCaller = (context: unknown): context is InProcessCaller =>
  typeof (context as Partial<InProcessCaller> | undefined)?.takeResult === 'function';

/**
 * A result with data only (no errors, no extensions: nothing that sets the
 * status or headers) goes to an in-process caller as the object, and the
 * HTTP response carries no body; the plugins' headers (rate limits) are
 * still set on it. Over HTTP, and for any result with errors, the answer
 * is the usual JSON.
 */
export function useInProcessResults(): GatewayPlugin {
  return {
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
