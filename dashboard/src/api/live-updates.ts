import { type Client, createClient } from 'graphql-ws/client';
import type { TypedDocumentString } from '../graphql/graphql';

let client: Client | undefined;
const reconnectedListeners = new Set<() => void>();

/**
 * Called each time the connection comes back after a drop (a restart, a lost
 * network): what was sent meanwhile never arrives, so a page that lists live
 * data reads it again.
 */
export function onReconnected(listener: () => void): () => void {
  reconnectedListeners.add(listener);
  return () => reconnectedListeners.delete(listener);
}

/** Waits before another try: 1, 2, 4, 8 s, then every 10 s, each plus up to a second so that many pages do not come back at once. */
const retryWait = (retries: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.min(1000 * 2 ** retries, 10_000) + Math.random() * 1000));

/**
 * One graphql-ws connection to `/graphql` for the whole app, opened on the
 * first subscription. The browser sends the session cookie with the upgrade;
 * the server accepts it only from Earshot's own origin. Dropped connections
 * are retried, and `onReconnected` listeners told when one is back.
 */
function liveClient(): Client {
  client ??= createClient({
    url: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`,
    lazy: true,
    retryAttempts: Infinity,
    shouldRetry: () => true,
    retryWait,
    on: {
      connected: (_socket, _payload, wasRetry) => {
        if (wasRetry) for (const listener of reconnectedListeners) listener();
      },
    },
  });
  return client;
}

/** Calls `onData` with each event of the subscription until the returned function is called. */
export function subscribe<R>(document: TypedDocumentString<R, Record<string, never>>, onData: (data: R) => void, onError?: (error: unknown) => void): () => void {
  return liveClient().subscribe<R>(
    { query: document.toString() },
    {
      next: (result) => {
        if (result.data) onData(result.data as R);
      },
      error: (error) => onError?.(error),
      complete: () => {},
    },
  );
}

/** Closes the connection (on sign-out and workspace switch, so the next one carries the new cookie). */
export function closeLiveUpdates(): void {
  void client?.dispose();
  client = undefined;
}
