import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * An `error_description` as RFC 6749 (5.2, 4.1.2.1) allows it: printable
 * ASCII without `"` and `\`. The MCP SDK's handlers put a zod error's JSON
 * there (line breaks, quotes, brackets); it becomes one line per problem,
 * `field: what is wrong`.
 */
export function readableDescription(description: string): string {
  let text = description;
  try {
    const issues = JSON.parse(description) as unknown;
    if (Array.isArray(issues) && issues.length > 0 && issues.every((issue) => typeof issue?.message === 'string')) {
      text = issues
        .map((issue: { path?: unknown[]; message: string }) => {
          const field = (issue.path ?? []).join('.');
          if (!field) return issue.message;
          return /received undefined$/.test(issue.message) ? `${field} is required` : `${field}: ${issue.message}`;
        })
        .join('; ');
    }
  } catch {
    // Not JSON: a sentence already.
  }
  return text
    .replace(/"/g, "'")
    .replace(/…/g, '...')
    .replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]+/g, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();
}

/** OAuth's own error JSON (RFC 6749 5.2). */
export const oauthFailure = (res: Response, status: number, error: string, description: string) =>
  res.status(status).set('cache-control', 'no-store').json({ error, error_description: description });

/** The parameters of the request, from its query (GET) or its form (POST), as the SDK's handlers read them. */
const requestParameters = (req: Request): Record<string, unknown> => ((req.method === 'POST' ? req.body : req.query) ?? {}) as Record<string, unknown>;

/**
 * Every JSON error of the `/oauth/` endpoints with a description RFC 6749
 * allows, and every error redirect of the authorization endpoint as RFC
 * 6749 4.1.2.1 and RFC 9207 want it: `state` whenever the request had one
 * (the SDK leaves it out when a parameter fails its check), `iss` (the
 * metadata says the server sends it), `unsupported_response_type` for a
 * response type other than `code`, and a readable description.
 */
export function oauthErrorAnswers(issuer: string): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      const error = body as { error?: unknown; error_description?: unknown } | null;
      if (typeof error?.error === 'string' && typeof error.error_description === 'string') {
        return json({ ...error, error_description: readableDescription(error.error_description) });
      }
      return json(body);
    };
    const redirect = res.redirect.bind(res) as (status: number, url: string) => void;
    res.redirect = ((first: number | string, second?: string) => {
      const [status, url] = typeof first === 'number' ? [first, second!] : [302, first];
      const target = new URL(url, issuer);
      if (!target.searchParams.has('error')) return redirect(status, url);
      const params = requestParameters(req);
      if (target.searchParams.get('error') === 'invalid_request' && typeof params.response_type === 'string' && params.response_type !== 'code') {
        target.searchParams.set('error', 'unsupported_response_type');
        target.searchParams.set('error_description', 'Earshot answers response_type code only');
      }
      const description = target.searchParams.get('error_description');
      if (description !== null) target.searchParams.set('error_description', readableDescription(description));
      if (!target.searchParams.has('state') && typeof params.state === 'string') target.searchParams.set('state', params.state);
      target.searchParams.set('iss', issuer);
      redirect(status, target.href);
    }) as Response['redirect'];
    next();
  };
}

/**
 * The client of a token or revocation request names itself by `client_id`
 * in the form: every client is public (no secret), so there is no other
 * client authentication. Without it the request is `invalid_client` (RFC
 * 6749 5.2: no client authentication included); a client that tried the
 * `Authorization` header instead gets 401 and a `WWW-Authenticate` of its
 * scheme, as 5.2 requires. A body that is not a form is `invalid_request`
 * (RFC 6749 3.2).
 */
export function publicClientIdentification(issuer: string): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'POST') return next();
    const answer = (status: number, error: string, description: string) => oauthFailure(res.set('access-control-allow-origin', '*'), status, error, description);
    if (!req.is('application/x-www-form-urlencoded')) {
      return answer(400, 'invalid_request', 'Send the parameters as application/x-www-form-urlencoded');
    }
    if (typeof (req.body as Record<string, unknown> | undefined)?.client_id === 'string') return next();
    const scheme = /^\s*([!#$%&'*+.^`|~\w-]+)/.exec(req.get('authorization') ?? '')?.[1];
    if (scheme) {
      res.set('www-authenticate', `${scheme} realm="${issuer}"`);
      return answer(401, 'invalid_client', 'Clients of Earshot are public: name the client by client_id in the form, with no secret and no Authorization header');
    }
    answer(400, 'invalid_client', 'client_id is required');
  };
}
