import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { BlueskyPostRecord } from '../../jobs/connectors/bluesky-post.ts';

/** Jetstream's events as sent on the wire. */
export type JetstreamCommitEvent = {
  did: string;
  time_us: number;
  kind: 'commit';
  commit: { rev: string; operation: 'create' | 'update' | 'delete'; collection: string; rkey: string; record?: unknown; cid?: string };
};
export type JetstreamEvent =
  | JetstreamCommitEvent
  | { did: string; time_us: number; kind: 'identity'; identity: { did: string; handle: string; seq: number; time: string } }
  | { did: string; time_us: number; kind: 'account'; account: { did: string; active: boolean; seq: number; time: string } };

export function jetstreamPostEvent(event: { did: string; rkey: string; timeUs: number; record: BlueskyPostRecord }): JetstreamCommitEvent {
  return {
    did: event.did,
    time_us: event.timeUs,
    kind: 'commit',
    commit: {
      rev: `3l${event.rkey}rev`,
      operation: 'create',
      collection: 'app.bsky.feed.post',
      rkey: event.rkey,
      record: event.record,
      cid: `bafyreib${event.rkey.padEnd(52, 'b')}`,
    },
  };
}

export function jetstreamDeleteEvent(event: { did: string; rkey: string; timeUs: number; collection?: string }): JetstreamEvent {
  return { did: event.did, time_us: event.timeUs, kind: 'commit', commit: { rev: `3l${event.rkey}del`, operation: 'delete', collection: event.collection ?? 'app.bsky.feed.post', rkey: event.rkey } };
}

export function jetstreamIdentityEvent(event: { did: string; handle: string; timeUs: number }): JetstreamEvent {
  return {
    did: event.did,
    time_us: event.timeUs,
    kind: 'identity',
    identity: { did: event.did, handle: event.handle, seq: 1409752997, time: new Date(event.timeUs / 1000).toISOString() },
  };
}

export interface FakeJetstream {
  /** Base address to put in `EARSHOT_UPSTREAM_JETSTREAM`. */
  url: string;
  /** The query of each connection made, in order. */
  connections: URLSearchParams[];
  /** Adds events to the log and streams them to open connections. */
  publish(...events: JetstreamEvent[]): void;
  /** Cuts every connection once `count` more events have been sent, as a flaky network would. */
  dropAfter(count: number): void;
  /** Cuts every connection now. */
  drop(): void;
  /** Resolves once every open client has answered a ping: it has then read the handshake and seen its connection open. */
  heardFromClients(): Promise<void>;
  /** Answers each new connection with this HTTP status instead of upgrading it, as a failing front end would; null accepts again. */
  refuse(status: number | null): void;
  /** Connections refused so far. */
  refusedCount(): number;
  close(): Promise<void>;
}

/**
 * Jetstream's `/subscribe`: replays the log from `cursor` (inclusive, by
 * `time_us`), then streams what is published; commits outside
 * `wantedCollections` are left out, identity and account events always sent.
 */
export async function startFakeJetstream(fixtures: { events?: JetstreamEvent[] } = {}): Promise<FakeJetstream> {
  const log: JetstreamEvent[] = [...(fixtures.events ?? [])];
  const connections: URLSearchParams[] = [];
  const open = new Map<WebSocket, string[]>();
  let sendsBeforeDrop: number | null = null;
  let refusal: number | null = null;
  let refused = 0;

  const server = createServer((_request, response) => response.writeHead(404).end());
  const sockets = new WebSocketServer({
    server,
    path: '/subscribe',
    verifyClient: (_info, accept) => {
      if (refusal === null) return accept(true);
      refused++;
      accept(false, refusal);
    },
  });

  const send = (socket: WebSocket, wanted: string[], event: JetstreamEvent) => {
    if (socket.readyState !== socket.OPEN) return;
    if (event.kind === 'commit' && wanted.length && !wanted.includes(event.commit.collection)) return;
    socket.send(JSON.stringify(event));
    if (sendsBeforeDrop !== null && --sendsBeforeDrop <= 0) {
      sendsBeforeDrop = null;
      for (const connection of open.keys()) connection.terminate();
    }
  };

  sockets.on('connection', (socket, request) => {
    const query = new URL(request.url ?? '/', 'ws://fake').searchParams;
    connections.push(query);
    const wanted = query.getAll('wantedCollections');
    open.set(socket, wanted);
    socket.on('close', () => open.delete(socket));
    const cursor = query.get('cursor');
    if (cursor === null) return;
    for (const event of log.filter((candidate) => candidate.time_us >= Number(cursor))) send(socket, wanted, event);
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `ws://127.0.0.1:${port}`,
    connections,
    publish(...events) {
      log.push(...events);
      for (const event of events) for (const [socket, wanted] of open) send(socket, wanted, event);
    },
    dropAfter(count) {
      sendsBeforeDrop = count;
    },
    drop() {
      for (const socket of open.keys()) socket.terminate();
    },
    async heardFromClients() {
      await Promise.all([...open.keys()].map((socket) => new Promise((resolve) => {
        socket.once('pong', resolve);
        socket.ping();
      })));
    },
    refuse(status) {
      refusal = status;
    },
    refusedCount: () => refused,
    async close() {
      for (const socket of open.keys()) socket.terminate();
      await new Promise((resolve) => sockets.close(resolve));
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
