import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeTables } from '../rest-facade/route-table.ts';
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

  it('marks exactly the public routes as needing no credential', () => {
    for (const route of allRoutes) {
      const operation = document.paths[route.path][route.method.toLowerCase()];
      expect(operation.operationId).toBe(route.operationId);
      expect(operation.security).toEqual(route.public ? [] : undefined);
    }
    expect(document.security).toEqual([{ apiKey: [] }]);
    expect(document.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
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
});
