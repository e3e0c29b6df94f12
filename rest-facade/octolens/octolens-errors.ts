import { z } from 'zod';
import type { ApiError, ErrorDialect } from '../route.ts';
import { statusOf } from '../error-envelope.ts';

/**
 * Our codes that Octolens names differently (spec 4.8); every other code
 * is shown upper-case. The status stays the one spec part 7 gives the code.
 */
const octolensNames: Record<string, string> = {
  invalid_token: 'UNAUTHORIZED',
  read_only_key: 'FORBIDDEN',
  invalid_cursor: 'VALIDATION_ERROR',
  duplicate_keyword: 'ITEM_EXISTS',
  insufficient_balance: 'QUOTA_EXCEEDED',
};

export const octolensCode = (code: string): string => octolensNames[code] ?? code.toUpperCase();

export const octolensErrorSchema = z
  .object({
    error: z.object({
      code: z.string().meta({ description: 'Stable upper-case code: branch on it, never on `message`', example: 'VALIDATION_ERROR' }),
      message: z.string(),
      status: z.number().int().meta({ description: 'The HTTP status, repeated' }),
      details: z
        .array(z.object({ path: z.array(z.string()), message: z.string() }))
        .optional()
        .meta({ description: 'On `VALIDATION_ERROR`: every problem found in the input, the first being `message`; `path` names the field (empty for the whole input)' }),
      retryAfterSeconds: z.number().int().optional().meta({ description: 'On `RATE_LIMITED`: mirrors `Retry-After`' }),
    }),
  })
  .meta({ id: 'OctolensError' });

/** Every problem of a refused input, each with the path of its field (empty for the whole input). */
function validationDetails(error: ApiError) {
  const problems = error.problems ?? (error.field ? [{ field: error.field, message: error.message }] : []);
  return problems.map((problem) => ({ path: problem.field ? problem.field.split('.') : [], message: problem.message }));
}

function octolensErrorBody(error: ApiError) {
  const code = octolensCode(error.code);
  return {
    error: {
      code,
      message: error.message,
      status: statusOf(error),
      ...(code === 'VALIDATION_ERROR' ? { details: validationDetails(error) } : {}),
      ...(error.retryAfterSeconds !== undefined ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
    },
  };
}

/** Octolens's envelope `{ error: { code, message, status } }` with upper-case codes (spec 4.8). */
export const octolensErrors: ErrorDialect = {
  body: octolensErrorBody,
  schema: octolensErrorSchema,
  shared: {
    badQuery: 'A query parameter the route does not take, or a bad value of one (`VALIDATION_ERROR`, `details` naming each problem)',
    payloadTooLarge: 'The body is larger than the largest a request may send, 1 MiB by default (`PAYLOAD_TOO_LARGE`)',
    deadCredential: 'The route needs no credential, but the one sent is invalid, expired or revoked (`UNAUTHORIZED`)',
    rateLimited: 'Over the workspace budget of 600 requests a minute, shared with `/v1` and MCP (`RATE_LIMITED`, with `Retry-After`)',
    unavailable: 'The database is lost, frozen or restarting (`SERVICE_UNAVAILABLE`): retry after `Retry-After` seconds',
    internal: 'Unexpected failure (`INTERNAL_ERROR`)',
  },
};
