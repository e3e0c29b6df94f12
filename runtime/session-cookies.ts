/** The value of cookie `name` in a `Cookie` header, if it is there. */
export function cookieValue(header: string | null | undefined, name: string): string | undefined {
  const match = new RegExp(`(?:^|;\\s*)${name}=([^;\\s]+)`).exec(header ?? '');
  return match?.[1];
}

/** The dashboard session's cookie (issue 13): what the gateway authenticates and the sign-in routes set. */
export const sessionCookieName = 'earshot_session';

/**
 * `Set-Cookie` values for the session cookie (HttpOnly: no script reads it)
 * and the CSRF cookie (readable, so the dashboard can repeat it in
 * `X-CSRF-Token`). SameSite=Lax keeps both off cross-site subrequests;
 * Secure when Earshot is served over https. `expires` is an `Expires=` or
 * `Max-Age=` attribute.
 */
export function sessionCookies(values: { session: string; csrf: string }, attributes: { expires: string; secure: boolean }): string[] {
  const common = `Path=/; SameSite=Lax; ${attributes.expires}${attributes.secure ? '; Secure' : ''}`;
  return [`${sessionCookieName}=${values.session}; HttpOnly; ${common}`, `earshot_csrf=${values.csrf}; ${common}`];
}
