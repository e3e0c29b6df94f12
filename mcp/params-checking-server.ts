import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { type AnyObjectSchema, getLiteralValue, getObjectShape, safeParse } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { maxJsonNesting, nestedDeeperThan } from '../runtime/json-nesting.ts';

/**
 * JSON-RPC's invalid params (-32602) with its message as written: the SDK's
 * McpError starts its message "MCP error -32602: ", and the SDK's client
 * puts that before the message it receives, so a client read it twice.
 */
export function invalidParams(message: string): Error {
  return Object.assign(new Error(message), { code: ErrorCode.InvalidParams });
}

interface SchemaIssue {
  path: readonly PropertyKey[];
  message: string;
}

/** A refusal of the request schema as its problems, each at its path (`params.arguments: …`), rather than zod's JSON dump of them. */
function problemsOf(error: unknown): string {
  const issues = (error as { issues?: SchemaIssue[] } | undefined)?.issues;
  if (!Array.isArray(issues)) return error instanceof Error ? error.message : String(error);
  return issues.map((issue) => `${issue.path.map(String).join('.') || 'request'}: ${issue.message}`).join('; ');
}

/**
 * The SDK's server parses each request with the schema its handler was
 * registered with and answers a failure as -32603 "internal error"; a
 * request whose params have the wrong shape (an `initialize` without
 * `protocolVersion`, a `tools/list` cursor that is a number) is the
 * client's, -32602 "invalid params" (JSON-RPC 2.0). Every handler, the SDK's
 * own `initialize` and `ping` included (its constructor registers them
 * through this method), is registered with its params left unchecked and
 * checked before it runs. Params nested deeper than any request needs are
 * refused the same way before anything walks them.
 */
export class ParamsCheckingServer extends Server {
  override setRequestHandler<T extends AnyObjectSchema>(requestSchema: T, handler: Parameters<Server['setRequestHandler']>[1]): void {
    const method = getLiteralValue(getObjectShape(requestSchema)!.method) as string;
    const unchecked = z.looseObject({ method: z.literal(method), params: z.unknown().optional() });
    // Registered as the SDK's Protocol registers a handler: the Server's own registration wraps a tools/call handler
    // in its check of the params, run first, which refuses with zod's issues as JSON after "MCP error -32602: ".
    Protocol.prototype.setRequestHandler.call(this, unchecked, (request: z.infer<typeof unchecked>, extra: Parameters<typeof handler>[1]) => {
      if (nestedDeeperThan(request.params, maxJsonNesting)) throw invalidParams(`Invalid ${method} request: the params are nested deeper than ${maxJsonNesting} levels`);
      const checked = safeParse(requestSchema, request);
      if (!checked.success) throw invalidParams(`Invalid ${method} request: ${problemsOf(checked.error)}`);
      return handler(checked.data, extra);
    });
  }
}
