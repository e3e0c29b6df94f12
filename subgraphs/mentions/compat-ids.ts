import DataLoader from 'dataloader';
import { notFound } from '../domain-error.ts';
import { requireAuth } from '../require-auth.ts';
import type { SubgraphContext } from '../subgraph-server.ts';
import { assignCompatIds, type CompatKind, findCompatObjects } from './compat-id-store.ts';

const loadersByRequest = new WeakMap<SubgraphContext, Map<CompatKind, DataLoader<string, number>>>();

/**
 * The compatibility API's integer id of an object, given on first sight
 * (spec 4.8): one loader per request and kind, so a page of 100 mentions
 * numbers the new ones in one statement, in the order the page shows them.
 */
export function compatIdOf(ctx: SubgraphContext, kind: CompatKind, objectId: string): Promise<number> {
  let loaders = loadersByRequest.get(ctx);
  if (!loaders) loadersByRequest.set(ctx, (loaders = new Map()));
  let loader = loaders.get(kind);
  if (!loader) {
    const { workspaceId } = requireAuth(ctx);
    loader = new DataLoader(async (ids) => {
      const assigned = await assignCompatIds(ctx.sql, workspaceId, kind, ids);
      return ids.map((id) => assigned.get(id)!);
    });
    loaders.set(kind, loader);
  }
  return loader.load(objectId);
}

/** The object an integer id names in the caller's workspace, or `not_found` for `what`. */
export async function objectOfCompatId(ctx: SubgraphContext, kind: CompatKind, compatId: number, what: string): Promise<string> {
  const objectId = (await findCompatObjects(ctx.sql, requireAuth(ctx).workspaceId, kind, [compatId])).get(compatId);
  if (!objectId) throw notFound(what);
  return objectId;
}

/** The objects integer ids name, the ones naming nothing left out. */
export async function objectsOfCompatIds(ctx: SubgraphContext, kind: CompatKind, compatIds: readonly number[]): Promise<string[]> {
  return [...(await findCompatObjects(ctx.sql, requireAuth(ctx).workspaceId, kind, compatIds)).values()];
}
