/**
 * Every id a credential can see, found by reading: each read operation of
 * `openapi.json` without a path parameter, then each `GET` with one path
 * parameter filled with the ids found so far. Nothing names the kinds of
 * records, so a route another branch adds is read too.
 */

/** Earshot's public ids: a short prefix naming the kind and a ULID-style body. */
export const publicIdPattern = /^[a-z]{2,5}_[0-9a-hjkmnp-tv-z]{26}$/;

export interface IdCatalogue {
  /** Public ids (`kw_…`, `mm_…`, `dest_…`, …). */
  ids: string[];
  /** The compatibility API's integer ids (each workspace counts its own from 1). */
  integerIds: number[];
}

export interface ApiOperation {
  path: string;
  method: string;
  operation: any;
}

export const operationsOf = (document: any): ApiOperation[] =>
  Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ path, method, operation })),
  );

export const pathParametersOf = (path: string) => [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);

/** A public route (`security: []`) needs no credential and so shows nobody's records. */
export const isPublicOperation = ({ operation }: ApiOperation) => Array.isArray(operation.security) && operation.security.length === 0;

/** A route that only reads a workspace: a GET, or a POST the compatibility API lists or exports with. */
export const isReadOperation = (entry: ApiOperation) =>
  !isPublicOperation(entry) && (entry.method === 'get' || /^(octolens)?(list|export)/i.test(entry.operation.operationId));

/** Public ids anywhere in a JSON value, and integers under `id` or `…Id` keys of the compatibility API's answers. */
export function idsIn(value: unknown, found: IdCatalogue, integers: boolean): void {
  if (typeof value === 'string') {
    if (publicIdPattern.test(value) && !found.ids.includes(value)) found.ids.push(value);
  } else if (Array.isArray(value)) {
    for (const item of value) idsIn(item, found, integers);
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (integers && typeof item === 'number' && Number.isInteger(item) && item > 0 && /(^id$|Id$)/.test(key) && !found.integerIds.includes(item)) found.integerIds.push(item);
      idsIn(item, found, integers);
    }
  }
}

export type Caller = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;

export async function catalogueIds(document: any, call: Caller): Promise<IdCatalogue> {
  const found: IdCatalogue = { ids: [], integerIds: [] };
  const reads = operationsOf(document).filter(isReadOperation);
  const read = async (method: string, path: string) => {
    const answer = await call(method.toUpperCase(), path, method === 'get' ? undefined : {});
    if (answer.status < 300) idsIn(answer.body, found, path.startsWith('/compat/'));
  };
  for (const { path, method } of reads.filter(({ path }) => pathParametersOf(path).length === 0)) await read(method, path);
  for (const { path, method } of reads.filter(({ path }) => pathParametersOf(path).length === 1)) {
    for (const id of [...found.ids, ...found.integerIds]) await read(method, path.replace(/\{\w+\}/, encodeURIComponent(String(id))));
  }
  return found;
}
