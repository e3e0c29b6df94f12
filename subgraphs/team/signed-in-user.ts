import type { RequestAuth } from '../../runtime/gateway-signature.ts';
import { domainError, notFound } from '../domain-error.ts';
import { requireAuth } from '../require-auth.ts';
import type { SubgraphContext } from '../subgraph-server.ts';

export type SignedInAuth = RequestAuth & { userId: string };

/**
 * The caller as a person: a dashboard session (later an OAuth token), never
 * an API key, which stands for no one (spec 5.8). `refusal` says what the
 * key may not do. When the request names a record (`target`), an id naming
 * nothing of this workspace is `not_found` first, whoever asks, as on every
 * other id route.
 */
export async function requireSignedInUser(
  ctx: SubgraphContext,
  refusal: string,
  target?: { what: string; exists(workspaceId: string): Promise<boolean> },
): Promise<SignedInAuth> {
  const auth = requireAuth(ctx);
  if (auth.kind === 'api_key' || !auth.userId) {
    if (target && !(await target.exists(auth.workspaceId))) throw notFound(target.what);
    throw domainError('forbidden', refusal);
  }
  return auth as SignedInAuth;
}
