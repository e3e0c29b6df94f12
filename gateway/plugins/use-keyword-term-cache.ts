import type { GatewayPlugin } from '@graphql-hive/gateway-runtime';
import type { ExecutionResult, Executor } from '@graphql-tools/utils';
import { type DocumentNode, Kind, type SelectionNode } from 'graphql';
import type { KeywordTermCache } from '../../subgraphs/keywords/index.ts';
import type { EarshotGatewayContext } from '../request-state.ts';

const onlySelection = (selections: readonly SelectionNode[] | undefined) => (selections?.length === 1 ? selections[0] : undefined);

/** Whether a request to the keywords subgraph is the planner's `_entities { ... on Keyword { term } }`, and nothing else. */
function asksOnlyKeywordTerms(document: DocumentNode): boolean {
  const operation = document.definitions.length === 1 ? document.definitions[0] : undefined;
  if (operation?.kind !== Kind.OPERATION_DEFINITION || operation.operation !== 'query') return false;
  const entities = onlySelection(operation.selectionSet.selections);
  if (entities?.kind !== Kind.FIELD || entities.name.value !== '_entities' || entities.alias || entities.directives?.length) return false;
  const fragment = onlySelection(entities.selectionSet?.selections);
  if (fragment?.kind !== Kind.INLINE_FRAGMENT || fragment.typeCondition?.name.value !== 'Keyword' || fragment.directives?.length) return false;
  const term = onlySelection(fragment.selectionSet.selections);
  return term?.kind === Kind.FIELD && term.name.value === 'term' && !term.alias && !term.arguments?.length && !term.directives?.length && !term.selectionSet;
}

/** The keyword ids of `representations` when every one is a `Keyword` by its id alone. */
function keywordIdsOf(representations: unknown): string[] | undefined {
  if (!Array.isArray(representations)) return undefined;
  const ids: string[] = [];
  for (const representation of representations) {
    const { __typename, id, ...rest } = (representation ?? {}) as Record<string, unknown>;
    if (__typename !== 'Keyword' || typeof id !== 'string' || Object.keys(rest).length > 0) return undefined;
    ids.push(id);
  }
  return ids;
}

const isSingleResult = (result: unknown): result is ExecutionResult => typeof result === 'object' && result !== null && !(Symbol.asyncIterator in result);

/**
 * A page of mentions names each mention's keyword by its term, which the
 * keywords subgraph owns: the planner asks it for `_entities { ... on
 * Keyword { term } }`. Terms it answered are kept per process
 * (`KeywordTermCache`, dropped on rename or deletion through PostgreSQL
 * notifications) and such a request is answered from them when every
 * keyword asked for is known, for the workspace of the caller. Anything
 * else about keywords, and every other subgraph, is asked as before.
 */
export function useKeywordTermCache(cache: KeywordTermCache): GatewayPlugin {
  const termsOnly = new WeakMap<DocumentNode, boolean>();
  return {
    onSubgraphExecute({ subgraphName, executionRequest, executor, setExecutor }) {
      if (subgraphName !== 'keywords') return;
      const workspaceId = (executionRequest.context as Partial<EarshotGatewayContext> | undefined)?.auth?.workspaceId;
      if (!workspaceId) return;
      let asksTerms = termsOnly.get(executionRequest.document);
      if (asksTerms === undefined) termsOnly.set(executionRequest.document, (asksTerms = asksOnlyKeywordTerms(executionRequest.document)));
      if (!asksTerms) return;
      const ids = keywordIdsOf(executionRequest.variables?.representations);
      if (!ids) return;
      const known = cache.termsOf(workspaceId, ids);
      if (known.every((term) => term !== undefined)) {
        const answer: ExecutionResult = { data: { _entities: known.map((term) => ({ term })) } };
        setExecutor((() => answer) as Executor);
        return;
      }
      setExecutor(async (request) => {
        const remember = cache.beginRead();
        const result = await executor(request);
        const entities = isSingleResult(result) && !result.errors?.length ? (result.data as { _entities?: unknown } | null)?._entities : undefined;
        if (Array.isArray(entities)) {
          remember(
            workspaceId,
            ids.flatMap((id, i) => {
              const term = (entities[i] as { term?: unknown } | null)?.term;
              return typeof term === 'string' ? [{ id, term }] : [];
            }),
          );
        }
        return result;
      });
    },
  };
}
