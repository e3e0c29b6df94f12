import { isUtf8 } from 'node:buffer';
import type { GatewayPlugin } from '@graphql-hive/gateway-runtime';
import { createGraphQLError } from '@graphql-tools/utils';
import { type DocumentNode, type ExecutionResult, type GraphQLError, getOperationAST } from 'graphql';
import { withExtensions } from '../error-extensions.ts';
import { TextBody } from '../text-body.ts';
import { variableCoercion } from '../variable-coercion.ts';

const isAsyncIterable = (value: unknown): value is AsyncIterableIterator<unknown> =>
  typeof value === 'object' && value !== null && Symbol.asyncIterator in value;

/** A GraphQL error of the request as a whole (no `path`) that says nothing about its kind (no `extensions.code`). */
const isUncodedRequestError = (error: unknown): error is GraphQLError =>
  error instanceof Error && 'extensions' in error && !(error as GraphQLError).extensions?.code && !(error as GraphQLError).path;

const coded = (error: GraphQLError, code: string, more: Record<string, unknown> = {}) => withExtensions(error, { code, ...more });

const unresolvedOperation = () => createGraphQLError('Could not determine what operation to execute.', { extensions: { code: 'OPERATION_RESOLUTION_FAILURE' } });

/** A refused variable as a validation error naming the input field, as the subgraphs' own validation errors and the REST envelope name it. */
const refusedInput = (error: GraphQLError) => {
  const coercion = variableCoercion(error.message);
  return coded(error, 'validation_error', coercion ? { field: coercion.field } : {});
};

/** The uncoded request errors a thrown value stands for (one error, or several in an `AggregateError`); undefined for anything else. */
function requestErrorsOf(thrown: unknown): GraphQLError[] | undefined {
  const errors = thrown instanceof AggregateError ? thrown.errors : [thrown];
  return errors.length > 0 && errors.every(isUncodedRequestError) ? errors : undefined;
}

type RequestParser = Parameters<Parameters<NonNullable<GatewayPlugin['onRequestParse']>>[0]['setRequestParser']>[0];

/** A parser whose `JSON.parse` of a URL-encoded parameter failing is the client's malformed request, not an error of ours. */
const withParametersRefused =
  (parse: RequestParser): RequestParser =>
  async (request) => {
    try {
      return await parse(request);
    } catch (thrown) {
      if (!(thrown instanceof SyntaxError)) throw thrown;
      throw createGraphQLError(`The variables or extensions parameter is not valid JSON: ${thrown.message}`, { extensions: { code: 'BAD_REQUEST', http: { status: 400 } } });
    }
  };

/**
 * A parser that reads a POST body only as UTF-8: GraphQL Yoga decodes it
 * leniently, so bytes that are not UTF-8 (a Latin-1 "é" in an argument)
 * reached the subgraphs as U+FFFD and were stored so. JSON is UTF-8 (RFC
 * 8259 8.1), and so is a GraphQL document (GraphQL over HTTP).
 */
const withUtf8Body =
  (parse: RequestParser): RequestParser =>
  async (request) => {
    const body = Buffer.from(await request.arrayBuffer());
    if (!isUtf8(body)) throw createGraphQLError('The body is not valid UTF-8: send it encoded as UTF-8', { extensions: { code: 'validation_error', http: { status: 400 } } });
    const read: RequestAsParsersRead = new BodyRead(request, new TextDecoder().decode(body));
    return parse(read as Request);
  };

/** What GraphQL Yoga's body parsers read of a request. */
type RequestAsParsersRead = Pick<Request, 'url' | 'method' | 'headers' | 'text' | 'json'>;

/**
 * The request as the body parsers read it, its body already read and
 * decoded: the POST parsers GraphQL Yoga runs here (JSON, a GraphQL
 * document, a form; multipart is off) read `json()` or `text()` alone,
 * and each gives what a `Request`'s would (`TextDecoder` drops a leading
 * byte order mark as `text()` does). A copied `Request` made a body
 * stream anew for every request: about a tenth of the gateway's CPU on a
 * small operation.
 */
class BodyRead extends TextBody implements RequestAsParsersRead {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  constructor(request: Request, text: string) {
    super(text);
    this.url = request.url;
    this.method = request.method;
    this.headers = request.headers;
  }
}

/**
 * Every GraphQL error a client gets carries `extensions.code` (spec part 7:
 * clients branch on codes). The query planner refuses variables it cannot
 * coerce (a string where an `Int` belongs, a missing required input field)
 * by throwing graphql-js's errors, which have neither a code nor a path:
 * such a request is the caller's input, so it is answered as a result whose
 * errors say `validation_error` and name the input `field` (as the REST
 * envelope and the subgraphs' own checks do), over HTTP and graphql-ws
 * alike. Errors of fields (with a path) keep what the subgraphs gave them.
 *
 * A document that does not parse is `GRAPHQL_PARSE_FAILED` over HTTP
 * (GraphQL Yoga codes it there, for requests only); over graphql-ws too.
 * So is a document whose operation cannot be told (several operations and
 * no `operationName`, or a name none has), `OPERATION_RESOLUTION_FAILURE`:
 * GraphQL Yoga checks it for HTTP requests only, and over graphql-ws the
 * query planner threw, answered as an unexpected `INTERNAL_SERVER_ERROR`.
 * It is checked as the operation runs, not as it parses: the parse result
 * is cached by document, whatever operation is named.
 *
 * A body of a type no parser reads is, in GraphQL Yoga, an empty 415; here
 * it is a 415 with a coded error saying which types are read.
 *
 * A POST body that is not UTF-8 is a 400 `validation_error`.
 *
 * `variables` or `extensions` that are not JSON, in a GET's query string or
 * a form body, made GraphQL Yoga's parser throw a bare `SyntaxError`, which
 * it answers 500 "Unexpected error."; here it is a 400 `BAD_REQUEST`, as
 * Yoga answers a JSON body that does not parse.
 *
 * A result the client's `Accept` header leaves no way to send (a
 * subscription asked for as `application/json`, anything asked for as
 * `text/html`) is, in GraphQL Yoga, an empty 406; here it is a 406 whose
 * JSON body says which types can be sent, and a subscription that nobody can
 * read is ended at once.
 */
export function useCodedRequestErrors(): GatewayPlugin {
  const answering =
    <Args extends { document: DocumentNode; operationName?: string | null }, Result>(run: (args: Args) => Result | Promise<Result>) =>
    async (args: Args): Promise<Result | ExecutionResult> => {
      if (!getOperationAST(args.document, args.operationName)) return { errors: [unresolvedOperation()] };
      try {
        return await run(args);
      } catch (thrown) {
        const errors = requestErrorsOf(thrown);
        if (!errors) throw thrown;
        return { errors: errors.map(refusedInput) };
      }
    };
  return {
    // Runs after GraphQL Yoga's own request parsers: a POST none of them matched is left without one.
    onRequestParse({ request, requestParser, setRequestParser }) {
      if (requestParser) {
        const parser = request.method === 'POST' ? withUtf8Body(requestParser) : requestParser;
        if (request.method === 'GET' || request.headers.get('content-type')?.startsWith('application/x-www-form-urlencoded')) setRequestParser(withParametersRefused(parser));
        else if (parser !== requestParser) setRequestParser(parser);
        return;
      }
      if (request.method !== 'POST') return;
      throw createGraphQLError('The body must be JSON (Content-Type: application/json), a GraphQL document (application/graphql) or a form (application/x-www-form-urlencoded)', {
        extensions: { code: 'validation_error', http: { status: 415 } },
      });
    },
    onParse:
      () =>
      ({ result, replaceParseResult }) => {
        if (isUncodedRequestError(result)) replaceParseResult(coded(result, 'GRAPHQL_PARSE_FAILED'));
      },
    onExecute: ({ executeFn, setExecuteFn }) => setExecuteFn(answering(executeFn) as typeof executeFn),
    onSubscribe: ({ subscribeFn, setSubscribeFn }) => setSubscribeFn(answering(subscribeFn) as typeof subscribeFn),
    // Runs after GraphQL Yoga's own result processors: only a result none of them can send is left.
    onResultProcess({ result, resultProcessor, acceptableMediaTypes, setResult, setResultProcessor }) {
      if (resultProcessor) return;
      if (isAsyncIterable(result)) void result.return?.();
      const sendable = [...new Set(acceptableMediaTypes)].join(', ');
      setResult({
        errors: [createGraphQLError(`This answer can be sent as ${sendable} only: ask for one of them in Accept`, { extensions: { code: 'validation_error' } })],
      });
      setResultProcessor(
        (refusal, fetchAPI) => new fetchAPI.Response(JSON.stringify(refusal), { status: 406, headers: { 'content-type': 'application/json; charset=utf-8' } }),
        'application/json',
      );
    },
  };
}
