import { getNamedType, isNonNullType } from 'graphql';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { idSlots, minimalInput, operationFor, type RootField, rootFields, selectionFor, variablesWithSlot } from './fuzz/graphql-operations.ts';
import { isIdName, type JsonSchema, jsonIdSlots, minimalValue, resolveSchema, type SchemaContext, withIdAt } from './fuzz/schema-arbitraries.ts';
import { type ApiOperation, type Caller, catalogueIds, inParallel, isPublicOperation, kindOf, onePerKind, operationsOf } from './id-catalogue.ts';
import { collect, newMention, storeUntilDelivered } from './live-mentions.ts';
import { type ConfiguredEarshot, type SeededWorkspace, seedEveryObject, startConfiguredEarshot } from './workspace-with-everything.ts';
import { patiently } from './harness.ts';
import { jobsSettled, workspaceRows } from './workspace-rows.ts';

/**
 * The isolation audit (spec 5.3: everything a credential touches is scoped
 * to its workspace). One workspace, the prober, calls every operation of
 * `openapi.json` (`/v1` and the compatibility API) and every root field of
 * the supergraph with the ids of another, the victim: in each path
 * parameter, each id-named query parameter, body field and GraphQL argument
 * or input field, one id of every kind the victim holds. Everything is
 * generated from the published descriptions, so a route or field added
 * later is audited without anyone listing it here.
 *
 * A path parameter naming the victim's record answers 404 in the table's
 * envelope (or the compatibility API's deliberate 501 for a feature it
 * lacks). Any other answer may be a 404 or another refusal, or a success
 * that is empty of the victim (a list filtered by the victim's keyword is
 * empty); a GraphQL field answers `not_found` or nothing. No answer holds
 * the victim's marker (in every name and term of theirs) or any id of
 * theirs but the one sent, which only an error message may repeat; none is
 * a 5xx; a refusal reads exactly as the refusal of a made-up id of the same
 * kind (nothing tells whether the victim's exists); and after it all the
 * victim's stored rows are exactly as they were.
 */

let configured: ConfiguredEarshot;
let prober: SeededWorkspace;
let victim: SeededWorkspace;
let document: any;
/** One id of each kind the victim holds, and the compatibility API's integer ids the victim has and the prober has not. */
let victimProbes: (string | number)[];
let victimIds: Set<string>;
let proberIds: (string | number)[];
let victimRows: Record<string, unknown[]>;

const sessionHeaders = (seeded: SeededWorkspace, method: string) => ({
  cookie: seeded.session.cookie,
  ...(method === 'GET' ? {} : { 'x-csrf-token': seeded.session.csrfToken }),
});

/** A call as the workspace's owner: with its write key, or, where only a signed-in person may act (spec 5.8), with its session. */
const asOwner =
  (seeded: SeededWorkspace): Caller =>
  async (method, path, body) => {
    const { earshot } = configured;
    const byKey = await patiently(() => earshot.rest(method, path, { key: seeded.apiKey, body }));
    if (byKey.status !== 401 && byKey.status !== 403) return byKey;
    return patiently(() => earshot.rest(method, path, { body, headers: sessionHeaders(seeded, method) }));
  };

beforeAll(async () => {
  configured = await startConfiguredEarshot({ rateLimitPerMinute: 100_000_000 });
  prober = await seedEveryObject(configured, 'Prober');
  victim = await seedEveryObject(configured, 'Victim');
  // Five keywords more than the prober, shown once on the compatibility API: integer ids past any the prober has of any kind.
  for (const extra of ['one', 'two', 'three', 'four', 'five']) await asOwner(victim)('POST', '/v1/keywords', { term: `${victim.marker} extra ${extra}` });
  await asOwner(victim)('GET', '/compat/octolens/api/v2/keywords');
  document = (await configured.earshot.rest('GET', '/v1/openapi.json')).body;
  const theirs = await catalogueIds(document, asOwner(victim));
  const ours = await catalogueIds(document, asOwner(prober));
  victimIds = new Set([...theirs.ids, ...victim.seededIds]);
  victimProbes = [...onePerKind([...victimIds]), ...theirs.integerIds.filter((id) => !ours.integerIds.includes(id))];
  proberIds = [...ours.ids, ...prober.seededIds];
  await jobsSettled(configured.earshot.sql);
  victimRows = await workspaceRows(configured.earshot.sql, victim.workspaceId);
}, 300_000);
afterAll(async () => {
  await configured?.stop();
});

/** What breaks isolation in an answer: the victim's marker anywhere, or an id of theirs outside an error message (where the id sent may be repeated). */
function leaks(answer: unknown, probed: string | number): string[] {
  const found: string[] = [];
  const visit = (value: unknown, inMessage: boolean) => {
    if (typeof value === 'string') {
      if (value.includes(victim.marker)) found.push(`the marker in ${JSON.stringify(value.slice(0, 120))}`);
      for (const id of victimIds) if (value.includes(id) && !(inMessage && id === probed)) found.push(`the id ${id}`);
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item, inMessage);
    } else if (value && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) visit(item, inMessage || key === 'message');
    }
  };
  visit(answer, false);
  return found;
}

/** What broke the rules, per test; and how the probes were answered, for the log. */
let findings: string[] = [];
const tally: Record<string, number> = {};
const count = (outcome: string) => (tally[outcome] = (tally[outcome] ?? 0) + 1);
beforeEach(() => {
  findings = [];
});

/**
 * Id-named fields that hold another system's id, which Earshot stores as
 * given: a Slack channel's, a Telegram chat's, an app store's or review
 * site's. Any string of the right shape is as good as another there.
 */
const foreignIdFields = new Set(['channelId', 'chatId', 'reviewSources.[].id']);

// ---- REST: every operation of openapi.json ----

const context = (): SchemaContext => ({ components: document.components.schemas, idsFor: () => proberIds });
const bodySchemaOf = (entry: ApiOperation): JsonSchema | undefined => entry.operation.requestBody?.content?.['application/json']?.schema;
const minimalBody = (entry: ApiOperation) => {
  const schema = bodySchemaOf(entry);
  return schema ? minimalValue(resolveSchema(schema, context()), context()) : undefined;
};

/** The prober's own record for a path parameter: the first of its ids (one per kind) that the route's `GET` answers, when there is one. */
const ownIdCache = new Map<string, string | number | undefined>();
async function ownIdFor(entry: ApiOperation): Promise<string | number | undefined> {
  const template = entry.path.slice(0, entry.path.indexOf('}') + 1);
  if (!ownIdCache.has(template)) {
    const read = operationsOf(document).find((each) => each.method === 'get' && each.path === template);
    let own: string | number | undefined;
    for (const id of read ? onePerKind(proberIds) : []) {
      const answer = await asOwner(prober)('GET', template.replace(/\{\w+\}/, encodeURIComponent(String(id))));
      if (answer.status < 300) {
        own = id;
        break;
      }
    }
    ownIdCache.set(template, own);
  }
  return ownIdCache.get(template);
}

interface RestProbe {
  entry: ApiOperation;
  /** Where the victim's id went. */
  slot: string;
  probed: string | number;
  /** The request with an id in the slot: the victim's, or a made-up one of the same kind. */
  request(id: string | number): { path: string; body: unknown };
}

/**
 * An id of the same kind as `id` that names nothing anywhere: what the
 * victim's id must be answered like, so that no answer tells whether an id
 * of another workspace exists (spec 5.3).
 */
const madeUpLike = (id: string | number): string | number => (typeof id === 'number' ? 987_654_321 : `${kindOf(id)}_01aaaaaaaaaaaaaaaaaaaaaaaa`);

/** An answer with the id it was asked about (and its request id) left out, to compare with another's. */
function withoutId(answer: { status: number; body: any }, id: string | number): string {
  const text = JSON.stringify({ status: answer.status, body: answer.body }, (key, value) => (key === 'requestId' ? undefined : value));
  return typeof id === 'number' ? text.replace(new RegExp(`(?<![\\d.])${id}(?![\\d.])`, 'g'), '<id>') : text.replaceAll(id, '<id>');
}

/** The victim's ids a slot of this schema takes: the compatibility API's integers where it takes digits, else one public id of each kind. */
function victimIdsFor(rawSchema: JsonSchema | undefined): (string | number)[] {
  const schema = resolveSchema(rawSchema, context());
  const integral = schema.type === 'integer' || schema.pattern === '^\\d+$' || resolveSchema(schema.items, context()).type === 'integer';
  return victimProbes.filter((id) => (typeof id === 'number') === integral);
}

/** The schema at a slot of a body schema. */
function schemaAt(rawSchema: JsonSchema | undefined, slot: string[]): JsonSchema | undefined {
  let schema = resolveSchema(rawSchema, context());
  for (const step of slot) {
    const options: JsonSchema[] = (schema.anyOf ?? schema.oneOf ?? []).map((option: JsonSchema) => resolveSchema(option, context()));
    if (options.length) schema = options.find((option) => (step === '[]' ? option.items : option.properties?.[step])) ?? schema;
    schema = resolveSchema(step === '[]' ? schema.items : schema.properties?.[step], context());
  }
  return schema;
}

async function restProbes(): Promise<{ probes: RestProbe[]; unreached: string[] }> {
  const probes: RestProbe[] = [];
  const unreached: string[] = [];
  for (const entry of operationsOf(document).filter((each) => !isPublicOperation(each))) {
    const parameters: any[] = entry.operation.parameters ?? [];
    const [pathParameter, ...laterPathParameters] = parameters.filter((parameter) => parameter.in === 'path');
    const fill = (...ids: (string | number)[]) => ids.reduce<string>((path, id) => path.replace(/\{\w+\}/, encodeURIComponent(String(id))), entry.path);
    // Path parameters are plain strings in the document, integer ids of the compatibility API included: each takes every kind.
    for (const probed of pathParameter ? victimProbes : []) {
      probes.push({ entry, slot: `path ${pathParameter.name}`, probed, request: (id) => ({ path: fill(id), body: minimalBody(entry) }) });
    }
    const querySlots = parameters.filter((parameter) => parameter.in === 'query' && isIdName(parameter.name));
    const bodySchema = bodySchemaOf(entry);
    const bodySlots = jsonIdSlots(bodySchema, context()).filter((slot) => !foreignIdFields.has(slot.join('.')));
    if (!querySlots.length && !bodySlots.length && !laterPathParameters.length) continue;
    const own = pathParameter ? await ownIdFor(entry) : undefined;
    if (pathParameter && own === undefined) {
      unreached.push(`${entry.method.toUpperCase()} ${entry.path}`);
      continue;
    }
    // A record of the victim's under the prober's own (an activity of theirs under a person of the prober's).
    for (const [position, parameter] of laterPathParameters.entries()) {
      for (const probed of victimProbes) {
        const filler = (id: string | number) => [own!, ...laterPathParameters.map((_, index) => (index === position ? id : madeUpLike(id)))];
        probes.push({ entry, slot: `path ${parameter.name}`, probed, request: (id) => ({ path: fill(...filler(id)), body: minimalBody(entry) }) });
      }
    }
    const path = own === undefined ? entry.path : fill(own);
    for (const parameter of querySlots) {
      for (const probed of victimIdsFor(parameter.schema)) {
        probes.push({ entry, slot: `query ${parameter.name}`, probed, request: (id) => ({ path: `${path}?${new URLSearchParams({ [parameter.name]: String(id) })}`, body: minimalBody(entry) }) });
      }
    }
    for (const slot of bodySlots) {
      for (const probed of victimIdsFor(schemaAt(bodySchema, slot))) {
        probes.push({ entry, slot: `body ${slot.join('.')}`, probed, request: (id) => ({ path, body: withIdAt(minimalBody(entry), slot, id) }) });
      }
    }
  }
  return { probes, unreached };
}

async function sendRestProbe(probe: RestProbe): Promise<void> {
  const { entry, slot, probed } = probe;
  const send = (id: string | number) => asOwner(prober)(entry.method.toUpperCase(), probe.request(id).path, probe.request(id).body);
  const answer = await send(probed);
  const compat = entry.path.startsWith('/compat/');
  const code = answer.body?.error?.code;
  const where = `${entry.method.toUpperCase()} ${entry.path} (${slot} = ${probed}) → ${answer.status} ${JSON.stringify(answer.body)?.slice(0, 300)}`;
  const featureDisabled = compat && answer.status === 501 && code === 'FEATURE_DISABLED';
  count(`${slot.split(' ')[0]} ${answer.status}${code ? ` ${code}` : ''}`);
  if (answer.status >= 500 && !featureDisabled) findings.push(`a failure of ours: ${where}`);
  if (slot.startsWith('path') && answer.status !== 404 && !featureDisabled) findings.push(`not 404: ${where}`);
  for (const leak of leaks(withoutSavedFilters(answer.body), probed)) findings.push(`${leak}: ${where}`);
  // A refusal of theirs must read as the refusal of an id nobody has (a count of exports a minute aside, which moves between the two).
  if (answer.status >= 400 && answer.status !== 429) {
    const madeUp = madeUpLike(probed);
    const unknown = await send(madeUp);
    if (unknown.status !== 429 && withoutId(unknown, madeUp) !== withoutId(answer, probed)) findings.push(`not as an unknown id (${withoutId(unknown, madeUp).slice(0, 300)}): ${where}`);
  }
}

// ---- GraphQL: every root field with an id among its arguments ----

async function graphqlAsProber(query: string, variables: Record<string, unknown>): Promise<{ status: number; body: any }> {
  const send = (headers: Record<string, string>) =>
    patiently(async () => {
      const response = await fetch(`${configured.earshot.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ query, variables }),
      });
      return { status: response.status, body: await response.json() };
    });
  const byKey = await send({ authorization: `Bearer ${prober.apiKey}` });
  const refused = byKey.body.errors?.some((error: any) => ['forbidden', 'unauthorized'].includes(error.extensions?.code));
  return refused ? send(sessionHeaders(prober, 'POST')) : byKey;
}

/** The prober's own record of a GraphQL type: the first of its ids (one per kind) that a query field taking only `id` finds. */
const ownOfType = new Map<string, string | undefined>();
async function ownIdOfType(typeName: string): Promise<string | undefined> {
  if (!ownOfType.has(typeName)) {
    const reader = rootFields().find(
      ({ kind, field }) => kind === 'query' && getNamedType(field.type).name === typeName && field.args.length === 1 && field.args[0].name === 'id' && isNonNullType(field.args[0].type),
    );
    let own: string | undefined;
    for (const id of reader ? onePerKind(proberIds).filter((each): each is string => typeof each === 'string') : []) {
      const answer = await graphqlAsProber(`query ($id: ID!) { ${reader!.field.name}(id: $id) { __typename } }`, { id });
      if (answer.body.data?.[reader!.field.name]) {
        own = id;
        break;
      }
    }
    ownOfType.set(typeName, own);
  }
  return ownOfType.get(typeName);
}

/** Nothing of anyone: null, false, an empty list, or an object holding only such things (a page with no items). */
const isEmpty = (value: unknown): boolean =>
  value === null || value === false || (Array.isArray(value) && value.length === 0) || (typeof value === 'object' && Object.values(value as object).every(isEmpty));

/**
 * Where a foreign id rightly leaves the prober's own records in the answer:
 * a filter excluding it (`notKeywordIds`), and an export's grant, which
 * names a download (of nothing of theirs) rather than records.
 */
const leavesOwnRecords = (root: RootField, path: string[]): boolean =>
  /^not[A-Z]/.test(path.at(-1) ?? '') || getNamedType(root.field.type).name === 'MentionExport';

async function probeField(root: RootField): Promise<void> {
  const slots = idSlots(root.field);
  const query = operationFor(root);
  for (const slot of slots) {
    // Another required `id` of the field (an update's) names the prober's own record, so the slot probed is what decides.
    const others = slots.filter((other) => other !== slot && other.path.length === 1 && other.path[0] === 'id');
    const own = others.length ? await ownIdOfType(getNamedType(root.field.type).name) : undefined;
    const variablesWith = (id: string | number) => ({ ...variablesWithSlot(root.field, slot, id), ...(own === undefined ? {} : { id: own }) });
    for (const probed of victimProbes.filter((id) => (slot.kind === 'Int' ? typeof id === 'number' : typeof id === 'string'))) {
      const answer = await graphqlAsProber(query, variablesWith(probed));
      const where = `${root.kind} ${root.field.name} (${slot.path.join('.')} = ${probed}) → ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`;
      const codes: string[] = (answer.body.errors ?? []).map((error: any) => error.extensions?.code);
      count(`graphql ${codes.length ? codes.join(',') : isEmpty(answer.body.data?.[root.field.name]) ? 'empty' : 'data'}`);
      if (answer.status >= 500 || codes.some((code) => typeof code !== 'string' || code === 'internal_error')) findings.push(`a failure of ours: ${where}`);
      if (!codes.length && !isEmpty(answer.body.data?.[root.field.name]) && !leavesOwnRecords(root, slot.path)) findings.push(`neither not_found nor empty: ${where}`);
      for (const leak of leaks(withoutSavedFilters(answer.body), probed)) findings.push(`${leak}: ${where}`);
      if (codes.length && !codes.includes('rate_limited')) {
        const madeUp = madeUpLike(probed);
        const unknown = await graphqlAsProber(query, variablesWith(madeUp));
        const unknownCodes: string[] = (unknown.body.errors ?? []).map((error: any) => error.extensions?.code);
        if (!unknownCodes.includes('rate_limited') && withoutId(unknown, madeUp) !== withoutId(answer, probed)) {
          findings.push(`not as an unknown id (${withoutId(unknown, madeUp).slice(0, 300)}): ${where}`);
        }
      }
    }
  }
}

/**
 * A saved filter (a segment's, a view's, a rule's) holds what the prober
 * itself wrote there while probing, the victim's ids included, and matches
 * nothing of theirs: echoing it back shows nothing of the victim's.
 */
const withoutSavedFilters = (answer: unknown): unknown => JSON.parse(JSON.stringify(answer), (key, value) => (key === 'filter' ? undefined : value));

describe('the isolation audit: every route and field called with another workspace’s ids', () => {
  it('answers every REST operation with 404 for their records, and never with anything of theirs', async () => {
    expect(victimProbes.some((id) => typeof id === 'number')).toBe(true);
    const { probes, unreached } = await restProbes();
    await inParallel(probes, 4, sendRestProbe);
    expect(unreached).toEqual([]);
    expect(findings).toEqual([]);
  }, 600_000);

  it('answers every GraphQL field taking an id with not_found or nothing, and never with anything of theirs', async () => {
    const fields = rootFields().filter((root) => root.kind !== 'subscription' && idSlots(root.field).length);
    await inParallel(fields, 4, probeField);
    console.log(`isolation audit: ${Object.values(tally).reduce((sum, each) => sum + each, 0)} probes answered ${JSON.stringify(tally)}`);
    expect(findings).toEqual([]);
  }, 600_000);

  it('answers every GraphQL query field without an id with nothing of theirs', async () => {
    for (const root of rootFields().filter(({ kind, field }) => kind === 'query' && !idSlots(field).length)) {
      const answer = await graphqlAsProber(operationFor(root), Object.fromEntries(root.field.args.map((arg) => [arg.name, minimalInput(arg.type)])));
      for (const leak of leaks(withoutSavedFilters(answer.body), '')) findings.push(`${leak}: query ${root.field.name}`);
    }
    expect(findings).toEqual([]);
  }, 120_000);

  it('leaves every stored row of the other workspace as it was', async () => {
    await jobsSettled(configured.earshot.sql);
    expect(await workspaceRows(configured.earshot.sql, victim.workspaceId)).toEqual(victimRows);
  }, 120_000);
  // Last: it stores mentions of the victim's on purpose.
  it('delivers on every subscription only what the prober’s own workspace stores', async () => {
    for (const root of rootFields().filter(({ kind }) => kind === 'subscription')) {
      const client = configured.earshot.subscribe(prober.apiKey);
      const { results } = collect(client, `subscription { ${root.field.name} ${selectionFor(root.field.type)} }`);
      const theirs = { id: victim.keywordIds[0], term: victim.marker };
      const ours = { id: prober.keywordIds[0], term: prober.marker };
      // The victim's mention is stored and announced before each of the prober's: had it been delivered, it would come first.
      await storeUntilDelivered(
        () => results.length >= 2,
        async (attempt) => {
          const theirMention = await newMention(configured.earshot, victim.workspaceId, theirs, `A post about ${victim.marker}, number ${attempt}`);
          const ourMention = await newMention(configured.earshot, prober.workspaceId, ours, `A post about ${prober.marker}, number ${attempt}`);
          // mentionUpdated announces a change: a note written to each, the victim's first.
          if (root.field.name === 'mentionUpdated') {
            await asOwner(victim)('PATCH', `/v1/mentions/${theirMention.id}`, { note: `audit ${attempt}` });
            await asOwner(prober)('PATCH', `/v1/mentions/${ourMention.id}`, { note: `audit ${attempt}` });
          }
          return ourMention;
        },
      );
      await client.dispose();
      expect(results.flatMap((result) => leaks(result, ''))).toEqual([]);
      expect(JSON.stringify(results[0])).toContain(prober.marker);
    }
  }, 120_000);

});
