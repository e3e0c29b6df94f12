import { UpstreamError } from '../../runtime/upstream-http.ts';

/**
 * For a call that only adds detail to what a search found: the platform's
 * failure (an error status, a refusal, a broken body, an endpoint a proxy
 * does not serve) gives `fallback()` so the search's posts are kept; any
 * other error is a bug and still throws.
 */
export function whenUpstreamFails<T>(fallback: () => T): (error: unknown) => T {
  return (error) => {
    if (error instanceof UpstreamError) return fallback();
    throw error;
  };
}
