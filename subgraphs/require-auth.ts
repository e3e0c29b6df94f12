import type { RequestAuth } from '../runtime/gateway-signature.ts';
import { domainError } from './domain-error.ts';
import type { SubgraphContext } from './subgraph-server.ts';

/** The caller's workspace and scope; every workspace-scoped resolver starts here. */
export function requireAuth(ctx: SubgraphContext): RequestAuth {
  if (!ctx.auth) throw domainError('unauthorized', 'A valid API key is required');
  return ctx.auth;
}
