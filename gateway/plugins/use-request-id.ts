import type { GatewayPlugin } from '@graphql-hive/gateway-runtime';
import { requestIdFrom } from '../../runtime/request-id.ts';

/**
 * Gives every operation a request id (the client's `X-Request-Id` when
 * acceptable), puts it on the context for logs and subgraphs, and echoes it
 * in the `X-Request-Id` response header.
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
      const request = (context as { request?: Request }).request;
      extendContext({ requestId: request ? idOf(request) : requestIdFrom(undefined) } as never);
    },
    onResponse({ request, response }) {
      response.headers.set('x-request-id', idOf(request));
    },
  };
}
