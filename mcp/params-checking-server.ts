import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { type AnyObjectSchema, getLiteralValue, getObjectShape, safeParse } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { maxJsonNesting, nestedDeeperThan } from '../runtime/json-nesting.ts';

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
    super.setRequestHandler(unchecked, (request, extra) => {
      if (nestedDeeperThan(request.params, maxJsonNesting)) throw new McpError(ErrorCode.InvalidParams, `Invalid ${method} request: the params are nested deeper than ${maxJsonNesting} levels`);
      const checked = safeParse(requestSchema, request);
      if (!checked.success) throw new McpError(ErrorCode.InvalidParams, `Invalid ${method} request: ${checked.error instanceof Error ? checked.error.message : String(checked.error)}`);
      return handler(checked.data, extra);
    });
  }
}
