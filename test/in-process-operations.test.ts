import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEarshot, type TestEarshot } from './harness.ts';

// `allInOne` answers an operation planned as one fetch to a subgraph of its
// own process without the router (gateway/plugins/use-in-process-operations.ts);
// `gateway` is a gateway of its own over the same subgraphs, on the
// router's way over HTTP. Every answer must be the same.
let allInOne: TestEarshot;
let gateway: TestEarshot;
let key: string;
let readKey: string;

beforeAll(async () => {
  allInOne = await startTestEarshot();
  gateway = await startTestEarshot({ subgraphUrls: allInOne.subgraphUrls }, { role: 'gateway', databaseUrl: allInOne.databaseUrl });
  key = (await allInOne.createWorkspace('Acme')).apiKey;
  const created = await allInOne.rest('POST', '/v1/api-keys', { key, body: { name: 'Reader', scope: 'read' } });
  expect(created.status).toBe(200);
  readKey = created.body.key;
});
afterAll(async () => {
  await gateway?.stop();
  await allInOne?.stop();
});

/** An answer without its errors' request ids, which differ from request to request. */
const withoutRequestIds = (body: { errors?: { extensions?: Record<string, unknown> }[] }) => ({
  ...body,
  ...(body.errors ? { errors: body.errors.map(({ extensions: { requestId: _requestId, ...extensions } = {}, ...error }) => ({ ...error, extensions })) } : {}),
});

/**
 * The operation's answer from both processes: the all-in-one process is
 * asked twice, since it reads an operation's plan as it first runs it the
 * router's way and takes the shorter way from the second time on.
 */
async function answersOf(query: string, variables: Record<string, unknown> = {}, as = key) {
  const first = await allInOne.graphql(query, variables, as);
  const again = await allInOne.graphql(query, variables, as);
  const split = await gateway.graphql(query, variables, as);
  for (const answer of [first, again]) expect({ status: answer.status, body: withoutRequestIds(answer.body) }).toEqual({ status: split.status, body: withoutRequestIds(split.body) });
  return { status: again.status, body: again.body };
}

describe('operations answered by one subgraph of the same process', () => {
  it('answer a query as the router does', async () => {
    const { status, body } = await answersOf('query Whoami { whoami { workspace { name } auth { kind scope expiresAt } user { id } } }');
    expect(status).toBe(200);
    expect(body).toEqual({ data: { whoami: { workspace: { name: 'Acme' }, auth: { kind: 'api_key', scope: 'write', expiresAt: null }, user: null } } });
  });

  it('answer a query with variables, aliases and a fragment as the router does', async () => {
    const { body } = await answersOf('query Named($id: ID!) { found: keyword(id: $id) { ...Term } } fragment Term on Keyword { id term }', { id: 'kw_missing' });
    expect(body.errors).toEqual([expect.objectContaining({ path: ['found'], extensions: expect.objectContaining({ code: 'not_found', serviceName: 'keywords' }) })]);
  });

  it('answer a field error as the router does: its path, code and subgraph, no data past a required root field', async () => {
    const { body } = await answersOf('query ($id: ID!) { keyword(id: $id) { id term } }', { id: 'kw_missing' });
    expect(body).toEqual({ errors: [expect.objectContaining({ path: ['keyword'], extensions: expect.objectContaining({ code: 'not_found', serviceName: 'keywords' }) })] });
    // The mentions subgraph runs its operations compiled by graphql-jit.
    const compiled = await answersOf('query ($id: ID!) { mention(id: $id) { id } }', { id: 'mm_missing' });
    expect(compiled.body).toEqual({ errors: [expect.objectContaining({ path: ['mention'], extensions: expect.objectContaining({ code: 'not_found', serviceName: 'mentions' }) })] });
  });

  it('refuse a NUL character as the subgraph does', async () => {
    const { body } = await answersOf('query ($id: ID!) { keyword(id: $id) { id } }', { id: 'kw_\u0000' });
    expect(body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'validation_error', field: 'id' }) })]);
  });

  it('refuse variables the supergraph cannot take as the router does', async () => {
    const { body } = await answersOf('query ($first: Int) { keywords(first: $first) { nodes { id } } }', { first: 'ten' });
    expect(body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'validation_error' }) })]);
  });

  it('answer a mutation and its refusal as the router does', async () => {
    const renamed = await answersOf('mutation ($name: String!) { updateWorkspace(input: { name: $name }) { name } }', { name: 'Acme Labs' });
    expect(renamed.body).toEqual({ data: { updateWorkspace: { name: 'Acme Labs' } } });
    const refused = await answersOf('mutation ($id: ID!) { revokeApiKey(id: $id) { id } }', { id: 'key_missing' });
    expect(refused.body.errors).toEqual([expect.objectContaining({ path: ['revokeApiKey'], extensions: expect.objectContaining({ code: 'not_found' }) })]);
  });

  it('keep the gateway\'s refusals before execution: a read key changing anything', async () => {
    const { status, body } = await answersOf('mutation ($name: String!) { updateWorkspace(input: { name: $name }) { name } }', { name: 'Read Only' }, readKey);
    expect(status).toBe(403);
    expect(body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'read_only_key' }) })]);
  });
});
