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

/**
 * Reads with `preferred`; when the server answers one of `statuses` there
 * (an API it does not serve), reads with `fallback` instead. When the
 * fallback is refused with one of those statuses too, the server serves
 * neither and the first refusal is the one told; any other failure of the
 * fallback (a 5xx, a broken body, no answer) is its own and is told as it is.
 */
export async function readWithFallback<T>(preferred: () => Promise<T>, fallback: () => Promise<T>, statuses: readonly number[]): Promise<T> {
  const refusedWith = (error: unknown) => error instanceof UpstreamError && error.status !== undefined && statuses.includes(error.status);
  try {
    return await preferred();
  } catch (error) {
    if (!refusedWith(error)) throw error;
    return fallback().catch((fallbackError: unknown) => {
      throw refusedWith(fallbackError) ? error : fallbackError;
    });
  }
}
