import { costLimitPlugin } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesPlugin } from '@escape.tech/graphql-armor-max-directives';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import type { GatewayPlugin } from '@graphql-hive/gateway-runtime';
import { createGraphQLError } from '@graphql-tools/utils';
import type { GraphQLError } from 'graphql';
import { maxJsonNesting, nestedDeeperThan } from '../../runtime/json-nesting.ts';

/**
 * The largest request a client may send to `/graphql` (README "Limits").
 * Earshot's own clients, the REST facade and the dashboard, reach at most
 * 194 tokens, depth 8, no aliases, 3 directives and a cost of about 24,650
 * (the dashboard's keyword list: 100 keywords with their run state), so
 * each limit leaves a client room beyond what they need;
 * `test/gateway.test.ts` keeps every operation of theirs within them.
 */
export interface RequestLimits {
  /** Bytes of a request body (`EARSHOT_MAX_BODY_BYTES`, the REST API's limit too); more is `payload_too_large` (413). */
  maxBodyBytes: number;
  /** Lexical tokens of the document, counted while it is parsed, so a huge document is refused before it is built. Default 2,000. */
  maxTokens: number;
  /** Nesting of selections (introspection fields aside). Default 15. */
  maxDepth: number;
  /** Aliased fields in the operation. Default 20. */
  maxAliases: number;
  /** Directives in the operation. Default 20. */
  maxDirectives: number;
  /**
   * GraphQL Armor's cost: 1 a scalar field, 2 an object field, each level
   * weighing 1.5 times the one above, lists multiplied by a literal `first`.
   * Default 50,000.
   */
  maxCost: number;
}

export const defaultOperationLimits: Omit<RequestLimits, 'maxBodyBytes'> = { maxTokens: 2_000, maxDepth: 15, maxAliases: 20, maxDirectives: 20, maxCost: 50_000 };

const tooLarge = (maxBytes: number) =>
  createGraphQLError(`The body exceeds ${maxBytes} bytes`, { extensions: { code: 'payload_too_large', http: { status: 413 } } });

/**
 * The body read no further than the limit, declared (`Content-Length`) or
 * chunked, as GraphQL Yoga's own limiter reads it, but refused with the
 * spec's `payload_too_large`. Only a body of undeclared length is counted as
 * it is read.
 */
function useBodyLimit(maxBytes: number): GatewayPlugin {
  return {
    onRequestParse({ request, requestParser, setRequestParser }) {
      const declaredLength = request.headers.get('content-length');
      if (Number(declaredLength ?? 0) > maxBytes) throw tooLarge(maxBytes);
      // A declared length within the limit bounds the body already: Node's HTTP parser reads no byte past it (and refuses it beside chunked encoding). Counting bytes through a stream and a copied Request was a fifth of the gateway's CPU on a small query.
      if (!requestParser || !request.body || declaredLength !== null) return;
      const parse = requestParser;
      setRequestParser((incoming) => {
        let read = 0;
        const limited = incoming.body!.pipeThrough(
          new TransformStream<Uint8Array, Uint8Array>({
            transform(chunk, controller) {
              read += chunk.byteLength;
              if (read > maxBytes) controller.error(tooLarge(maxBytes));
              else controller.enqueue(chunk);
            },
          }),
        );
        return parse(new Request(incoming.url, { method: incoming.method, headers: incoming.headers, signal: incoming.signal, body: limited, duplex: 'half' } as RequestInit));
      });
    },
  };
}

const tooComplex = (message: string) => createGraphQLError(message, { extensions: { code: 'query_too_complex', http: { status: 400 } } });

/**
 * A document nested thousands of levels deep (`[[[[…]]]]` in an argument)
 * overflows the parser's stack before its token count reaches the limit:
 * that is the client's document being too complex too, not a failure of ours.
 * Variables nested as deep pass GraphQL's coercion where a field takes
 * `JSON` and overflowed the subgraph's stack instead; they are refused
 * before the operation runs, over HTTP and graphql-ws alike.
 */
function useNestingLimit(): GatewayPlugin {
  const checkVariables = (variables: unknown) => {
    if (nestedDeeperThan(variables, maxJsonNesting + 1)) throw tooComplex(`The variables are nested deeper than ${maxJsonNesting} levels`);
  };
  return {
    onParse:
      () =>
      ({ result, replaceParseResult }) => {
        if (result instanceof RangeError) replaceParseResult(tooComplex('The document is nested too deeply to be read'));
      },
    onExecute: ({ args }) => checkVariables(args.variableValues),
    onSubscribe: ({ args }) => checkVariables(args.variableValues),
  };
}

const isLimitRefusal = (error: unknown) => (error as GraphQLError | undefined)?.extensions?.code === 'query_too_complex';

/**
 * A limit is answered 400 however it was found. GraphQL Yoga marks every
 * error raised while parsing (the token limit is counted there) as a parse
 * failure, which GraphQL over HTTP answers 200 to an `application/json`
 * client; here that mark is taken off the limit's refusal.
 */
function useLimitStatus(): GatewayPlugin {
  return {
    onResultProcess({ result, setResult }) {
      if (Array.isArray(result) || Symbol.asyncIterator in result || !result.errors?.some(isLimitRefusal)) return;
      setResult({
        ...result,
        errors: result.errors.map((error) => (isLimitRefusal(error) ? tooComplex(error.message) : error)),
      });
    },
  };
}

/**
 * Limits on the size of a request and the shape of its GraphQL operation, so
 * that one request cannot make the gateway read, parse, validate or plan
 * without end (a document thousands of levels deep overflows the parser's
 * stack; thousands of aliases multiply the subgraph work). The operation's
 * limits are GraphQL Armor's maintained plugins, the ones Hive Gateway
 * documents; an operation over one is refused before it runs with
 * `query_too_complex` (HTTP 400), naming the limit.
 */
export function useRequestLimits(limits: RequestLimits): GatewayPlugin[] {
  const refuse = (_context: unknown, error: GraphQLError) => {
    throw tooComplex(error.message.replace(/^Syntax Error: /, ''));
  };
  const callbacks = { onReject: [refuse], propagateOnRejection: true };
  return [
    useBodyLimit(limits.maxBodyBytes),
    useNestingLimit(),
    useLimitStatus(),
    maxTokensPlugin({ n: limits.maxTokens, ...callbacks }),
    maxDepthPlugin({ n: limits.maxDepth, ...callbacks }),
    maxAliasesPlugin({ n: limits.maxAliases, ...callbacks }),
    maxDirectivesPlugin({ n: limits.maxDirectives, ...callbacks }),
    costLimitPlugin({ maxCost: limits.maxCost, ...callbacks }),
  ] as GatewayPlugin[];
}
