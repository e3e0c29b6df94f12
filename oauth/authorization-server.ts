import { isUtf8 } from 'node:buffer';
import type http from 'node:http';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { authorizationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/authorize.js';
import { metadataHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/metadata.js';
import { clientRegistrationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/register.js';
import { revocationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/revoke.js';
import { tokenHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/token.js';
import type { Clock } from '../runtime/clock.ts';
import { publicUrl } from '../runtime/config.ts';
import { databaseRetryAfterSeconds, databaseUnavailableMessage, isDatabaseUnavailable } from '../runtime/database-availability.ts';
import type { Sql } from '../runtime/database.ts';
import type { Logger } from '../runtime/logger.ts';
import { requestIdFrom } from '../runtime/request-id.ts';
import type { OAuthLifetimes } from '../subgraphs/team/index.ts';
import { earshotOAuthProvider } from './earshot-oauth-provider.ts';
import { oauthErrorAnswers, oauthFailure, publicClientIdentification } from './error-answers.ts';
import { authorizationServerMetadata, oauthPaths, protectedResourceMetadata, resourceBase } from './metadata.ts';
import { createBrowserSteps } from './sign-in-and-consent.ts';

export interface AuthorizationServerOptions {
  sql: Sql;
  /** Where `EARSHOT_PUBLIC_URL` (the issuer) and the mail settings come from. */
  env: NodeJS.ProcessEnv;
  clock: Clock;
  lifetimes: OAuthLifetimes;
  log: Logger;
  /** Whether the database answered its last probe; while it does not, the endpoints answer 503 at once. */
  databaseUp(): boolean;
}

/** Client registrations one address may make an hour. */
const registrationLimit = { windowMs: 3_600_000, max: 1_000 };

/**
 * A resource's RFC 9728 document, naming the resource where the request
 * found it (`resourceBase`: the issuer, or a loopback alias of a loopback
 * issuer); one SDK handler per name.
 */
function resourceMetadataHandler(issuer: string, resourcePath = ''): RequestHandler {
  const handlers = new Map<string, RequestHandler>();
  return (req, res, next) => {
    const base = resourceBase(issuer, `${req.protocol}://${req.get('host')}`);
    let handler = handlers.get(base);
    if (!handler) handlers.set(base, (handler = metadataHandler(protectedResourceMetadata(issuer, resourcePath, base))));
    handler(req, res, next);
  };
}

/** A body parser's check that the bytes are UTF-8, failing the read as the client's (400) where they are not. */
function refuseNonUtf8(_req: unknown, _res: unknown, body: Buffer): void {
  if (!isUtf8(body)) throw Object.assign(new Error('The body is not valid UTF-8'), { status: 400, description: 'The request body is not valid UTF-8: send JSON encoded as UTF-8' });
}

/**
 * The OAuth 2.1 authorization server on the public port: RFC 8414 and RFC
 * 9728 metadata, dynamic client registration (RFC 7591), the authorization
 * code flow with PKCE S256 behind the dashboard's sign-in and a consent
 * page, refresh-token rotation and revocation (RFC 7009). The protocol
 * handlers are the MCP TypeScript SDK's; the team subgraph keeps the state.
 * Answers Node's request and response, as express does.
 */
export function createAuthorizationServer(options: AuthorizationServerOptions): (req: http.IncomingMessage, res: http.ServerResponse) => void {
  const { log } = options;
  const issuer = publicUrl(options.env);
  const browser = createBrowserSteps({ sql: options.sql, env: options.env, clock: options.clock, issuer });
  const provider = earshotOAuthProvider({ sql: options.sql, clock: options.clock, issuer, lifetimes: options.lifetimes, authorize: browser.authorize });

  const app = express();
  app.disable('x-powered-by');
  // An issuer with a path (EARSHOT_PUBLIC_URL behind a proxy's prefix) has its documents where RFC 8414 3.1 and RFC 9728
  // 3.1 put them, the well-known name followed by that path, which is what MCP clients ask for first; the bare names stay
  // for a proxy that strips the prefix. The more specific paths go first: a general one would take them as sub-paths.
  const issuerPath = new URL(issuer).pathname.replace(/\/$/, '');
  for (const path of new Set([issuerPath, ''])) {
    app.use(oauthPaths.authorizationServerMetadata + path, metadataHandler(authorizationServerMetadata(issuer)));
    app.use(`${oauthPaths.protectedResourceMetadata}${path}/mcp`, resourceMetadataHandler(issuer, '/mcp'));
    app.use(oauthPaths.protectedResourceMetadata + path, resourceMetadataHandler(issuer));
  }
  app.use('/oauth', (_req: Request, res: Response, next: NextFunction) => {
    if (options.databaseUp()) return next();
    res.set('retry-after', String(databaseRetryAfterSeconds));
    oauthFailure(res, 503, 'temporarily_unavailable', databaseUnavailableMessage);
  });
  app.use('/oauth', oauthErrorAnswers(issuer));
  for (const path of [oauthPaths.token, oauthPaths.revoke]) app.use(path, express.urlencoded({ extended: false }), publicClientIdentification(issuer));
  // The SDK's per-address limits (token and revocation 50, authorization 100 a quarter hour, registration 20 an hour) are
  // off where a secret of 256 bits is what stands guard: one address (a proxy's, an office's, a test suite's) would lock
  // everyone behind it out of signing in. The sign-in forms keep their own limits (team subgraph); registration, which
  // stores a row for anyone who asks, keeps one wide enough for every client behind one address.
  app.use(oauthPaths.authorize, authorizationHandler({ provider, rateLimit: false }));
  app.use(oauthPaths.token, tokenHandler({ provider, rateLimit: false }));
  // The registration handler's own JSON parser decodes leniently: a client_name with bytes that are not UTF-8 was stored
  // with U+FFFD. JSON is UTF-8 (RFC 8259 8.1); read here first, the handler's parser finds the body read already.
  app.use(oauthPaths.register, express.json({ verify: refuseNonUtf8 }));
  app.use(oauthPaths.register, clientRegistrationHandler({ clientsStore: provider.clientsStore, rateLimit: registrationLimit }));
  app.use(oauthPaths.revoke, revocationHandler({ provider, rateLimit: false }));
  app.use(browser.routes);
  app.use((req: Request, res: Response) => {
    const requestId = requestIdFrom(req.get('x-request-id'));
    res.status(404).set('x-request-id', requestId).json({ error: { code: 'not_found', message: `No route for ${req.method} ${req.path}`, requestId } });
  });
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    if (isDatabaseUnavailable(error)) {
      res.set('retry-after', String(databaseRetryAfterSeconds));
      return oauthFailure(res, 503, 'temporarily_unavailable', databaseUnavailableMessage);
    }
    // The body parsers' refusals (a body over their limit, malformed JSON or form) are the client's: OAuth's invalid_request with their status.
    const status = (error as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      const described = (error as { description?: unknown }).description;
      const description = typeof described === 'string' ? described : status === 413 ? 'The request body is too large' : 'The request body could not be read';
      return oauthFailure(res, status, 'invalid_request', description);
    }
    log.error('OAuth request failed', { path: req.path, error: error instanceof Error ? error.stack : String(error) });
    oauthFailure(res, 500, 'server_error', 'Something went wrong on our side');
  });
  return app;
}
