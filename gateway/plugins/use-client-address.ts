import type { GatewayPlugin } from '@graphql-hive/gateway-runtime';
import type { IncomingMessage } from 'node:http';
import { clientAddressHeader } from '../../runtime/client-address.ts';

/**
 * Puts the address the client connected from on the context, for the
 * subgraphs to receive signed (the sign-in limits count per address). Over
 * HTTP it is the header the public server wrote from the socket (and the
 * facade passed on); over graphql-ws, the socket of the upgrade request.
 * Nothing a client sends can set it.
 */
export function useClientAddress(): GatewayPlugin {
  return {
    onContextBuilding({ context, extendContext }) {
      const { request, req } = context as { request?: Request; req?: IncomingMessage };
      const address = request?.headers.get(clientAddressHeader) || req?.socket.remoteAddress || null;
      extendContext({ clientAddress: address } as never);
    },
  };
}
