import { isUtf8 } from 'node:buffer';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, type CallToolResult, JSONRPCMessageSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { bearerToken } from '../gateway/request-state.ts';
import { type ApiError, errorBody } from '../rest-facade/error-envelope.ts';
import { rateLimitHeaders } from '../rest-facade/facade.ts';
import type { Route } from '../rest-facade/route.ts';
import { routeTable } from '../rest-facade/route-table.ts';
import { readBoundedBody } from '../runtime/bounded-body.ts';
import { databaseUnavailableMessage, isDatabaseUnavailable } from '../runtime/database-availability.ts';
import type { RequestAuth } from '../runtime/gateway-signature.ts';
import type { Logger } from '../runtime/logger.ts';
import { requestIdFrom } from '../runtime/request-id.ts';
import { checkInput } from '../subgraphs/validate-input.ts';
import { admittingOptionalNulls, type JsonSchema, withoutOptionalNulls } from './optional-nulls.ts';
import { invalidParams, ParamsCheckingServer } from './params-checking-server.ts';
import { mcpServiceUnavailable } from './service-unavailable.ts';
import { type McpTool, mcpTools, type RouteRequest } from './tools.ts';

export interface McpEndpointOptions {
  /** The REST API in this process: a tool is one of its routes, run on the gateway, answering what REST answers. */
  restApi(request: Request): Promise<Response>;
  /** What a bearer secret (an API key or an OAuth access token) acts as, as the gateway resolves it; undefined when it is not live. */
  authenticate(secret: string): Promise<RequestAuth | undefined>;
  /** The protected-resource metadata of `/mcp` (RFC 9728) as the request's client finds it, named in the 401 challenge so clients find the authorization server. */
  resourceMetadataUrl(request: Request): string;
  /** The scopes a client asks the authorization server for (RFC 6750 3 `scope`), named in the 401 challenge. */
  scopes: readonly string[];
  /** The largest request body read (`EARSHOT_MAX_BODY_BYTES`); the SDK's transport answers a larger one 413 in a JSON-RPC error. */
  maxBodyBytes: number;
  log: Logger;
}

const instructions =
  'Earshot tracks mentions of keywords (brands, competitors, topics) on developer and social platforms, review sites and feeds, ' +
  'scores each for relevance, sentiment and intent, and alerts channels. Start with search_mentions or list_keywords; ' +
  'ids look like mm_… (mentions), kw_… (keywords), per_… (people), feed_… (alert rules), dest_… (channels). Money is in USD cents. ' +
  'A failed call says why, starting with an error code such as not_found or validation_error.';

function json(status: number, body: unknown, headers: Record<string, string>): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers } });
}

/** The query parameters of a tool's request as the URL carries them: lists comma-separated, as the REST filters take them. */
function searchParams(query: Record<string, unknown> = {}): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.set(name, Array.isArray(value) ? value.join(',') : String(value));
  }
  return params;
}

/**
 * Set when a tool's route answered 503 `service_unavailable` (the database
 * away): the whole call is then answered as every other API answers it
 * meanwhile, HTTP 503 with `Retry-After`, not as a tool's failure on a 200
 * (operating contract, "database lost").
 */
interface Outage {
  message?: string;
}

/** The id of a single JSON-RPC request, which its answer carries; null for a batch or a body not parsed. */
function jsonRpcId(body: unknown): string | number | null {
  const id = body && typeof body === 'object' && !Array.isArray(body) ? (body as { id?: unknown }).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

const toolError = (error: ApiError): CallToolResult => ({ isError: true, content: [{ type: 'text', text: `${error.code}: ${error.message}` }] });

/** JSON that does not parse: the SDK's transport answers it -32700 Parse error. */
const unparsed = Symbol('unparsed');

function parsedJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return unparsed;
  }
}

/** Whether parsed JSON is a JSON-RPC message or a batch of them. */
const isJsonRpc = (body: unknown) => (Array.isArray(body) ? body : [body]).every((message) => JSONRPCMessageSchema.safeParse(message).success);

/**
 * The request with its body read, and the body parsed when it is whole JSON
 * (handed to the transport, which then reads neither the request's body nor
 * a copy of it), or
 * JSON-RPC's error: a parse error when the body is not UTF-8 (the SDK's
 * transport decodes it leniently, so bytes that are not UTF-8 in a tool's
 * arguments were stored as U+FFFD; such a body is no JSON, RFC 8259 8.1),
 * and an invalid request for JSON that is no JSON-RPC message, nor a batch
 * of them (JSON-RPC 2.0; the transport answers it -32700, which is for JSON
 * that does not parse). A body over the limit, cut off or not parsing goes
 * on as read, for the transport to refuse as it does.
 */
async function readMcpBody(request: Request, maxBytes: number, requestId: string): Promise<{ request: Request; parsedBody?: unknown } | Response> {
  if (!request.body) return { request };
  let read: { bytes: Buffer; whole: boolean };
  try {
    read = await readBoundedBody(request, maxBytes);
  } catch {
    return json(400, { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: the body was cut off or badly framed' }, id: null }, { 'x-request-id': requestId });
  }
  if (read.whole && !isUtf8(read.bytes)) {
    return json(400, { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: Invalid JSON' }, id: null }, { 'x-request-id': requestId });
  }
  const body = read.whole ? parsedJson(read.bytes) : unparsed;
  if (body !== unparsed && !isJsonRpc(body)) {
    return json(400, { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request: the body is JSON but not a JSON-RPC 2.0 message (or batch of them) of MCP' }, id: null }, { 'x-request-id': requestId });
  }
  if (body !== unparsed) return { request, parsedBody: body };
  return { request: new Request(request.url, { method: request.method, headers: request.headers, body: Uint8Array.from(read.bytes), signal: request.signal }) };
}

/**
 * `/mcp`: the MCP tool server over the official SDK's Streamable HTTP
 * transport, stateless (any process of a deployment answers any request).
 * A request needs an API key or an OAuth access token; without a live one
 * it is 401 with the `WWW-Authenticate` challenge of the MCP authorization
 * spec, naming the protected-resource metadata. A `read` credential sees
 * and calls the read tools only. A tool runs one REST route in process,
 * with the caller's credential, so the rate limit, scopes and error codes
 * are REST's; a failure is a tool error (`isError`) starting with its code,
 * except the database being away, which is the HTTP 503 every API answers.
 */
export function createMcpEndpoint(options: McpEndpointOptions): (request: Request) => Promise<Response> {
  const routes = new Map<string, Route>(routeTable.map((route) => [route.operationId, route]));
  for (const each of mcpTools) {
    if (!routes.has(each.operationId)) throw new Error(`MCP tool ${each.name} names no REST route ${each.operationId}`);
  }
  const argumentSchemas = new Map(mcpTools.map((each) => [each.name, z.toJSONSchema(each.input, { io: 'input' }) as JsonSchema]));
  const listed = mcpTools.map((each) => ({
    name: each.name,
    title: each.title,
    description: each.description,
    inputSchema: admittingOptionalNulls(argumentSchemas.get(each.name)!) as { type: 'object' },
    annotations: { title: each.title, readOnlyHint: each.readOnly, destructiveHint: false },
  }));

  const runTool = async (each: McpTool, request: RouteRequest, secret: string, requestId: string, budget: Headers, outage: Outage): Promise<CallToolResult> => {
    const route = routes.get(each.operationId)!;
    // The arguments were checked already: no lone surrogate, which encodeURIComponent throws on, reaches here.
    const path = route.path.replace(/\{(\w+)\}/g, (_match, name: string) => encodeURIComponent(request.params?.[name] ?? ''));
    const search = searchParams(request.query).toString();
    const answer = await options.restApi(
      new Request(`http://mcp.internal${path}${search ? `?${search}` : ''}`, {
        method: route.method,
        headers: { authorization: `Bearer ${secret}`, 'x-request-id': requestId, ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: request.body !== undefined ? JSON.stringify(request.body) : undefined,
      }),
    );
    for (const name of rateLimitHeaders) {
      const value = answer.headers.get(name);
      if (value !== null) budget.set(name, value);
    }
    const text = await answer.text();
    const body = text ? JSON.parse(text) : undefined;
    if (answer.status === 503 && body?.error?.code === 'service_unavailable') outage.message = body.error.message;
    if (answer.status >= 400) return toolError(body.error);
    return {
      content: [{ type: 'text', text: text || 'Done.' }],
      ...(body && typeof body === 'object' && !Array.isArray(body) ? { structuredContent: body } : {}),
    };
  };

  const serverFor = (auth: RequestAuth, secret: string, requestId: string, budget: Headers, outage: Outage) => {
    const visible = new Set(mcpTools.filter((each) => auth.scope === 'write' || each.readOnly).map((each) => each.name));
    const server = new ParamsCheckingServer({ name: 'earshot', title: 'Earshot', version: '0.0.1' }, { capabilities: { tools: {} }, instructions });
    server.setRequestHandler(ListToolsRequestSchema, ({ params }) => {
      // MCP spec, pagination: an invalid cursor is invalid params. The list is one page and gives no cursor, so every cursor is one.
      if (params?.cursor !== undefined) throw invalidParams('Invalid cursor: the tool list is one page and gives no cursor');
      return { tools: listed.filter((each) => visible.has(each.name)) };
    });
    server.setRequestHandler(CallToolRequestSchema, async ({ params }) => {
      const called = mcpTools.find((each) => each.name === params.name);
      // MCP spec, tools, error handling: an unknown tool is a protocol error (invalid params), not a result of a tool.
      if (!called) throw invalidParams(`Unknown tool: ${params.name}`);
      if (!visible.has(called.name)) return toolError({ code: 'read_only_key', message: `${called.name} changes the workspace; this credential may only read` });
      const args = withoutOptionalNulls(params.arguments ?? {}, argumentSchemas.get(called.name)!);
      const checked = checkInput(called.input, args);
      if (!checked.success) return toolError({ code: 'validation_error', message: checked.problems[0].message });
      try {
        return await runTool(called, called.request(args as never), secret, requestId, budget, outage);
      } catch (error) {
        options.log.error('MCP tool failed', { requestId, tool: called.name, error: error instanceof Error ? error.stack : String(error) });
        return toolError({ code: 'internal_error', message: 'Something went wrong on our side' });
      }
    });
    return server;
  };

  const unauthorized = (request: Request, requestId: string, secretSent: boolean) => {
    const resourceMetadataUrl = options.resourceMetadataUrl(request);
    const message = secretSent ? 'The API key or access token is invalid, expired or revoked' : 'Send an API key or an OAuth access token as "Authorization: Bearer …"';
    // MCP authorization spec: a 401 names the resource metadata, where the client finds the authorization server, and
    // (2025-11-25, SHOULD) the scopes to ask for, which a client takes before the metadata's scopes_supported.
    const described = `scope="${options.scopes.join(' ')}", resource_metadata="${resourceMetadataUrl}"`;
    const challenge = secretSent ? `Bearer error="invalid_token", error_description="${message}", ${described}` : `Bearer ${described}`;
    return json(401, errorBody({ code: 'unauthorized', message }, requestId), { 'www-authenticate': challenge, 'x-request-id': requestId });
  };

  return async function handleMcpRequest(request: Request): Promise<Response> {
    const requestId = requestIdFrom(request.headers.get('x-request-id'));
    const secret = bearerToken({ request });
    let auth: RequestAuth | undefined;
    try {
      auth = secret ? await options.authenticate(secret) : undefined;
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      return mcpServiceUnavailable(requestId, databaseUnavailableMessage);
    }
    if (!secret || !auth) return unauthorized(request, requestId, Boolean(secret));
    // Stateless: no stream for server-sent requests (GET) and no session to end (DELETE).
    if (request.method !== 'POST') {
      return json(405, { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this server takes POST only' }, id: null }, { allow: 'POST', 'x-request-id': requestId });
    }
    const checked = await readMcpBody(request, options.maxBodyBytes, requestId);
    if (checked instanceof Response) return checked;
    const budget = new Headers();
    const outage: Outage = {};
    const server = serverFor(auth, secret, requestId, budget, outage);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true, maxRequestBodySize: options.maxBodyBytes });
    await server.connect(transport);
    try {
      let response = await transport.handleRequest(checked.request, { parsedBody: checked.parsedBody });
      if (outage.message !== undefined) response = mcpServiceUnavailable(requestId, outage.message, jsonRpcId(checked.parsedBody));
      response.headers.set('x-request-id', requestId);
      for (const [name, value] of budget) response.headers.set(name, value);
      return response;
    } finally {
      await server.close();
    }
  };
}
