import type { RequestAuth } from '../../runtime/gateway-signature.ts';
import { domainError } from '../domain-error.ts';
import { requireAuth } from '../require-auth.ts';
import type { SubgraphContext } from '../subgraph-server.ts';

export type SignedInAuth = RequestAuth & { userId: string };

/**
 * The caller as a person: a dashboard session or an OAuth token, never an API
 * key, which stands for no one (spec 4.5, 5.8). `refusal` says what the key
 * may not do. The credential is refused before any id it names is looked up:
 * a key may change no member or invitation, whichever it names.
 */
export function requireSignedInUser(ctx: SubgraphContext, refusal: string): SignedInAuth {
  const auth = requireAuth(ctx);
  if (auth.kind === 'api_key' || !auth.userId) throw domainError('forbidden', refusal);
  return auth as SignedInAuth;
}
