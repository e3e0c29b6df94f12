import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardDistDir } from '../server/dashboard-files.ts';
import { startTestEarshot, type TestEarshot } from './harness.ts';

let earshot: TestEarshot;

beforeAll(async () => {
  earshot = await startTestEarshot();
});
afterAll(() => earshot?.stop());

const get = (path: string, init: RequestInit = {}) => fetch(`${earshot.url}${path}`, init);

describe('the dashboard on the public port', () => {
  it('answers / and every client-side route with the page, uncached, under a strict content security policy', async () => {
    const page = await readFile(path.join(dashboardDistDir, 'index.html'), 'utf8');
    for (const route of ['/', '/inbox', '/inbox?status=done&sort=priority', '/keywords/kw_123', '/sign-in/link?token=abc', '/no/such/page']) {
      const response = await get(route);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(await response.text()).toBe(page);
    }
    expect(page).toMatch(/<script type="module" crossorigin src="\/assets\/index-[\w-]+\.js"><\/script>/);
    const head = await get('/inbox', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('serves the built assets gzip-compressed with year-long immutable caching, and 404s a missing one instead of the page', async () => {
    const assets = await readdir(path.join(dashboardDistDir, 'assets'));
    const script = assets.find((name) => /^index-.*\.js$/.test(name))!;
    const response = await get(`/assets/${script}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('vary')).toBe('Accept-Encoding');
    // fetch decodes the gzip body; the last test reads the compressed bytes themselves.
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(await response.text()).toBe(await readFile(path.join(dashboardDistDir, 'assets', script), 'utf8'));

    const missing = await get('/assets/index-nothing.js');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect((await missing.json()).error.code).toBe('not_found');
    expect((await get('/.vite/manifest.json')).status).toBe(404);
  });

  it('answers a file the build does not have, or a client that takes no HTML, with the 404 envelope rather than the page', async () => {
    for (const [route, accept] of [
      ['/favicon.ico', 'image/avif,image/webp,*/*;q=0.8'],
      ['/robots.txt', '*/*'],
      ['/openapi.json', 'application/json'],
      ['/health', 'application/json'],
      ['/api/v1/keywords', 'application/json'],
      ['/inbox', 'application/json'],
      // The version is the path prefix (spec 9.1): another version is an API path, whatever the client takes.
      ['/v2/keywords', '*/*'],
      ['/V1/keywords', '*/*'],
      ['/api/v1/keywords', '*/*'],
    ]) {
      const response = await get(route, { headers: { accept } });
      expect([route, response.status, response.headers.get('content-type')]).toEqual([route, 404, 'application/json; charset=utf-8']);
      expect((await response.json()).error).toMatchObject({ code: 'not_found', requestId: response.headers.get('x-request-id') });
    }
    // A browser and a fetch with its default Accept (`*/*`) get the page of a route; `/` is the page for anyone.
    for (const accept of ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', '*/*', undefined]) {
      const response = await get('/team', accept ? { headers: { accept } } : {});
      expect([accept, response.status, response.headers.get('content-type')]).toEqual([accept, 200, 'text/html; charset=utf-8']);
    }
    expect((await get('/', { headers: { accept: 'application/json' } })).status).toBe(200);
    // A request with a credential header is an API client's, not a browser opening a page.
    const keyed = await get('/keywords', { headers: { authorization: 'Bearer mk_live_x' } });
    expect([keyed.status, keyed.headers.get('content-type')]).toEqual([404, 'application/json; charset=utf-8']);
  });

  it('leaves the API paths to the APIs: unknown ones and other methods are the JSON 404 envelope, /graphql still answers', async () => {
    for (const [method, route] of [
      ['GET', '/v1/nothing-here'],
      ['GET', '/v1'],
      ['GET', '/compat/octolens/api/v1/mentions'],
      ['GET', '/.well-known/nothing-here'],
      ['GET', '/oauth/nothing-here'],
      // The APIs' roots themselves, bare or with a slash, are not pages of the app either.
      ['GET', '/compat'],
      ['GET', '/oauth'],
      ['GET', '/.well-known'],
      ['GET', '/graphql/'],
      ['POST', '/inbox'],
    ]) {
      const response = await get(route, { method });
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect((await response.json()).error.code).toMatch(/^(not_found|NOT_FOUND)$/);
    }
    const graphql = await earshot.graphql('{ whoami { workspace { id } } }');
    expect(graphql.status).toBe(401);
    expect((await get('/mcp')).status).toBe(401);
    expect((await get('/.well-known/oauth-authorization-server')).status).toBe(200);
  });

  it('sends the gzip bytes themselves to a client that asks for them', async () => {
    const { request } = await import('node:http');
    const url = new URL(`${earshot.url}/inbox`);
    const raw = await new Promise<{ encoding?: string; body: Buffer }>((resolve, reject) => {
      request(url, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
      })
        .on('error', reject)
        .end();
    });
    expect(raw.encoding).toBe('gzip');
    expect(gunzipSync(raw.body).toString('utf8')).toBe(await readFile(path.join(dashboardDistDir, 'index.html'), 'utf8'));
  });
});
