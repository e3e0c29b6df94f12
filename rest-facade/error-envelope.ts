import { z } from 'zod';
import { variableCoercion } from '../gateway/variable-coercion.ts';
import type { ApiError, ErrorDialect } from './route.ts';

export type { ApiError } from './route.ts';

/** HTTP status of each error code of spec part 7; unknown codes are 500s. */
const statusByCode: Record<string, number> = {
  unauthorized: 401,
  invalid_token: 401,
  forbidden: 403,
  read_only_key: 403,
  protected_user: 403,
  validation_error: 400,
  invalid_cursor: 400,
  filter_too_complex: 400,
  // Not in spec part 7's list: a GraphQL operation over the gateway's limits (README "Limits").
  query_too_complex: 400,
  schedule_required: 400,
  hourly_email_unsupported: 400,
  invalid_assignee: 400,
  invalid_member: 400,
  invalid_signature: 400,
  not_found: 404,
  unknown_channel: 404,
  payload_too_large: 413,
  // Not in spec part 7's list: what Node's HTTP parser refuses before the facade sees the request.
  headers_too_large: 431,
  request_timeout: 408,
  expectation_failed: 417,
  rate_limited: 429,
  duplicate_keyword: 409,
  duplicate_segment: 409,
  duplicate_view: 409,
  duplicate_group: 409,
  already_member: 409,
  group_changed: 409,
  default_group: 409,
  default_group_context: 409,
  last_owner: 409,
  classification_pending: 409,
  not_a_digest: 409,
  insufficient_balance: 402,
  keyword_limit_reached: 403,
  order_not_credited: 409,
  billing_not_configured: 501,
  slack_not_connected: 409,
  slack_not_configured: 501,
  telegram_not_configured: 501,
  email_not_configured: 501,
  webhook_not_configured: 501,
  // Codes only the compatibility API meets (spec 4.8).
  item_exists: 409,
  quota_exceeded: 402,
  clear_not_confirmed: 400,
  feed_filter_write_conflict: 409,
  feature_disabled: 501,
  upstream_unavailable: 502,
  service_unavailable: 503,
  internal_error: 500,
};

export const statusForCode = (code: string): number => statusByCode[code] ?? 500;

/** The HTTP status of a refusal: its own, where the domain gave one, else its code's. */
export const statusOf = (error: ApiError): number => error.status ?? statusForCode(error.code);

/**
 * The status a domain error asks for beside its code (`extensions.httpStatus`),
 * kept only when it is a client error: a code's usual status is the rule,
 * this the documented exception.
 */
function requestedStatus(extensions: Record<string, unknown> | undefined): number | undefined {
  const status = extensions?.httpStatus;
  return typeof status === 'number' && Number.isInteger(status) && status >= 400 && status < 500 ? status : undefined;
}

export const errorEnvelopeSchema = z
  .object({
    error: z.object({
      code: z.string().meta({ description: 'Stable machine-readable code (spec part 7)' }),
      message: z.string(),
      requestId: z.string().optional(),
      retryAfterSeconds: z.number().int().optional(),
      field: z.string().nullable().optional().meta({ description: 'The offending input field, on validation errors' }),
    }),
  })
  .meta({ id: 'Error' });

export function errorBody(error: ApiError, requestId: string) {
  const { code, message, retryAfterSeconds, field } = error;
  return {
    error: {
      code,
      message,
      requestId,
      ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
      ...(field !== undefined ? { field } : {}),
    },
  };
}

/** The `/v1` envelope (spec part 7). */
export const v1Errors: ErrorDialect = {
  body: errorBody,
  schema: errorEnvelopeSchema,
  shared: {
    badQuery: 'A query parameter the route does not take, or a bad value of one (`validation_error`, with `field`)',
    payloadTooLarge: 'The body is larger than `EARSHOT_MAX_BODY_BYTES` (default 1 MiB) (`payload_too_large`)',
    deadCredential: 'The route needs no credential, but the one sent is invalid, expired or revoked (`unauthorized`)',
    rateLimited: 'Over the workspace rate limit (`rate_limited`)',
    unavailable: 'The database is lost, frozen or restarting (`service_unavailable`): retry after `Retry-After` seconds (also `retryAfterSeconds`)',
    internal: 'Unexpected failure (`internal_error`)',
  },
};

interface GraphQLErrorShape {
  message: string;
  extensions?: Record<string, unknown>;
}

/** What kind of JSON value GraphQL's rendering of it (`"a"`, `{ x: 1 }`, `[1]`, `5`) is. */
function kindOf(inspected: string): string {
  if (inspected.startsWith('"')) return 'a string';
  if (inspected.startsWith('{')) return 'an object';
  if (inspected.startsWith('[')) return 'an array';
  if (inspected === 'true' || inspected === 'false') return 'a boolean';
  if (inspected === 'null') return 'null';
  return 'a number';
}

/**
 * GraphQL's input-coercion messages reworded about the JSON value sent,
 * without GraphQL type names, as the facade's own checks word them. The
 * facade checks bodies and query parameters before the gateway does, so
 * these are only the few cases the route's schema lets through.
 */
const coercionWording: [RegExp, (...parts: string[]) => string][] = [
  [/^Field "[^"]+" of required type "[^"]+" was not provided\.$/, () => 'is required'],
  [/^Field "[^"]+" is not defined by type "[^"]+"\.$/, () => 'unknown field'],
  [/^Expected non-nullable type "[^"]+" not to be null\.$/, () => 'must not be null'],
  [/^Expected type "[^"]+" to be an object\.$/, () => 'expected an object'],
  [/^Value (".*") does not exist in "\w+" enum\.$/s, (value) => `${value} is not one of the allowed values`],
  [/^Enum "\w+" cannot represent non-string value: (.*)\.$/s, (value) => `expected one of the allowed strings, got ${kindOf(value)}`],
  [/^(?:String|ID) cannot represent (?:a non string |a non-string and non-integer )?value: (.*)$/s, (value) => `expected a string, got ${kindOf(value)}`],
  [/^Int cannot represent non-integer value: (.*)$/s, (value) => (kindOf(value) === 'a number' ? 'must be a whole number' : `expected a whole number, got ${kindOf(value)}`)],
  [/^Int cannot represent non 32-bit signed integer value: .*$/s, () => 'must be a whole number from -2147483648 to 2147483647'],
  [/^Float cannot represent non numeric value: (.*)$/s, (value) => `expected a number, got ${kindOf(value)}`],
  [/^Boolean cannot represent a non boolean value: (.*)$/s, (value) => `expected true or false, got ${kindOf(value)}`],
  [/^Expected type "\w+"\. (.+)$/s, (reason) => reason],
  [/^Expected type "\w+"\.$/, () => 'is not a valid value'],
];

function plainCoercionReason(reason: string): string {
  const [, stated, suggestions] = /^(.*?)(?: Did you mean (?:the enum value )?(.*)\?)?$/s.exec(reason)!;
  let plain = stated;
  for (const [pattern, reword] of coercionWording) {
    const parts = pattern.exec(stated);
    if (parts) {
      plain = reword(...parts.slice(1));
      break;
    }
  }
  return suggestions ? `${plain}; did you mean ${suggestions}?` : plain;
}

/**
 * The API error a GraphQL error stands for. Errors with a code keep it;
 * GraphQL's own input-coercion errors (a wrong type, an unknown field) are
 * validation errors naming the field; anything else is internal.
 */
export function apiErrorFromGraphQL(error: GraphQLErrorShape): ApiError {
  const code = error.extensions?.code;
  // Before the code: the gateway codes these `validation_error` for GraphQL clients; REST callers read them reworded about their JSON.
  const coercion = variableCoercion(error.message);
  if (coercion) {
    const message = plainCoercionReason(coercion.reason);
    return { code: 'validation_error', message: coercion.field ? `${coercion.field}: ${message}` : message, field: coercion.field };
  }
  if (typeof code === 'string' && /^[a-z_]+$/.test(code)) {
    const status = requestedStatus(error.extensions);
    return {
      code,
      message: error.message,
      retryAfterSeconds: error.extensions?.retryAfterSeconds as number | undefined,
      field: error.extensions?.field as string | null | undefined,
      ...(status !== undefined ? { status } : {}),
    };
  }
  if (code === 'BAD_USER_INPUT' || code === 'GRAPHQL_VALIDATION_FAILED') {
    return { code: 'validation_error', message: error.message, field: null };
  }
  return { code: 'internal_error', message: 'Something went wrong on our side' };
}
