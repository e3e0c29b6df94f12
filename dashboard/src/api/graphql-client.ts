import type { TypedDocumentString } from '../graphql/graphql';
import { ApiError, notifySignedOut } from './api-error';

/** The value of the readable `earshot_csrf` cookie, which every change made with the session cookie repeats in `X-CSRF-Token`. */
export function csrfToken(): string | undefined {
  const match = /(?:^|;\s*)earshot_csrf=([^;]+)/.exec(document.cookie);
  return match?.[1];
}

type Variables<V> = V extends Record<string, never> ? [] : [V];

/**
 * Runs a typed operation on `/graphql` with the session cookie. Errors become
 * an `ApiError` with the spec's code; an ended session sends the app back to
 * sign-in.
 */
export async function execute<R, V>(document: TypedDocumentString<R, V>, ...[variables]: Variables<V>): Promise<R> {
  const token = csrfToken();
  let response: Response;
  try {
    response = await fetch('/graphql', {
      method: 'POST',
      credentials: 'same-origin',
      headers: {
        'content-type': 'application/json',
        accept: 'application/graphql-response+json, application/json',
        ...(token ? { 'x-csrf-token': token } : {}),
      },
      body: JSON.stringify({ query: document.toString(), variables: variables ?? {} }),
    });
  } catch {
    throw new ApiError('network_error', '', 0);
  }
  const body = (await response.json().catch(() => ({}))) as {
    data?: R | null;
    errors?: { message: string; extensions?: { code?: string; field?: string } }[];
  };
  const [first] = body.errors ?? [];
  if (first) {
    const error = new ApiError(first.extensions?.code ?? 'internal_error', first.message, response.status, first.extensions?.field);
    if (error.code === 'unauthorized') notifySignedOut();
    throw error;
  }
  if (!body.data) throw new ApiError('internal_error', '', response.status);
  return body.data;
}
