/**
 * What mail scanners and link previews send to a link before its reader
 * opens it (or instead): a HEAD, and GETs marked as prefetches. A link that
 * changes state when followed must come through all of them unspent.
 */
export async function scanLink(url: string) {
  const head = await fetch(url, { method: 'HEAD' });
  const prefetches = [];
  const markers: [string, string][] = [['sec-purpose', 'prefetch'], ['purpose', 'prefetch'], ['x-purpose', 'preview'], ['x-moz', 'prefetch']];
  for (const [name, value] of markers) {
    const prefetch = await fetch(url, { headers: { [name]: value, accept: 'application/json' } });
    prefetches.push({ status: prefetch.status, code: ((await prefetch.json()) as { error?: { code: string } }).error?.code });
  }
  return { head: { status: head.status, contentType: head.headers.get('content-type'), body: await head.text() }, prefetches };
}

/** How `scanLink` finds a link that changes state when followed: answered, declined, never spent. */
export const scannedUnspent = {
  head: { status: 200, contentType: 'application/json; charset=utf-8', body: '' },
  prefetches: Array.from({ length: 4 }, () => ({ status: 503, code: 'prefetch_declined' })),
};
