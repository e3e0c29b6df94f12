import type { GatewayPlugin } from '@graphql-hive/gateway-runtime';
import { type QueryPlanOptions, useQueryPlan } from '@graphql-hive/router-runtime';
import { createGraphQLError, type ExecutionResult, relocatedError } from '@graphql-tools/utils';
import { type DocumentNode, getOperationAST, type GraphQLError, Kind, type OperationDefinitionNode, parse, print } from 'graphql';
import { getVariableValues } from 'graphql/execution/values.js';
import { vouchedContext } from '../request-state.ts';
import { graphQLErrorsOf, type InProcessSubgraph } from './use-in-process-subgraphs.ts';

type QueryPlan = Parameters<NonNullable<QueryPlanOptions['onQueryPlan']>>[0];
type Execute = (args: { document: DocumentNode; variableValues?: Record<string, unknown> | null; contextValue?: unknown }) => unknown;

/** An operation the planner sends whole to one subgraph of this process, and what answering it takes. */
interface SingleFetch {
  subgraphName: string;
  subgraph: InProcessSubgraph;
  operation: OperationDefinitionNode;
  /** The subgraph's operation as the planner wrote it (what the subgraph would be sent). */
  query: string;
  operationName: string | undefined;
  variableUsages: string[];
  /** Where an error without a path is put: the first root field, as the router does. */
  errorPath: string[];
}

/**
 * The operation's single fetch, when its plan is one fetch to a subgraph
 * of this process asking for exactly what the client asked for: no
 * entity keys, no rewrites, and the same selections, so the router's
 * projection of the subgraph's data would give that data back as it is.
 */
function singleFetchOf(plan: QueryPlan | undefined, document: DocumentNode, operationName: string | undefined, subgraphs: Record<string, InProcessSubgraph>): SingleFetch | null {
  const node = plan?.node;
  if (node?.kind !== 'Fetch' || node.requires?.length || node.inputRewrites?.length || node.outputRewrites?.length) return null;
  const subgraph = subgraphs[node.serviceName];
  const operation = getOperationAST(document, operationName);
  if (!subgraph || !operation || operation.operation === 'subscription') return null;
  const fetched = getOperationAST(parse(node.operation, { noLocation: true }), node.operationName);
  if (!fetched || fetched.operation !== operation.operation || print(fetched.selectionSet) !== print(operation.selectionSet)) return null;
  const first = fetched.selectionSet.selections.find((selection) => selection.kind === Kind.FIELD);
  return {
    subgraphName: node.serviceName,
    subgraph,
    operation,
    query: node.operation,
    operationName: node.operationName,
    variableUsages: node.variableUsages ?? [],
    errorPath: first ? [first.alias?.value ?? first.name.value] : [],
  };
}

/** The variables the fetch uses, of those coerced (none: undefined), as the router selects them. */
function fetchVariables(coerced: Record<string, unknown>, usages: string[]): Record<string, unknown> | undefined {
  const used = usages.filter((name) => Object.hasOwn(coerced, name));
  return used.length ? Object.fromEntries(used.map((name) => [name, coerced[name]])) : undefined;
}

/**
 * The subgraph's errors as the gateway's client gets them by the router's
 * way: the runtime's subgraph-error plugin names the subgraph (and a code,
 * should one be missing), and an error without a path is put at the
 * fetch's first root field.
 */
function clientErrors(errors: GraphQLError[], fetch: SingleFetch): GraphQLError[] {
  return errors.map((error) => {
    const extensions = error.extensions as Record<string, unknown>;
    extensions.code ||= 'DOWNSTREAM_SERVICE_ERROR';
    extensions.serviceName ||= fetch.subgraphName;
    return error.path ? error : relocatedError(error, fetch.errorPath);
  });
}

async function answer(fetch: SingleFetch, variables: Record<string, unknown> | undefined, context: unknown): Promise<ExecutionResult> {
  let errors: GraphQLError[] = [];
  let data: Record<string, unknown> | null | undefined;
  try {
    const result = await fetch.subgraph.executeVouched({ query: fetch.query, variables, operationName: fetch.operationName }, vouchedContext(context));
    data = result.data;
    if (result.errors) errors = clientErrors(graphQLErrorsOf(result.errors), fetch);
  } catch (error) {
    // As the router words a subgraph request that failed outright.
    errors = [createGraphQLError((error as Error).message, { originalError: error as Error, extensions: { code: 'DOWNSTREAM_SERVICE_ERROR', serviceName: fetch.subgraphName }, path: fetch.errorPath })];
  }
  return { ...(data ? { data } : {}), ...(errors.length ? { errors } : {}) };
}

/**
 * In the all-in-one role, an operation whose query plan is a single fetch
 * to a subgraph of this process (`whoami`, a keyword, most of the REST
 * facade's routes) is answered by that subgraph's own execution of the
 * planned operation, handed the caller's context directly: the router's
 * plan execution, the subgraph request's hooks, its signature and Apollo
 * Server's request pipeline in the subgraph (about half of `GET
 * /v1/whoami`'s CPU time) are skipped, and the result is the one the
 * router would have made of the subgraph's answer. The plan is the
 * router's own, read when the operation first runs its normal way; an
 * operation whose plan has several fetches, entity keys or rewrites, or
 * asks a subgraph elsewhere, and every subscription, keeps that way.
 *
 * Listed before the plugins that wrap execution (coded request errors):
 * it replaces the runtime's execute function, which they then wrap.
 */
export function useInProcessOperations(subgraphs: Record<string, InProcessSubgraph>): GatewayPlugin {
  if (Object.keys(subgraphs).length === 0) return {};
  // By document (GraphQL Yoga keeps one per query text) and operation name; null: the normal way.
  const fetches = new WeakMap<DocumentNode, Map<string, SingleFetch | null>>();
  let planRead: QueryPlan | undefined;
  // The router's plugin that hands over the plan it executed (typed against the router's own copy of the runtime's types).
  const readPlan = useQueryPlan({ onQueryPlan: (plan) => (planRead = plan) }).onExecute as unknown as (payload: unknown) => { onExecuteDone?(done: unknown): void } | undefined;
  return {
    onExecute(payload) {
      const { args, executeFn, setExecuteFn } = payload;
      const name = args.operationName ?? '';
      const fetch = fetches.get(args.document)?.get(name);
      if (fetch === null) return;
      if (fetch) {
        const execute: Execute = (execArgs) => {
          if (execArgs.document !== args.document) return executeFn(execArgs as typeof args);
          // The router's check of the variables against the supergraph: a value it refuses is refused the router's way, in its words.
          const coerced = getVariableValues(args.schema, fetch.operation.variableDefinitions ?? [], execArgs.variableValues ?? {});
          if (coerced.errors) return executeFn(execArgs as typeof args);
          return answer(fetch, fetchVariables(coerced.coerced, fetch.variableUsages), execArgs.contextValue);
        };
        setExecuteFn(execute as typeof executeFn);
        return;
      }
      const reading = readPlan(payload);
      return {
        onExecuteDone(done) {
          planRead = undefined;
          reading?.onExecuteDone?.(done);
          // No plan (introspection, or a request that failed before planning): asked again next time.
          if (!planRead) return;
          let byName = fetches.get(args.document);
          if (!byName) fetches.set(args.document, (byName = new Map()));
          byName.set(name, singleFetchOf(planRead, args.document, args.operationName ?? undefined, subgraphs));
        },
      };
    },
  };
}
