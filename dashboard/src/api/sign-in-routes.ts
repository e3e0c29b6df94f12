import { ApiError } from './api-error';
import { csrfToken } from './graphql-client';

/**
 * Signing in, out and between workspaces, and accepting an invitation, go
 * through the REST routes under `/v1/auth/` and `/v1/invitation/`: only an
 * HTTP response can set the HttpOnly session cookie.
 * Everything else the dashboard does goes through `/graphql`.
 */
async function authRequest(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
  const token = csrfToken();
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { 'x-csrf-token': token } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError('network_error', '', 0);
  }
  const text = await response.text();
  const parsed = text ? (JSON.parse(text) as { error?: { code: string; message: string; field?: string } }) : undefined;
  if (!response.ok) {
    const error = parsed?.error;
    throw new ApiError(error?.code ?? 'internal_error', error?.message ?? '', response.status, error?.field);
  }
  return parsed;
}

export const signInWithPassword = (email: string, password: string) => authRequest('POST', '/v1/auth/password', { email, password });
export const sendMagicLink = (email: string) => authRequest('POST', '/v1/auth/magic-link', { email });
export const signInWithLink = (token: string) => authRequest('GET', `/v1/auth/magic-link/verify?token=${encodeURIComponent(token)}`);
export const switchWorkspace = (workspaceId: string) => authRequest('POST', '/v1/auth/switch-workspace', { workspaceId });
export const signOut = () => authRequest('POST', '/v1/auth/sign-out');
export const acceptInvitation = (token: string) => authRequest('POST', '/v1/invitation/accept', { token });
export const declineInvitation = (token: string) => authRequest('POST', '/v1/invitation/decline', { token });
