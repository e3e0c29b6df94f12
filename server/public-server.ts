import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { getGraphQLWSOptions, type GatewayRuntime } from '@graphql-hive/gateway-runtime';
import { createServerAdapter } from '@whatwg-node/server';
import { type ExecutionResult, type FormattedExecutionResult, GraphQLError, type GraphQLFormattedError } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { type WebSocket, WebSocketServer } from 'ws';
import { isOAuthPath } from '../oauth/metadata.ts';
import { clientAddressHeader } from '../runtime/client-address.ts';
import { sameLoopbackOrigin } from '../runtime/loopback-origin.ts';
import { sessionCookie } from '../gateway/request-state.ts';
import { withRequestId } from '../gateway/plugins/use-request-id.ts';
import { type ApiError, errorBody, statusOf } from '../rest-facade/error-envelope.ts';
import { octolensErrors } from '../rest-facade/octolens/octolens-errors.ts';
import { requestIdFrom } from '../runtime/request-id.ts';
import type { DashboardFiles } from './dashboard-files.ts';
import { answerUnparsableRequest } from './unparsable-request.ts';
import {
  answerWithin,
  bodyStillArriving,
  bodyTimeoutResponse,
  lateAnswerMessage,
  lateGraphQLResponse,
  lateMcpResponse,
  lateRestResponse,
} from './request-deadline.ts';

/** The first path segments of the APIs. */
const apiRoots: ReadonlySet<string> = new Set(['graphql', 'v1', 'compat', 'mcp', 'oauth', '.well-known', 'api']);

/**
 * Paths that belong to the APIs, never to the dashboard (`/compat`,
 * `/graphql/` and `//v1//…` as much as `/v1/…`), and those shaped like an
 * API of another version (`/v2/…`, spec 9.1: the version is the path
 * prefix): an unknown one is the envelope's 404, not the app's page.
 */
const isApiPath = (path: string) => {
  const root = path.split('/').find(Boolean) ?? '';
  return apiRoots.has(root) || /^v\d+$/i.test(root);
};

/**
 * Whether a request (a graphql-ws upgrade, an MCP call) comes from a page of
 * Earshot's own origin: its `Origin` is the public origin or, without one
 * configured, the origin the request reached. No `Origin` at all is a client
 * that is no browser, which no other site can drive.
 */
function fromOwnOrigin(req: http.IncomingMessage, publicOrigin: string | undefined): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  if (publicOrigin) return origin === publicOrigin;
  const scheme = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  const reached = `${scheme}://${req.headers.host}`;
  return origin === reached || sameLoopbackOrigin(origin, reached);
}

/**
 * Whether a request to `/graphql` (HTTP or a graphql-ws upgrade) would act
 * with the session cookie for a page of another site: the cookie is its only credential (a bearer header
 * wins over it) and its `Origin` is not Earshot's own. SameSite=Lax keeps
 * the cookie off most of those, but not off a page of the same site on
 * another port or subdomain, which CORS would then let read the answer and,
 * with the CSRF cookie it can read too, make changes.
 */
const crossSiteSession = (req: http.IncomingMessage, publicOrigin: string | undefined): boolean =>
  req.headers.authorization === undefined && sessionCookie({ upgradeRequest: req }) !== undefined && !fromOwnOrigin(req, publicOrigin);

/** The refusal of a cross-site request with the session cookie (403 `forbidden`). */
const crossSiteSessionRefusal = (req: http.IncomingMessage): ApiError => ({
  code: 'forbidden',
  message: `Cross-site request refused: a page of ${req.headers.origin} may not act with the session cookie; send an API key or access token as a bearer`,
});

/** A refusal written as GraphQL writes errors, for the clients of `/graphql`. */
const graphqlErrorsBody = (error: ApiError, requestId: string) => ({ errors: [{ message: error.message, extensions: { code: error.code, requestId } }] });

/**
 * MCP Streamable HTTP transport: a server validates `Origin` against DNS
 * rebinding and answers a present, invalid one 403, with a JSON-RPC error
 * that has no id.
 */
function refuseForeignMcpOrigin(req: http.IncomingMessage, res: http.ServerResponse): void {
  const requestId = requestIdFrom(req.headers['x-request-id'] as string | undefined);
  res.writeHead(403, { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: `Forbidden: Origin ${req.headers.origin} is not Earshot's own` }, id: null }));
}

/**
 * A result as graphql-ws sends it: without `extensions.http`, the status
 * and headers GraphQL Yoga reads for an HTTP answer and drops from it. A
 * socket has neither, and sent the field on (`"http":{"spec":true,"status":400}`
 * beside a validation error) where the same error over HTTP carries none.
 */
function withoutHttpExtensions(result: ExecutionResult): FormattedExecutionResult | undefined {
  if (!result.errors?.some((error) => error.extensions?.http !== undefined)) return undefined;
  return {
    ...result,
    errors: result.errors.map((error) => {
      const { extensions, ...rest } = typeof error.toJSON === 'function' ? error.toJSON() : (error as GraphQLFormattedError);
      const { http: _http, ...kept } = extensions ?? {};
      return Object.keys(kept).length > 0 ? { ...rest, extensions: kept } : rest;
    }),
  };
}

/**
 * One id per request, whichever part answers it (spec 4: every response
 * carries X-Request-Id, the OAuth endpoints' and the dashboard's too): the
 * inbound one when acceptable, else a new one the parts take as inbound.
 */
function stampRequestId(req: http.IncomingMessage, res: http.ServerResponse): void {
  const requestId = requestIdFrom(req.headers['x-request-id'] as string | undefined);
  req.headers['x-request-id'] = requestId;
  res.setHeader('x-request-id', requestId);
}

/**
 * Whether the request carries `Authorization` more than once: Node keeps
 * the first and drops the others, so a request with two credentials acted
 * silently with the first. Read from the raw header list, which keeps them all.
 */
function repeatsAuthorization(req: http.IncomingMessage): boolean {
  let sent = 0;
  for (let at = 0; at < req.rawHeaders.length; at += 2) if (req.rawHeaders[at].toLowerCase() === 'authorization') sent++;
  return sent > 1;
}

const severalAuthorizations: ApiError = { code: 'validation_error', message: 'Send one Authorization header: this request carries several', field: null };

/**
 * The paths of the APIs whose requests Earshot's own code reads: the OAuth
 * endpoints' library reads its requests itself (their credentials, and the
 * content codings of its form bodies).
 */
const readsRequestItself = (path: string) => path === '/graphql' || path === '/mcp' || path.startsWith('/v1/') || path.startsWith('/compat/');

/**
 * The content coding of a request's body when it is one the API does not
 * decode (RFC 9110 8.4), or undefined: read as it came, a gzip body was
 * "not valid JSON", and a plain body that only claimed gzip was acted on.
 */
function unreadCoding(req: http.IncomingMessage): string | undefined {
  const coding = req.headers['content-encoding']?.trim().toLowerCase();
  const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  return coding && coding !== 'identity' && hasBody ? coding : undefined;
}

/** The envelope a refusal is written in: Octolens's under `/compat/`, spec 7's everywhere else. */
const envelopeFor = (path: string): ((error: ApiError, requestId: string) => unknown) => (path.startsWith('/compat/') ? octolensErrors.body : errorBody);

/**
 * What every request is checked for before it is routed, an upgrade's as
 * much as any other's: its request id stamped, its target read in absolute
 * form too (RFC 9112 3.2.2: a server must take `GET http://host/v1/…`, as a
 * proxy sends it), its Host (RFC 9112 3.2: an HTTP/1.1 request without one
 * is a 400) and its credential sent once on an API path.
 */
function admit(req: http.IncomingMessage, res: http.ServerResponse): { path: string; refusal?: ApiError } {
  // Written over whatever the client sent, so no client can pass for another address.
  req.headers[clientAddressHeader] = req.socket.remoteAddress ?? '';
  stampRequestId(req, res);
  if (/^https?:\/\//i.test(req.url ?? '') && URL.canParse(req.url!)) {
    const target = new URL(req.url!);
    req.url = target.pathname + target.search;
  }
  const path = (req.url ?? '/').split('?')[0];
  if (req.headers.host === undefined && req.httpVersion === '1.1') {
    res.setHeader('connection', 'close');
    return { path, refusal: { code: 'validation_error', message: 'An HTTP/1.1 request must carry a Host header', field: null } };
  }
  if (repeatsAuthorization(req) && readsRequestItself(path)) {
    return { path, refusal: severalAuthorizations };
  }
  const coding = unreadCoding(req);
  if (coding !== undefined && readsRequestItself(path)) {
    // RFC 9110 15.5.16: a 415 for a content coding names the codings the server takes.
    res.setHeader('accept-encoding', 'identity');
    return { path, refusal: { code: 'validation_error', status: 415, message: `Content-Encoding: ${coding} is not decoded here: send the body as it is, without a content coding`, field: null } };
  }
  return { path };
}

/**
 * A response on the socket of an upgrade request, for which Node makes
 * none: a refused upgrade is answered as any request is, in the envelope
 * with its X-Request-Id, and the connection closes after it.
 */
function responseOnUpgradeSocket(req: http.IncomingMessage, socket: Duplex): http.ServerResponse {
  const res = new http.ServerResponse(req);
  res.shouldKeepAlive = false;
  res.assignSocket(socket as Socket);
  res.once('finish', () => {
    res.detachSocket(socket as Socket);
    socket.once('finish', () => socket.destroy());
    socket.end();
  });
  return res;
}

/**
 * Operations one graphql-ws connection may have running at once (README
 * "Limits"). The dashboard holds a handful; each subscription with its own
 * variables holds a subscription to the subgraphs, some 100 kB, so ten
 * thousand subscribed at once on one socket took 1.8 GB and left every other
 * request unanswered for half a minute. One over the limit is refused alone,
 * with an error message for its id; the connection and its others go on.
 */
const maxOperationsPerConnection = 100;

const tooManyOperations = () => [
  new GraphQLError(`This connection already runs ${maxOperationsPerConnection} operations, the most one may; complete one, or open another connection`, {
    extensions: { code: 'too_many_operations' },
  }),
];

/** How long a stopping server waits for requests in flight. */
const drainSeconds = 5;

export interface PublicServerOptions {
  host: string;
  port: number;
  gateway?: GatewayRuntime;
  facade?: (request: Request) => Promise<Response>;
  /** The MCP tool server at `/mcp`. */
  mcp?: (request: Request) => Promise<Response>;
  /** The OAuth authorization server: `/oauth/…` and its `/.well-known/` documents. */
  oauth?: (req: http.IncomingMessage, res: http.ServerResponse) => void;
  /**
   * The origin of `EARSHOT_PUBLIC_URL` when it is set: the only origin whose
   * pages may open graphql-ws with the session cookie. Unset, a page of the
   * origin the upgrade reached (its `Host`) may.
   */
  publicOrigin?: string;
  /** The built dashboard, served at `/` and its client-side routes; without it those paths are 404. */
  dashboard?: DashboardFiles;
  /** The database's last known status, which a request past its deadline is told the cause from. */
  databaseStatus?: () => { up: boolean };
  /**
   * The largest graphql-ws message read (`EARSHOT_MAX_BODY_BYTES`, as an
   * HTTP body): a larger one closes its connection with 1009 (Message Too
   * Big). Default 1 MiB.
   */
  maxMessageBytes?: number;
}

export interface PublicServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * The adapter writes a response's `statusText` as the status line's reason
 * phrase: the MCP SDK's responses, built with the platform's `Response`,
 * carry none, so their lines ended bare (`HTTP/1.1 401 `) where every other
 * answer of the port names its status.
 */
function withReasonPhrase<Context extends unknown[]>(handler: (request: Request, ...context: Context) => Promise<Response>): (request: Request, ...context: Context) => Promise<Response> {
  return async (request, ...context) => {
    const response = await handler(request, ...context);
    if (response.statusText || !http.STATUS_CODES[response.status]) return response;
    return new Response(response.body, { status: response.status, statusText: http.STATUS_CODES[response.status], headers: response.headers });
  };
}

/**
 * The one public port: `/graphql` (HTTP and graphql-ws) goes to the gateway,
 * `/v1/…` and `/compat/…` to the REST facade, `/mcp` to the MCP tool server,
 * `/oauth/…` and the OAuth `/.well-known/` documents to the authorization
 * server, any other GET to the dashboard (its assets, or its page for a
 * client-side route); anything else is a 404 in the spec's envelope. Every
 * HTTP request is answered within the request deadline.
 */
export async function startPublicServer(options: PublicServerOptions): Promise<PublicServer> {
  const late =
    (answer: (request: Request, message: string) => Response, api: 'rest' | 'graphql' | 'mcp') =>
    (request: Request, ...context: unknown[]) =>
      bodyStillArriving(context) ? bodyTimeoutResponse(request, api) : answer(request, lateAnswerMessage(options.databaseStatus?.()));
  const facade = options.facade ? createServerAdapter(answerWithin(options.facade, late(lateRestResponse, 'rest'))) : undefined;
  const mcp = options.mcp ? createServerAdapter(withReasonPhrase(answerWithin(options.mcp, late(lateMcpResponse, 'mcp')))) : undefined;
  const gateway = options.gateway;
  const graphql = gateway
    ? createServerAdapter(answerWithin((request: Request, context: object) => gateway.handle(request, context), late(lateGraphQLResponse, 'graphql')))
    : undefined;
  const refuse = (req: http.IncomingMessage, res: http.ServerResponse, error: ApiError, envelope: (error: ApiError, requestId: string) => unknown = errorBody) => {
    const requestId = req.headers['x-request-id'] as string;
    const body = JSON.stringify(envelope(error, requestId));
    res.writeHead(statusOf(error), { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), 'x-request-id': requestId });
    res.end(body);
  };
  const notFound = (req: http.IncomingMessage, res: http.ServerResponse) => refuse(req, res, { code: 'not_found', message: `No route for ${req.method} ${req.url}` });
  // While the server stops, the requests still in flight and any that still
  // come on an open connection are answered with `Connection: close`, so
  // that no client sends another on a connection about to be cut.
  let stopping = false;
  const inFlight = new Set<http.ServerResponse>();
  // Node answers a missing Host, and an Expect it does not know, itself with an empty body; here they are the envelope's.
  const answerRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (stopping) res.setHeader('connection', 'close');
    inFlight.add(res);
    res.once('close', () => {
      inFlight.delete(res);
      if (stopping) server.closeIdleConnections();
    });
    const { path, refusal } = admit(req, res);
    if (refusal) return refuse(req, res, refusal, envelopeFor(path));
    if (graphql && path === '/graphql') return void (crossSiteSession(req, options.publicOrigin) ? refuse(req, res, crossSiteSessionRefusal(req), graphqlErrorsBody) : graphql(req, res));
    if (facade && (path.startsWith('/v1/') || path.startsWith('/compat/'))) return void facade(req, res);
    if (mcp && path === '/mcp') return void (fromOwnOrigin(req, options.publicOrigin) ? mcp(req, res) : refuseForeignMcpOrigin(req, res));
    if (options.oauth && isOAuthPath(path)) return options.oauth(req, res);
    if (options.dashboard && !isApiPath(path) && (req.method === 'GET' || req.method === 'HEAD') && options.dashboard.serve(req, res, path)) return;
    notFound(req, res);
  };
  const server = http.createServer({ requireHostHeader: false }, answerRequest);
  server.on('clientError', answerUnparsableRequest);
  // RFC 9110 10.1.1: an expectation other than 100-continue is answered 417.
  server.on('checkExpectation', (req: http.IncomingMessage, res: http.ServerResponse) => {
    stampRequestId(req, res);
    res.setHeader('connection', 'close');
    refuse(req, res, { code: 'expectation_failed', message: `Expect: ${req.headers.expect} is not an expectation this server meets; only 100-continue is` });
  });

  // A port already taken fails the start (and so stops what started before it) instead of waiting for ever.
  // It is bound before graphql-ws joins the server, which would print its own stack of the same failure.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });

  let wsServer: { dispose(): unknown } | undefined;
  // Node hands every request asking to switch protocols to this listener, whatever its path, and
  // the ws package answers the upgrades it refuses in plain text: each refusal is the envelope here.
  const wss = gateway
    ? new WebSocketServer({
        noServer: true,
        // The ws package reads messages of up to 100 MiB: a 30 MB operation ran where its HTTP body was refused 413.
        maxPayload: options.maxMessageBytes ?? 1024 * 1024,
      })
    : undefined;
  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node leaves the socket of an upgrade without an error listener: a client gone mid-answer must not stop the server.
    socket.on('error', () => socket.destroy());
    const answer = responseOnUpgradeSocket(req, socket);
    const { path, refusal } = admit(req, answer);
    const refuseUpgrade = (error: ApiError) => refuse(req, answer, error, envelopeFor(path));
    if (refusal) return refuseUpgrade(refusal);
    if (req.headers.upgrade?.toLowerCase() !== 'websocket') {
      // RFC 9110 7.8: a server may ignore an Upgrade it does not offer (`h2c`, as curl --http2 asks): a request
      // without a body, which Node has read whole, is answered over HTTP/1.1; one with a body is refused.
      if (req.headers['transfer-encoding'] === undefined && Number(req.headers['content-length'] ?? 0) === 0) return answerRequest(req, answer);
      return refuseUpgrade({ code: 'validation_error', message: `Upgrade: ${req.headers.upgrade} is not a protocol this server switches to; send the request without it`, field: null });
    }
    if (!wss || path !== '/graphql') return refuseUpgrade({ code: 'not_found', message: `No WebSocket endpoint at ${path}: only /graphql takes an upgrade` });
    // A browser sends the session cookie with any page's upgrade; a page of another site must not
    // subscribe as the signed-in user, so an upgrade carrying the cookie from a foreign Origin is refused.
    if (crossSiteSession(req, options.publicOrigin)) {
      return refuseUpgrade({ code: 'forbidden', message: `Cross-site upgrade refused: a page of ${req.headers.origin} may not subscribe with the session cookie` });
    }
    answer.detachSocket(socket as Socket);
    wss.handleUpgrade(req, socket, head, (webSocket) => wss.emit('connection', webSocket, req));
  });
  // A handshake the ws package cannot take (no GET, no Sec-WebSocket-Key, an unknown version…).
  wss?.on('wsClientError', (error: Error, socket: Duplex, req: http.IncomingMessage) => {
    const res = responseOnUpgradeSocket(req, socket);
    const version = req.headers['sec-websocket-version'];
    // RFC 6455 4.4: a refused version is answered with the versions the server speaks.
    if (version !== '13' && version !== '8') res.setHeader('sec-websocket-version', '13, 8');
    refuse(req, res, { code: 'validation_error', message: `Not a WebSocket handshake this server takes: ${error.message}`, field: null });
  });
  if (wss && gateway) {
    // Connections whose credential stopped working while they were subscribed.
    const credentialEnded = new WeakSet<object>();
    const graphqlWsOptions = getGraphQLWSOptions<Record<string, unknown>, { request: http.IncomingMessage; socket: WebSocket }>(gateway, (ctx) => ({
      connectionParams: ctx.connectionParams,
      upgradeRequest: ctx.extra.request,
      // Before validation, which runs ahead of the gateway's context building, so that its errors carry an id too.
      requestId: requestIdFrom(undefined),
      credentialEnded: () => credentialEnded.add(ctx),
    }));
    wsServer = useServer(
      {
        ...graphqlWsOptions,
        // The operation being subscribed is among the connection's already, its id taken.
        onSubscribe: (ctx, id, payload) =>
          Object.keys(ctx.subscriptions).length > maxOperationsPerConnection ? tooManyOperations() : graphqlWsOptions.onSubscribe!(ctx, id, payload),
        onNext: (_ctx, _id, _payload, args, result) => {
          const requestId = (args.contextValue as { requestId?: string } | undefined)?.requestId;
          const stamped = requestId ? withRequestId(result as ExecutionResult, requestId) : (result as ExecutionResult);
          return withoutHttpExtensions(stamped) ?? (stamped === result ? undefined : stamped);
        },
        // Every operation of a connection acts with its one credential: once that stopped working and the
        // connection's last subscription was told so, the connection is closed as graphql-ws closes one whose
        // credential is refused (4403 Forbidden), the complete message sent first.
        onComplete(ctx, id) {
          if (!credentialEnded.has(ctx) || Object.keys(ctx.subscriptions).some((other) => other !== id)) return;
          setImmediate(() => ctx.extra.socket.close(4403, 'Forbidden: the credential stopped working'));
        },
      },
      wss,
    );
  }

  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    async close() {
      stopping = true;
      for (const res of inFlight) if (!res.headersSent) res.setHeader('connection', 'close');
      // Stop taking connections, close the idle ones, let the requests in
      // flight finish for a few seconds, then cut what is left.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const drainLimit = setTimeout(() => server.closeAllConnections(), drainSeconds * 1000);
      await wsServer?.dispose();
      await closed;
      clearTimeout(drainLimit);
    },
  };
}
