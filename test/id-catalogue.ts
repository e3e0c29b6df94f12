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

/** An id's kind: the prefix of a public id, `integer` for the compatibility API's. */
export const kindOf = (id: string | number): string => (typeof id === 'number' ? 'integer' : id.slice(0, id.indexOf('_')));

/** Kinds of id that name a credential: API keys and connected apps (OAuth grants). */
const credentialKinds = new Set(['key', 'oag']);

/**
 * The catalogue without the ids of credentials: a fuzz run that revoked the
 * key it sends (a valid `DELETE /v1/api-keys/{id}`) would spend the rest of
 * its cases on 401s. Revoking keys and apps has tests of its own.
 */
export const withoutCredentials = (found: IdCatalogue): IdCatalogue => ({ ...found, ids: found.ids.filter((id) => !credentialKinds.has(kindOf(id))) });

/** One id of each kind. */
export function onePerKind(ids: readonly (string | number)[]): (string | number)[] {
  const seen = new Map<string, string | number>();
  for (const id of ids) if (!seen.has(kindOf(id))) seen.set(kindOf(id), id);
  return [...seen.values()];
}

/** Runs `work` over `items`, `width` at a time. */
export async function inParallel<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: width }, worker));
}

/**
 * Reads every list, then every one-parameter `GET` with the ids found so
 * far: with one id of each kind first, then with every id of the kinds the
 * route answered, so that a kind a route does not take costs one request.
 */
export async function catalogueIds(document: any, call: Caller): Promise<IdCatalogue> {
  const found: IdCatalogue = { ids: [], integerIds: [] };
  const reads = operationsOf(document).filter(isReadOperation);
  const read = async (method: string, path: string, id?: string | number) => {
    const answer = await call(method.toUpperCase(), id === undefined ? path : path.replace(/\{\w+\}/, encodeURIComponent(String(id))), method === 'get' ? undefined : {});
    if (answer.status < 300) idsIn(answer.body, found, path.startsWith('/compat/'));
    return answer.status < 300;
  };
  await inParallel(reads.filter(({ path }) => pathParametersOf(path).length === 0), 4, async ({ method, path }) => void (await read(method, path)));
  await inParallel(reads.filter(({ path }) => pathParametersOf(path).length === 1), 4, async ({ method, path }) => {
    const known = [...found.ids, ...found.integerIds];
    for (const probe of onePerKind(known)) {
      if (!(await read(method, path, probe))) continue;
      for (const id of known.filter((each) => each !== probe && kindOf(each) === kindOf(probe))) await read(method, path, id);
    }
  });
  return found;
}
