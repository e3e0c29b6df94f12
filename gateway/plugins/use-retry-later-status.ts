import type { GatewayPlugin } from '@graphql-hive/gateway-runtime';
import { isAsyncIterable } from '@graphql-tools/utils';
import type { ExecutionResult, GraphQLError } from 'graphql';
import { withExtensions } from '../error-extensions.ts';

/** The codes a client should retry after a wait, and the HTTP status each is answered with (spec 7: 429 with Retry-After). */
const retryLaterStatus: Record<string, number> = { rate_limited: 429, service_unavailable: 503 };

const retryAfterOf = (error: GraphQLError): number | undefined => {
  const seconds = error.extensions?.retryAfterSeconds;
  return retryLaterStatus[error.extensions?.code as string] !== undefined && typeof seconds === 'number' && seconds > 0 ? seconds : undefined;
};

/**
 * A result with no data whose errors include one a client should retry
 * later, raised in a subgraph (the export's 6 a minute, a database away
 * while a field was resolved), is answered as the gateway's own refusals
 * of that kind are and as the REST API answers it: 429 or 503 with
 * `Retry-After` (the longest wait asked), not 200 without a header. A
 * result carrying data keeps 200: part of it was answered.
 */
export function useRetryLaterStatus(): GatewayPlugin {
  return {
    onResultProcess({ result, setResult }) {
      if (Array.isArray(result) || isAsyncIterable(result)) return;
      const single = result as ExecutionResult;
      if (single.data != null || !single.errors?.length) return;
      const waits = single.errors.map(retryAfterOf).filter((seconds): seconds is number => seconds !== undefined);
      if (waits.length === 0 || single.errors.some((error) => error.extensions?.http !== undefined)) return;
      const retryAfter = String(Math.max(...waits));
      setResult({
        ...single,
        errors: single.errors.map((error) => {
          const status = retryAfterOf(error) === undefined ? undefined : retryLaterStatus[error.extensions.code as string];
          if (status === undefined) return error;
          return withExtensions(error, { http: { status, headers: { 'retry-after': retryAfter } } });
        }),
      });
    },
  };
}
