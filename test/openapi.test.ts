import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeTables } from '../rest-facade/route-table.ts';
import { webhookEvents } from '../rest-facade/webhook-events.ts';
import { keywordCapped, keywordPausedForBalance, keywordResumed, walletLow, walletPaused, walletResumed } from '../subgraphs/billing/run-state-events.ts';
import { startTestEarshot, type TestEarshot } from './harness.ts';

const allRoutes = routeTables.flatMap((table) => table.routes);
let earshot: TestEarshot;
let document: any;

beforeAll(async () => {
  earshot = await startTestEarshot();
  const response = await earshot.rest('GET', '/v1/openapi.json');
  expect(response.status).toBe(200);
  document = response.body;
});
afterAll(() => earshot?.stop());

const httpMethods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

describe('GET /v1/openapi.json', () => {
  it('is public JSON describing OpenAPI 3.1 version 0.0.1', async () => {
    const response = await earshot.rest('GET', '/v1/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(document.info).toMatchObject({ title: 'Earshot API', version: '0.0.1' });
  });

  it('passes an OpenAPI 3.1 schema validator', async () => {
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('describes every route of the tables with its method, and nothing else', () => {
    const documented = Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((key) => httpMethods.includes(key))
        .map((method) => `${method.toUpperCase()} ${path}`),
    );
    const routed = allRoutes.map((route) => `${route.method} ${route.path}`);
    expect(documented.sort()).toEqual(routed.sort());
    expect(new Set(routed).size).toBe(routed.length);
  });

  it('describes the headers answers carry: X-Request-Id on every one, X-RateLimit-* where the request was counted, Retry-After on 429 and 503', async () => {
    expect(Object.keys(document.components.headers).sort()).toEqual(['Retry-After', 'WWW-Authenticate', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'X-Request-Id']);
    const whoami = document.paths['/v1/whoami'].get.responses;
    expect(Object.keys(whoami['200'].headers).sort()).toEqual(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'X-Request-Id']);
    expect(Object.keys(whoami['429'].headers).sort()).toEqual(['Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'X-Request-Id']);
    expect(Object.keys(whoami['503'].headers).sort()).toEqual(['Retry-After', 'X-Request-Id']);
    expect(Object.keys(document.paths['/v1/health'].get.responses['200'].headers)).toEqual(['X-Request-Id']);
    for (const item of Object.values(document.paths as Record<string, Record<string, any>>)) {
      for (const [method, operation] of Object.entries(item)) {
        if (!httpMethods.includes(method)) continue;
        for (const response of Object.values(operation.responses as Record<string, any>)) expect(response.headers['X-Request-Id']).toEqual({ $ref: '#/components/headers/X-Request-Id' });
      }
    }
    // What the document says is what comes: a counted answer carries the budget.
    const { apiKey } = await earshot.createWorkspace('Described headers');
    const answer = await earshot.rest('GET', '/v1/whoami', { key: apiKey });
    for (const name of Object.keys(whoami['200'].headers)) expect(answer.headers.get(name)).not.toBeNull();
  });

  it('describes a page size and a window in days as the integers they are, with their bounds', () => {
    const parameter = (path: string, name: string) => document.paths[path].get.parameters.find((each: { name: string }) => each.name === name).schema;
    expect(parameter('/v1/people', 'limit')).toEqual({ type: 'integer', minimum: 1, maximum: 100, description: 'Page size, 1 to 100 (default 50)' });
    expect(parameter('/v1/people/{id}/activities', 'limit')).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
    expect(parameter('/v1/keywords/{id}/health', 'days')).toMatchObject({ type: 'integer', minimum: 1, maximum: 90 });
  });

  it('names the three credentials of spec 5.2 and which each route takes: none when public, a person for team changes, the session for its own routes, a key on the compatibility API', () => {
    expect(document.security).toEqual([{ apiKey: [] }, { oauth: ['read'] }, { session: [] }]);
    expect(document.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.components.securitySchemes.oauth).toMatchObject({
      type: 'oauth2',
      flows: { authorizationCode: { authorizationUrl: '/oauth/authorize', tokenUrl: '/oauth/token', scopes: { read: expect.any(String), write: expect.any(String) } } },
    });
    expect(document.components.securitySchemes.session).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'earshot_session' });
    const securityOf = (method: string, path: string) => document.paths[path][method].security;
    const person = [{ oauth: ['write'] }, { session: [] }];
    for (const [method, path] of [
      ['post', '/v1/members/invitations'],
      ['delete', '/v1/members/invitations/{id}'],
      ['patch', '/v1/members/{id}'],
      ['delete', '/v1/members/{id}'],
      ['put', '/v1/auth/password'],
      ['patch', '/v1/me/notifications'],
    ]) {
      expect([method, path, securityOf(method, path)]).toEqual([method, path, person]);
    }
    expect(securityOf('get', '/v1/me/notifications')).toEqual([{ oauth: ['read'] }, { session: [] }]);
    expect(securityOf('post', '/v1/auth/sign-out')).toEqual([{ session: [] }]);
    expect(securityOf('get', '/v1/members')).toBeUndefined();
    expect(securityOf('post', '/v1/keywords')).toEqual([{ apiKey: [] }, { oauth: ['write'] }, { session: [] }]);
    expect(securityOf('get', '/compat/octolens/api/v2/keywords')).toEqual([{ apiKey: [] }]);
    for (const route of allRoutes) {
      const operation = document.paths[route.path][route.method.toLowerCase()];
      expect(operation.operationId).toBe(route.operationId);
      if (route.public) expect(operation.security).toEqual([]);
      else expect(operation.security ?? document.security).not.toEqual([]);
    }
  });

  it('refuses an API key on every route it documents as taking a signed-in person or the session alone (403 forbidden)', async () => {
    const { apiKey } = await earshot.createWorkspace('Person routes');
    const bodies: Record<string, unknown> = {
      inviteMember: { email: 'someone@example.com' },
      changeMemberRole: { role: 'member' },
      setPassword: { newPassword: 'a long enough password' },
      updateNotificationSettings: { ownerEmails: false },
      switchWorkspace: { workspaceId: 'org_other' },
    };
    const personal = allRoutes.filter((route) => route.credentials);
    expect(personal.map((route) => route.operationId).sort()).toEqual(
      ['changeMemberRole', 'getNotificationSettings', 'inviteMember', 'removeMember', 'setPassword', 'signOut', 'switchWorkspace', 'updateNotificationSettings', 'withdrawInvitation'].sort(),
    );
    for (const route of personal) {
      const refused = await earshot.rest(route.method, route.path.replace(/\{\w+\}/g, 'x'), { key: apiKey, body: bodies[route.operationId] });
      expect([route.operationId, refused.status, refused.body.error.code]).toEqual([route.operationId, 403, 'forbidden']);
    }
  });

  it('answers the routes it documents as public without a key', async () => {
    for (const route of allRoutes.filter((candidate) => candidate.public && candidate.method === 'GET' && !candidate.query)) {
      const response = await earshot.rest(route.method, route.path);
      expect(response.status).toBe(200);
    }
    // The payment provider's webhook needs no key either: without a signature it is refused for that, not for the key.
    const webhook = await earshot.rest('POST', '/v1/billing/stripe/webhook', { body: { id: 'evt_1', type: 'ping', data: { object: {} } } });
    expect(webhook.body.error.code).toBe('webhook_not_configured');
    // Nor does Slack's OAuth redirect, which is refused without the query Slack sends.
    const slackCallback = await earshot.rest('GET', '/v1/slack/oauth/callback');
    expect(slackCallback.body.error).toMatchObject({ code: 'validation_error', field: 'state' });
  });

  // Found by the REST fuzz run: a dead key sent where none is needed was answered 401, which the document did not say.
  it('answers a public GraphQL route sent a dead key with the 401 it documents', async () => {
    const interactions = await earshot.rest('POST', '/v1/slack/interactions', { key: `mk_live_${'0'.repeat(43)}`, body: {} });
    expect({ status: interactions.status, code: interactions.body.error.code }).toEqual({ status: 401, code: 'unauthorized' });
    for (const route of allRoutes.filter((candidate) => candidate.public && 'operation' in candidate)) {
      expect(Object.keys(document.paths[route.path][route.method.toLowerCase()].responses), `${route.method} ${route.path}`).toContain('401');
    }
  });

  it('describes each account event request with the data fields of spec 6.4, as the service builds them', () => {
    const wallet = { balanceCents: 100, effectiveCents: 90, nextDayCents: 17, resumeCostCents: 0, activeKeywords: 1, pausedKeywords: 0 };
    const dataFields: Record<string, string[]> = {
      'keyword.capped': ['keyword', 'cap', 'thisMonth', 'pausedAt', 'resumesAt'],
      'keyword.paused_for_balance': ['keyword', 'pausedAt', 'wallet'],
      'keyword.resumed': ['keyword', 'reason', 'resumedAt'],
      'wallet.low': ['wallet', 'lastCreditCents', 'at'],
      'wallet.paused': ['wallet', 'keywordsPaused', 'at'],
      'wallet.resumed': ['wallet', 'keywordsResumed', 'at'],
    };
    const schemas = document.components.schemas;
    const requests = schemas.AccountEventDelivery.oneOf.map((each: { $ref: string }) => schemas[each.$ref.replace('#/components/schemas/', '')]);
    expect(Object.fromEntries(requests.map((request: any) => [request.properties.event.const, [...request.properties.data.required].sort()]))).toEqual(
      Object.fromEntries(Object.entries(dataFields).map(([name, fields]) => [name, [...fields].sort()])),
    );
    expect(schemas.KeywordCappedDelivery.properties.data.properties.keyword.required).toEqual(['id', 'term', 'kind']);
    expect(schemas.KeywordResumedDelivery.properties.data.properties.reason.enum).toEqual(['balance_restored', 'cap_raised', 'cap_removed', 'month_turned']);
    expect(Object.keys(schemas.AccountEventWallet.properties).sort()).toEqual(Object.keys(wallet).sort());

    const keyword = { id: 'kw_1', workspaceId: 'org_1', term: 'acme', kind: 'brand' as const };
    const at = new Date('2026-03-02T10:00:00.000Z');
    const built = [
      keywordCapped(keyword, { mentions: 5, thisMonth: 5, resumesAt: new Date('2026-04-01T00:00:00.000Z') }, at),
      keywordPausedForBalance(keyword, wallet, at),
      keywordResumed(keyword, 'cap_raised', at),
      walletLow('org_1', wallet, 2000, at),
      walletPaused('org_1', wallet, 3, at),
      walletResumed('org_1', wallet, 3, at),
    ];
    const request = webhookEvents.find((event) => event.name === 'account-event')!.schema;
    for (const event of built) {
      const body = { id: 'dlv_1', event: event.name, createdAt: at.toISOString(), alert: null, data: event.data };
      expect(request.safeParse(body).error, event.name).toBeUndefined();
    }
    expect(request.safeParse({ id: 'dlv_1', event: 'wallet.low', createdAt: at.toISOString(), alert: null, data: { wallet } }).success).toBe(false);
  });
});
