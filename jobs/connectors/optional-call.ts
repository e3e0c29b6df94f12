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

/**
 * Reads at `preferred`; once a server answers 404 there (an older version
 * of the API, a proxy serving only the other), reads at `fallback` from
 * then on. Both paths must answer the same shape.
 */
export function pathWithFallback(preferred: string, fallback: string): <T>(read: (path: string) => Promise<T>) => Promise<T> {
  let path = preferred;
  return async (read) => {
    try {
      return await read(path);
    } catch (error) {
      if (!(error instanceof UpstreamError && error.status === 404 && path !== fallback)) throw error;
      path = fallback;
      return read(path);
    }
  };
}
