import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import type http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** Where `npm run dashboard:build` (and `npm install`, `npm start`) put the built dashboard. */
export const dashboardDistDir = fileURLToPath(new URL('../dashboard/dist', import.meta.url));

interface StoredFile {
  body: Buffer;
  gzipped: Buffer;
  contentType: string;
}

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The page's own scripts, styles and API only: no inline script, no other
 * origin, never framed. `'self'` covers the graphql-ws connection to the same host.
 */
const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export interface DashboardFiles {
  /**
   * Answers a GET or HEAD for the dashboard: an asset, or `index.html` for a
   * client-side route. False, with nothing sent, when the path is neither:
   * the caller's 404 answers it.
   */
  serve(req: http.IncomingMessage, res: http.ServerResponse, pathname: string): boolean;
}

/**
 * Whether a path the build has no file for is a route of the app, as the
 * history fallback of single-page apps judges it (connect-history-api-fallback):
 * the client takes HTML (`text/html` or `*\/*` accepted, or no `Accept` at all)
 * and the path's last segment has no dot. A missing `/favicon.ico`, a
 * `/openapi.json` or a JSON client's guess at an API path is then a 404,
 * not the page with a 200. `/` is the dashboard's address (ARCHITECTURE
 * "other surfaces") and answers the page whatever the client takes.
 */
function isPageRoute(req: http.IncomingMessage, pathname: string): boolean {
  if (pathname === '/') return true;
  // A browser opening a page sends no credential header: a request with one is an API client's.
  if (req.headers.authorization !== undefined) return false;
  const accept = req.headers.accept;
  const takesHtml = accept === undefined || /(^|,)\s*(text\/html|\*\/\*)\s*(;|,|$)/i.test(accept);
  return takesHtml && !pathname.startsWith('/assets/') && !pathname.slice(pathname.lastIndexOf('/') + 1).includes('.');
}

/**
 * The built dashboard, read once into memory with a gzip copy of each file
 * (it is a few hundred kilobytes). Undefined when it was never built.
 */
export async function loadDashboardFiles(dir = dashboardDistDir): Promise<DashboardFiles | undefined> {
  if (!existsSync(path.join(dir, 'index.html'))) return undefined;
  const files = new Map<string, StoredFile>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    // Dot files and folders (the build's fingerprint and manifest) are the build's own, not the page's.
    if (!entry.isFile() || path.relative(dir, full).split(path.sep).some((part) => part.startsWith('.'))) continue;
    const body = await readFile(full);
    const urlPath = `/${path.relative(dir, full).split(path.sep).join('/')}`;
    files.set(urlPath, { body, gzipped: gzipSync(body, { level: 9 }), contentType: contentTypes[path.extname(full)] ?? 'application/octet-stream' });
  }
  const index = files.get('/index.html')!;

  const send = (req: http.IncomingMessage, res: http.ServerResponse, file: StoredFile, headers: Record<string, string>) => {
    const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    const body = gzip ? file.gzipped : file.body;
    res.writeHead(200, {
      'content-type': file.contentType,
      'content-length': String(body.length),
      vary: 'Accept-Encoding',
      'x-content-type-options': 'nosniff',
      ...(gzip ? { 'content-encoding': 'gzip' } : {}),
      ...headers,
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  };

  return {
    serve(req, res, pathname) {
      const file = files.get(pathname);
      // Built assets carry a content hash in their names: cached for a year, never revalidated.
      if (file && pathname.startsWith('/assets/')) send(req, res, file, { 'cache-control': 'public, max-age=31536000, immutable' });
      else if (file && pathname !== '/index.html') send(req, res, file, { 'cache-control': 'no-cache' });
      // Any other page path is a route of the app: the page decides what it shows.
      else if (file || isPageRoute(req, pathname)) {
        send(req, res, index, {
          'cache-control': 'no-cache',
          'content-security-policy': contentSecurityPolicy,
          'referrer-policy': 'same-origin',
          'x-frame-options': 'DENY',
        });
      } else return false;
      return true;
    },
  };
}
