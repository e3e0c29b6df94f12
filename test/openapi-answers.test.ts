import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { storeMatchedPosts } from '../subgraphs/mentions/mention-store.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalValue, resolveSchema, type SchemaContext } from './fuzz/schema-arbitraries.ts';
import { type ApiOperation, catalogueIds, type IdCatalogue, isPublicOperation, kindOf, operationsOf, pathParametersOf, withoutCredentials } from './id-catalogue.ts';
import { redditPost } from './scored-mentions.ts';
import { type ConfiguredEarshot, type SeededWorkspace, seedEveryObject, startConfiguredEarshot } from './workspace-with-everything.ts';

/**
 * What `openapi.json` says is what comes (spec 9.1, and the compatibility
 * API's own document): each document's schemas are JSON Schema 2020-12 whose
 * references resolve, every answer to a request built from an operation's
 * own schemas (a success or a refusal, whatever its status) matches the
 * response documented for that status, formats included, and carries the
 * headers that response names; a request the document calls valid is not
 * refused for its shape, and one it calls invalid is.
 */

let configured: ConfiguredEarshot;
let seeded: SeededWorkspace;
let known: IdCatalogue;
const documents: Record<'v1' | 'compat', any> = { v1: undefined, compat: undefined };

beforeAll(async () => {
  configured = await startConfiguredEarshot({ rateLimitPerMinute: 100_000_000 });
  seeded = await seedEveryObject(configured, 'Described');
  documents.v1 = (await configured.earshot.rest('GET', '/v1/openapi.json')).body;
  documents.compat = (await configured.earshot.rest('GET', '/compat/octolens/api/v2/openapi.json')).body;
  known = withoutCredentials(await catalogueIds(documents.v1, (method, path, body) => configured.earshot.rest(method, path, { key: seeded.apiKey, body })));
  // A mention not scored yet (classification null) with links, which no list of relevant mentions shows.
  const [unscored] = await storeMatchedPosts(configured.earshot.sql, [
    { post: { ...redditPost('Not scored yet: zq and its docs'), links: ['https://docs.example.com/zq'] }, matches: [{ keywordId: seeded.keywordIds[0], workspaceId: seeded.workspaceId, fuzzy: false }] },
  ]);
  known.ids.push(unscored.id);
}, 240_000);
afterAll(() => configured?.stop());

/** A JSON Schema 2020-12 validator holding the whole document, so that `#/components/...` references resolve. */
function validatorOf(document: any, name: string) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajvFormats.default(ajv);
  ajv.addSchema({ ...document, $id: name });
  const rebased = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rebased);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, key === '$ref' && typeof inner === 'string' && inner.startsWith('#') ? `${name}${inner}` : rebased(inner)]));
  };
  // By text: most responses repeat the same few schemas (`{ $ref: '#/components/schemas/Error' }`) as separate objects.
  const compiled = new Map<string, ValidateFunction>();
  return (schema: unknown): ValidateFunction => {
    const text = JSON.stringify(schema);
    if (!compiled.has(text)) compiled.set(text, ajv.compile(rebased(schema) as object));
    return compiled.get(text)!;
  };
}

const documentNames = ['v1', 'compat'] as const;
const validators = () => Object.fromEntries(documentNames.map((name) => [name, validatorOf(documents[name], name)])) as Record<(typeof documentNames)[number], ReturnType<typeof validatorOf>>;
const ownOperations = (name: (typeof documentNames)[number]) => operationsOf(documents[name]).filter(({ path }) => (name === 'compat') === path.startsWith('/compat/'));

/** The ids a path or body field of this name takes, by the kind its name says; every id when it names none. */
const prefixOfName: [RegExp, string][] = [
  [/keyword/i, 'kw'],
  [/mention|sourceId/i, 'mm'],
  [/channel/i, 'dest'],
  [/group/i, 'grp'],
  [/alert/i, 'feed'],
  [/view/i, 'view'],
  [/segment/i, 'seg'],
  [/person|people/i, 'per'],
  [/assignee|owner|member|user/i, 'usr'],
  [/workspace/i, 'org'],
];
function idsNamed(name: string): (string | number)[] {
  const prefix = prefixOfName.find(([pattern]) => pattern.test(name))?.[1];
  const matching = known.ids.filter((id) => kindOf(id) === prefix);
  return matching.length ? matching : known.ids;
}

/** The ids to try in a path: integers on the compatibility API, else ids of the kind the path's last named segment says. */
function pathIds(path: string): (string | number)[] {
  if (path.startsWith('/compat/')) return known.integerIds;
  const segments = path.split('/').filter((segment) => segment && !segment.startsWith('{'));
  const owner = path.endsWith('}') ? segments.at(-1)! : segments.at(-2)!;
  return idsNamed(owner);
}

const context = (document: any): SchemaContext => ({ components: document.components.schemas, idsFor: idsNamed });

/** An example with every property present, built as `minimalValue` builds the required ones. */
function fullValue(rawSchema: unknown, schemas: SchemaContext, name?: string, depth = 0): unknown {
  const schema = resolveSchema(rawSchema as Record<string, any>, schemas);
  const options: any[] | undefined = schema.anyOf ?? schema.oneOf;
  if ('const' in schema || schema.enum || depth > 5) return minimalValue(schema, schemas, name);
  if (options?.every((option) => option.type || option.$ref)) return fullValue(options.find((option) => option.type !== 'null') ?? options[0], schemas, name, depth);
  if (schema.type === 'object' || schema.properties) {
    return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([field, property]) => [field, fullValue(property, schemas, field, depth + 1)]));
  }
  if (schema.type === 'array') return [fullValue(schema.items, schemas, name, depth + 1)];
  return minimalValue(schema, schemas, name);
}

function credentialFor(document: any, operation: any, method: string): Record<string, string> {
  const security: Record<string, unknown>[] = operation.security ?? document.security;
  if (security.length === 0) return {};
  if (security.some((scheme) => 'apiKey' in scheme)) return { authorization: `Bearer ${seeded.apiKey}` };
  return { cookie: seeded.session.cookie, ...(method === 'get' ? {} : { 'x-csrf-token': seeded.session.csrfToken }) };
}

/** Headers that tell a client something (its budget, when to retry, how to authenticate): sent only where documented. */
const answerHeaders = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after', 'www-authenticate'];

interface Answer {
  status: number;
  text: string;
}

/** Sends a request and returns, beside the answer, every way the answer differs from what the operation documents. */
async function sendAndCompare(
  validate: ReturnType<typeof validatorOf>,
  { method, operation }: ApiOperation,
  path: string,
  options: { headers: Record<string, string>; body?: unknown },
): Promise<{ answer: Answer; differences: string[] }> {
  const response = await fetch(configured.earshot.url + path, {
    method: method.toUpperCase(),
    headers: { ...options.headers, ...(options.body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  const where = `${method.toUpperCase()} ${path} → ${response.status}`;
  const differences: string[] = [];
  const documented = operation.responses[String(response.status)];
  if (!documented) return { answer: { status: response.status, text }, differences: [`${where}: status not documented (${text.slice(0, 200)})`] };
  const described = Object.keys(documented.headers ?? {}).map((name) => name.toLowerCase());
  for (const name of described) if (response.headers.get(name) === null) differences.push(`${where}: no ${name} header`);
  for (const name of answerHeaders) if (response.headers.get(name) !== null && !described.includes(name)) differences.push(`${where}: ${name} sent, not documented`);
  // Media types compare without their parameters (`; charset=utf-8`), as OpenAPI matches them.
  const essence = (mediaType: string) => mediaType.split(';')[0].trim();
  const mediaType = essence(response.headers.get('content-type') ?? '');
  const content = documented.content as Record<string, { schema: unknown }> | undefined;
  const media = Object.entries(content ?? {}).find(([type]) => essence(type) === mediaType)?.[1];
  if (!content) {
    if (text) differences.push(`${where}: a body where none is documented`);
  } else if (!media) {
    differences.push(`${where}: ${mediaType} where ${Object.keys(content)} is documented`);
  } else if (mediaType === 'application/json') {
    const check = validate(media.schema);
    if (!check(JSON.parse(text))) differences.push(`${where}: ${JSON.stringify(check.errors!.slice(0, 3))} in ${text.slice(0, 300)}`);
  }
  return { answer: { status: response.status, text }, differences };
}

const filledPath = (path: string, id: string | number | undefined, otherIds: (name: string) => string | number) =>
  pathParametersOf(path).reduce((filled, name, index) => filled.replace(`{${name}}`, encodeURIComponent(String(index === 0 && id !== undefined ? id : otherIds(name)))), path);

const queryString = (operation: any, schemas: SchemaContext, which: 'all' | 'required', leftOut?: string) => {
  const parameters = (operation.parameters ?? []).filter(
    (parameter: any) => parameter.in === 'query' && parameter.name !== 'cursor' && parameter.name !== leftOut && (which === 'all' || parameter.required),
  );
  const text = (value: unknown) => (Array.isArray(value) ? value.join(',') : String(value));
  const search = new URLSearchParams(parameters.map((parameter: any) => [parameter.name, text(fullValue(parameter.schema, schemas, parameter.name))]));
  return search.size ? `?${search}` : '';
};

const isValidationRefusal = (answer: Answer) => answer.status === 400 && /"validation_error"|"VALIDATION_ERROR"/.test(answer.text);

/** Each required query parameter left out in turn: a 400 `validation_error`, answered as documented. */
async function withoutEachRequiredParameter(validate: ReturnType<typeof validatorOf>, entry: ApiOperation, path: string, schemas: SchemaContext, headers: Record<string, string>) {
  const differences: string[] = [];
  for (const parameter of (entry.operation.parameters ?? []).filter((each: any) => each.in === 'query' && each.required)) {
    const { answer, differences: more } = await sendAndCompare(validate, entry, path + queryString(entry.operation, schemas, 'required', parameter.name), { headers });
    differences.push(...more);
    if (!isValidationRefusal(answer)) differences.push(`${entry.method} ${path} without ${parameter.name}: ${answer.status} ${answer.text.slice(0, 200)}`);
  }
  return differences;
}

describe('openapi.json against the running service', () => {
  it('is JSON Schema 2020-12 throughout: every schema compiles and every $ref resolves, in both documents', async () => {
    const problems: string[] = [];
    for (const name of documentNames) {
      const validate = validatorOf(documents[name], name);
      const schemas: [string, unknown][] = Object.keys(documents[name].components.schemas).map((id) => [`components.schemas.${id}`, { $ref: `#/components/schemas/${id}` }]);
      for (const { path, method, operation } of operationsOf(documents[name])) {
        for (const parameter of operation.parameters ?? []) schemas.push([`${method} ${path} parameter ${parameter.name}`, parameter.schema]);
        for (const [type, media] of Object.entries(operation.requestBody?.content ?? {})) schemas.push([`${method} ${path} body ${type}`, (media as any).schema]);
        for (const [status, response] of Object.entries(operation.responses as Record<string, any>)) {
          for (const [type, media] of Object.entries(response.content ?? {})) schemas.push([`${method} ${path} ${status} ${type}`, (media as any).schema]);
        }
      }
      for (const [where, schema] of schemas) {
        try {
          validate(schema);
        } catch (error) {
          problems.push(`${name}: ${where}: ${(error as Error).message}`);
        }
        // Compiling is synchronous: the event loop turns between schemas, so idle connections close on time rather than all at once.
        await new Promise(setImmediate);
      }
    }
    expect(problems).toEqual([]);
  }, 120_000);

  it('answers every read as documented, for every id of the kind it takes, without a credential, and without a required parameter (400 validation_error)', async () => {
    const differences: string[] = [];
    const validate = validators();
    for (const name of documentNames) {
      const schemas = context(documents[name]);
      for (const entry of ownOperations(name).filter(({ method }) => method === 'get')) {
        const headers = credentialFor(documents[name], entry.operation, 'get');
        const ids = pathParametersOf(entry.path).length ? pathIds(entry.path) : [undefined];
        for (const id of ids) {
          const path = filledPath(entry.path, id, (parameter) => idsNamed(parameter)[0]);
          for (const which of ['all', 'required'] as const) differences.push(...(await sendAndCompare(validate[name], entry, path + queryString(entry.operation, schemas, which), { headers })).differences);
        }
        differences.push(...(await withoutEachRequiredParameter(validate[name], entry, filledPath(entry.path, ids[0], (parameter) => idsNamed(parameter)[0]), schemas, headers)));
        if (!isPublicOperation(entry)) differences.push(...(await sendAndCompare(validate[name], entry, filledPath(entry.path, 'x', () => 'x'), { headers: {} })).differences);
      }
    }
    expect(differences).toEqual([]);
  }, 120_000);

  /** A request written by hand, for the document and the service to judge alike. */
  interface Judged {
    document: (typeof documentNames)[number];
    method: string;
    path: string;
    query?: Record<string, string>;
    body?: unknown;
  }

  /** Whether the document takes the request's query parameters and body, and what the service answers it. */
  async function judge(validate: ReturnType<typeof validators>, request: Judged): Promise<{ documented: string[]; status: number; text: string }> {
    const document = documents[request.document];
    const operation = document.paths[request.path][request.method];
    const documented: string[] = [];
    for (const [name, value] of Object.entries(request.query ?? {})) {
      const parameter = operation.parameters.find((each: any) => each.name === name && each.in === 'query');
      const check = validate[request.document](parameter.schema);
      if (!check(value)) documented.push(`query ${name}: ${JSON.stringify(check.errors![0])}`);
    }
    if (request.body !== undefined) {
      const check = validate[request.document](operation.requestBody.content['application/json'].schema);
      if (!check(request.body)) documented.push(`body: ${JSON.stringify(check.errors![0])}`);
    }
    const search = new URLSearchParams(request.query).toString();
    const { answer } = await sendAndCompare(validate[request.document], { path: request.path, method: request.method, operation }, `${filledPath(request.path, pathIds(request.path)[0], (name) => idsNamed(name)[0])}${search ? `?${search}` : ''}`, {
      headers: credentialFor(document, operation, request.method),
      body: request.body,
    });
    return { documented, ...answer };
  }

  it('describes the formats the service checks: a request the document refuses is 400, and its well-formed twin is taken by both', async () => {
    const validate = validators();
    const pairs: [string, Judged, Judged][] = [
      ['an e-mail address', { document: 'v1', method: 'post', path: '/v1/members/invitations', body: { email: 'not-an-address' } }, { document: 'v1', method: 'post', path: '/v1/members/invitations', body: { email: 'new.person@example.com' } }],
      ['a webhook address', { document: 'v1', method: 'post', path: '/v1/channels', body: { kind: 'webhook', url: 'hooks.example.com/in' } }, { document: 'v1', method: 'post', path: '/v1/channels', body: { kind: 'webhook', url: 'https://93.184.215.14/in' } }],
      ['another kind\'s field', { document: 'v1', method: 'post', path: '/v1/channels', body: { kind: 'webhook', url: 'https://93.184.215.14/in', chatId: '-100123' } }, { document: 'v1', method: 'post', path: '/v1/channels', body: { kind: 'webhook', url: 'https://93.184.215.14/in', label: 'In' } }],
      ['the field a kind needs', { document: 'v1', method: 'post', path: '/v1/channels', body: { kind: 'email' } }, { document: 'v1', method: 'post', path: '/v1/channels', body: { kind: 'email', address: 'alerts@example.com' } }],
      ['a feed address', { document: 'v1', method: 'patch', path: '/v1/keywords/{id}', body: { feeds: [{ url: 'not a feed' }] } }, { document: 'v1', method: 'patch', path: '/v1/keywords/{id}', body: { feeds: [] } }],
      ['a review source', { document: 'v1', method: 'patch', path: '/v1/keywords/{id}', body: { reviewSources: [{ countries: ['us'] }] } }, { document: 'v1', method: 'patch', path: '/v1/keywords/{id}', body: { reviewSources: [] } }],
      ['a repository', { document: 'v1', method: 'patch', path: '/v1/filters', body: { githubRepositories: ['not a repository'] } }, { document: 'v1', method: 'patch', path: '/v1/filters', body: { githubRepositories: ['acme/widget', 'https://github.com/Acme/Gadget'] } }],
      ['a web address', { document: 'v1', method: 'patch', path: '/v1/company-profile', body: { website: 'our website' } }, { document: 'v1', method: 'patch', path: '/v1/company-profile', body: { website: 'acme.example' } }],
      ['a link host', { document: 'v1', method: 'post', path: '/v1/segments', body: { name: 'Hosts', filter: { linkHosts: ['not a host!'] } } }, { document: 'v1', method: 'post', path: '/v1/segments', body: { name: 'Hosts', filter: { linkHosts: ['docs.example.com'] } } }],
      ['a weekday', { document: 'v1', method: 'post', path: '/v1/alerts', body: { name: 'Weekly', mode: 'weekly', schedule: { weekday: 'someday' } } }, { document: 'v1', method: 'post', path: '/v1/alerts', body: { name: 'Weekly', mode: 'weekly', schedule: { weekday: 'Monday' } } }],
      ['a list of stages', { document: 'v1', method: 'get', path: '/v1/people', query: { stages: 'contacted,lost' } }, { document: 'v1', method: 'get', path: '/v1/people', query: { stages: 'contacted,replied' } }],
      ['an instant', { document: 'v1', method: 'get', path: '/v1/mentions', query: { since: 'yesterday' } }, { document: 'v1', method: 'get', path: '/v1/mentions', query: { since: '2026-01-15', until: '2026-12-01T10:00:00Z' } }],
      ['a sentiment in any case', { document: 'compat', method: 'post', path: '/compat/octolens/api/v2/mentions', body: { filters: { sentiment: ['sad'] } } }, { document: 'compat', method: 'post', path: '/compat/octolens/api/v2/mentions', body: { filters: { sentiment: ['POSITIVE', 'negative'] } } }],
      ['a relevance bucket', { document: 'compat', method: 'post', path: '/compat/octolens/api/v2/mentions', body: { filters: { relevance: [5] } } }, { document: 'compat', method: 'post', path: '/compat/octolens/api/v2/mentions', body: { filters: { relevance: [0, '2'] } } }],
      ['how groups join', { document: 'compat', method: 'post', path: '/compat/octolens/api/v2/mentions', body: { filters: { operator: 'XOR', groups: [] } } }, { document: 'compat', method: 'post', path: '/compat/octolens/api/v2/mentions', body: { filters: { operator: 'or', groups: [] } } }],
      ['sentiments as a query', { document: 'compat', method: 'get', path: '/compat/octolens/api/v2/analytics/sentiment', query: { sentiment: 'POSITIVE,sad' } }, { document: 'compat', method: 'get', path: '/compat/octolens/api/v2/analytics/sentiment', query: { sentiment: 'POSITIVE,Negative' } }],
      ['a filter list entry', { document: 'compat', method: 'patch', path: '/compat/octolens/api/v2/filters/global', body: { negativeRepos: ['not a repository'], negativeKeywords: ['x'.repeat(81)] } }, { document: 'compat', method: 'patch', path: '/compat/octolens/api/v2/filters/global', body: { negativeRepos: ['acme/widget'], negativeKeywords: ['x'.repeat(80)] } }],
      ['one suggestion or one keyword', { document: 'compat', method: 'delete', path: '/compat/octolens/api/v2/keywords/suggestions', body: {} }, { document: 'compat', method: 'delete', path: '/compat/octolens/api/v2/keywords/suggestions', body: { keywordId: 1 } }],
      ['a platform name', { document: 'compat', method: 'post', path: '/compat/octolens/api/v2/keywords', body: { keyword: 'Widgetry', platforms: ['myspace'] } }, { document: 'compat', method: 'post', path: '/compat/octolens/api/v2/keywords', body: { keyword: 'Widgetry', platforms: ['twitter', 'dev', 'reddit'] } }],
    ];
    const wrong: string[] = [];
    for (const [what, refused, taken] of pairs) {
      const bad = await judge(validate, refused);
      if (!bad.documented.length || bad.status !== 400) wrong.push(`${what}, refused: document ${bad.documented.length ? 'refuses' : 'takes'} it, service ${bad.status} ${bad.text.slice(0, 150)}`);
      const good = await judge(validate, taken);
      if (good.documented.length || good.status >= 300) wrong.push(`${what}, taken: document ${good.documented.join('; ') || 'takes it'}, service ${good.status} ${good.text.slice(0, 150)}`);
    }
    expect(wrong).toEqual([]);
  }, 60_000);

  it('answers every change as documented, with every field and with the required ones only; a required field or parameter left out is 400 validation_error', async () => {
    const differences: string[] = [];
    const validate = validators();
    // Deletions late and the session's own routes last, so that the session and key the run sends still work.
    const order = (entry: ApiOperation) => (entry.path.endsWith('/sign-out') ? 4 : entry.path.endsWith('/switch-workspace') ? 3 : entry.method === 'delete' ? 2 : 1);
    for (const name of documentNames) {
      const schemas = context(documents[name]);
      const changes = ownOperations(name).filter(({ method }) => method !== 'get').sort((a, b) => order(a) - order(b));
      for (const entry of changes) {
        const headers = credentialFor(documents[name], entry.operation, entry.method);
        const [firstId] = pathParametersOf(entry.path).length ? pathIds(entry.path).filter((id) => id !== seeded.owner.id) : [undefined];
        differences.push(...(await withoutEachRequiredParameter(validate[name], entry, filledPath(entry.path, firstId, (parameter) => idsNamed(parameter)[0]), schemas, headers)));
        const path = filledPath(entry.path, firstId, (parameter) => idsNamed(parameter)[0]) + queryString(entry.operation, schemas, 'all');
        const bodySchema = entry.operation.requestBody?.content?.['application/json']?.schema;
        if (!bodySchema) {
          differences.push(...(await sendAndCompare(validate[name], entry, path, { headers })).differences);
          continue;
        }
        const required = minimalValue(bodySchema, schemas) as Record<string, unknown>;
        // Refusals first: a valid workspace switch ends the session the run sends.
        for (const field of resolveSchema(bodySchema, schemas).required ?? []) {
          const { [field]: _left, ...rest } = required;
          const { answer, differences: more } = await sendAndCompare(validate[name], entry, path, { headers, body: rest });
          differences.push(...more);
          if (!isValidationRefusal(answer)) differences.push(`${entry.method} ${path} without ${field}: ${answer.status} ${answer.text.slice(0, 200)}`);
        }
        for (const body of [fullValue(bodySchema, schemas), required]) differences.push(...(await sendAndCompare(validate[name], entry, path, { headers, body })).differences);
      }
    }
    expect(differences).toEqual([]);
  }, 180_000);
});
