import type { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** A REST request after the facade has read it. */
export interface RestRequest {
  params: Record<string, string>;
  /** Query parameters as the route's `query` schema parsed them. */
  query: Record<string, any>;
  body: unknown;
  /** The body exactly as received, for routes that verify a signature over it (the payment provider's webhook). */
  rawBody: string | undefined;
  headers: Headers;
  /** The request's `X-Request-Id`, which an error envelope repeats. */
  requestId: string;
}

/** What a local route may ask of the running service. */
export interface ServiceState {
  /** Whether the database answers now. */
  databaseStatus(): Promise<{ up: boolean; reason?: string }>;
}

/** What a route answers: a status and a JSON body (none for 204). */
export interface RestResult {
  status: number;
  body?: unknown;
  /** A list sets the header once per value (`Set-Cookie`). */
  headers?: Record<string, string | string[]>;
}

export interface RouteResponse {
  description: string;
  schema?: z.ZodType;
}

interface RouteBase {
  method: HttpMethod;
  /** OpenAPI-style path, `{name}` for a parameter. */
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  /** Public routes need no credential. */
  public?: boolean;
  body?: z.ZodType;
  /**
   * The body is not JSON and reaches the route only as `rawBody`, unparsed
   * (Slack's form-encoded, signed interactivity requests; a mail program's
   * one-click unsubscribe). The schema documents its form fields.
   */
  rawBody?: z.ZodObject;
  /** Query parameters; each property of the object is one parameter. */
  query?: z.ZodObject;
  responses: Record<number, RouteResponse>;
}

/** A route that runs one GraphQL operation on the gateway. */
export interface GraphQLRoute extends RouteBase {
  operation: string;
  variables(request: RestRequest): Record<string, unknown>;
  result(data: Record<string, any>): RestResult;
}

/** A route the facade answers itself (health, the OpenAPI document). */
export interface LocalRoute extends RouteBase {
  handle(request: RestRequest, service: ServiceState): RestResult | Promise<RestResult>;
}

export type Route = GraphQLRoute | LocalRoute;

export const isGraphQLRoute = (route: Route): route is GraphQLRoute => 'operation' in route;
