import { type Client, createClient } from 'graphql-ws/client';
import type { TypedDocumentString } from '../graphql/graphql';

let client: Client | undefined;

/**
 * One graphql-ws connection to `/graphql` for the whole app, opened on the
 * first subscription. The browser sends the session cookie with the upgrade;
 * the server accepts it only from Earshot's own origin. Dropped connections
 * are retried.
 */
function liveClient(): Client {
  client ??= createClient({
    url: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`,
    lazy: true,
    retryAttempts: Infinity,
    shouldRetry: () => true,
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
