/**
 * Bluesky's live stream of new posts through Jetstream (JSON over
 * WebSocket): every `app.bsky.feed.post` created on the network, as
 * NormalizedPosts, in stream order.
 *
 * Environment:
 * - `EARSHOT_UPSTREAM_JETSTREAM`: Jetstream base, default `wss://jetstream2.us-east.bsky.network`.
 * No credential: Jetstream is public.
 *
 * Resuming: Jetstream replays from a `cursor` (an event's `time_us`). The
 * client reconnects from the last event it finished, minus
 * `overlapUs` because instances stamp events at slightly different times;
 * posts it already handed over in this process are skipped, and after a
 * restart the overlap may repeat a few, which storage de-duplicates by
 * externalId (the at:// URI).
 *
 * Back-off: a connection that ends before one event was handled (refused,
 * dropped, or its handler failing) doubles the wait before the next,
 * up to `maxBackoffMs`; one event handled resets it. A connection that
 * opened but stayed silent for `idleTimeoutMs` is replaced after the first
 * wait, without doubling it: a quiet stream (a small instance, a relay
 * between bursts) is not a failing one, and a wait grown to a minute would
 * miss what it sends next. Such failures are logged
 * once per back-off step, so a Jetstream that stays down says so a handful of
 * times, not once a minute forever.
 */
import WebSocket from 'ws';
import { z } from 'zod';
import { type Logger, createLogger } from '../../runtime/logger.ts';
import { blueskyAuthor, blueskyPostRecord, blueskyRecordToPost } from './bluesky-post.ts';
import type { NormalizedPost } from '../../vocabulary/normalized-post.ts';
import { upstreamBase } from '../../runtime/upstream-http.ts';

/** Every event names its repository (DID) and its place in the stream; only commits matter here. */
const jetstreamEvent = z.object({
  did: z.string(),
  time_us: z.number(),
  kind: z.string(),
  commit: z.object({
    operation: z.string(),
    collection: z.string(),
    rkey: z.string(),
    record: z.unknown().optional(),
  }).optional(),
});

type JetstreamEvent = z.infer<typeof jetstreamEvent>;

export interface JetstreamOptions {
  env?: NodeJS.ProcessEnv;
  /** `time_us` to resume from (the last one `onCursor` reported); without it the stream starts live. */
  cursor?: number | null;
  /** Each new post, in stream order; the next waits for it. A throw reconnects and offers the post again. */
  onPost(post: NormalizedPost, timeUs: number): void | Promise<void>;
  /** The `time_us` of the last event handled, to persist for a restart; at most every `cursorEveryMs` and once on stop. */
  onCursor?(timeUs: number): void | Promise<void>;
  /** Default 5 s. */
  cursorEveryMs?: number;
  /** How far before the last handled event a reconnect resumes. Default 2 s. */
  overlapUs?: number;
  /** First reconnect wait, doubling per failed connection up to `maxBackoffMs`. Defaults 1 s and 60 s. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** The firehose never goes quiet for long; silence this long means a dead connection. Default 60 s. */
  idleTimeoutMs?: number;
  logger?: Logger;
}

export interface JetstreamSubscription {
  /** The `time_us` of the last event handled, or the starting cursor. */
  cursor(): number | null;
  /** Whether the last connection ended before handling an event (the stream cannot be reached), until one handles an event. */
  failing(): boolean;
  /** Closes the stream, waits for the post in hand and reports the cursor a last time. */
  stop(): Promise<void>;
}

/** Posts queued beyond this pause the socket until the handler catches up. */
const highWaterMark = 1000;

export function startJetstream(options: JetstreamOptions): JetstreamSubscription {
  const base = upstreamBase('jetstream', 'wss://jetstream2.us-east.bsky.network', options.env, '/subscribe');
  const logger = options.logger ?? createLogger('silent');
  const overlapUs = options.overlapUs ?? 2_000_000;
  const initialBackoffMs = options.backoffMs ?? 1000;
  const maxBackoffMs = options.maxBackoffMs ?? 60_000;
  const idleTimeoutMs = options.idleTimeoutMs ?? 60_000;

  let lastTimeUs: number | null = options.cursor ?? null;
  /** When a stream started without a cursor first connected: where a reconnect resumes if no event was handled yet. */
  let liveSinceUs: number | null = null;
  let reportedTimeUs = lastTimeUs;
  let backoffMs = initialBackoffMs;
  /** Connections in a row that ended before handling an event, and the last wait logged for them. */
  let failedConnections = 0;
  let loggedBackoffMs: number | null = null;
  let stopped = false;
  let socket: WebSocket | null = null;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let idleTimer: NodeJS.Timeout | undefined;
  let processing: Promise<void> = Promise.resolve();
  let queued = 0;
  /** Posts handed over recently, by URI, with their `time_us`: what an overlapping replay must skip. */
  const recent = new Map<string, number>();

  const reportCursor = async () => {
    if (lastTimeUs === null || lastTimeUs === reportedTimeUs || !options.onCursor) return;
    reportedTimeUs = lastTimeUs;
    try {
      await options.onCursor(lastTimeUs);
    } catch (error) {
      logger.warn('jetstream cursor report failed', { error: String(error) });
    }
  };
  const cursorTimer = setInterval(() => void reportCursor(), options.cursorEveryMs ?? 5000);

  function subscribeUrl(): string {
    const url = new URL(`${base}/subscribe`);
    url.searchParams.set('wantedCollections', 'app.bsky.feed.post');
    const resumeFrom = lastTimeUs ?? liveSinceUs;
    if (resumeFrom !== null) url.searchParams.set('cursor', String(Math.max(0, resumeFrom - overlapUs)));
    return url.toString();
  }

  function connect() {
    if (stopped) return;
    const current = new WebSocket(subscribeUrl());
    socket = current;
    let handlerFailed = false;
    /** Whether this connection handled an event: only then was it a working one. */
    let handledOne = false;
    /** Whether the connection opened and then went silent for `idleTimeoutMs`. */
    let quiet = false;
    /** Why this connection ended, when we know. */
    let closeReason: string | null = null;
    const restartIdleTimer = () => {
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => {
        closeReason ??= `no event for ${idleTimeoutMs} ms`;
        quiet = true;
        current.terminate();
      }, idleTimeoutMs);
    };
    current.on('open', () => {
      liveSinceUs ??= Date.now() * 1000;
      restartIdleTimer();
    });
    current.on('message', (data) => {
      restartIdleTimer();
      const event = parseEvent(data.toString());
      if (!event) return;
      if (++queued >= highWaterMark) current.pause();
      processing = processing.then(async () => {
        try {
          // Events queued behind a failure (or a stop) come again from the cursor.
          if (!handlerFailed && !stopped) {
            await handle(event);
            if (!handledOne) connectionWorks();
            handledOne = true;
          }
        } catch (error) {
          handlerFailed = true;
          closeReason ??= `post handler failed at time_us ${event.time_us}: ${String(error)}`;
          current.terminate();
        } finally {
          if (--queued < highWaterMark / 10 && current.isPaused) current.resume();
        }
      });
    });
    current.on('error', (error) => {
      closeReason ??= error.message;
    });
    current.on('close', () => {
      clearTimeout(idleTimer);
      if (socket !== current || stopped) return;
      socket = null;
      // Let queued events settle first, so the resume cursor is the last one handled.
      void processing.then(() => {
        if (stopped) return;
        if (quiet && !handlerFailed) {
          logger.debug('jetstream quiet; reconnecting', { reason: closeReason, inMs: initialBackoffMs, cursor: lastTimeUs });
          reconnectTimer = setTimeout(connect, initialBackoffMs);
          return;
        }
        const waitMs = backoffMs;
        backoffMs = Math.min(backoffMs * 2, maxBackoffMs);
        if (handledOne) {
          logger.info('jetstream disconnected; reconnecting', { reason: closeReason ?? 'closed by the server', inMs: waitMs, cursor: lastTimeUs });
        } else {
          failedConnections++;
          if (waitMs !== loggedBackoffMs) {
            loggedBackoffMs = waitMs;
            logger.warn('jetstream connection failed; reconnecting with back-off', {
              error: closeReason ?? 'closed before any event',
              failedConnections,
              inMs: waitMs,
              ...(waitMs === maxBackoffMs ? { note: 'at the longest wait; no more of these lines until it connects' } : {}),
            });
          }
        }
        reconnectTimer = setTimeout(connect, waitMs);
      });
    });
  }

  /** The first event handled on a connection: the back-off starts over, and a recovery is said once. */
  function connectionWorks() {
    if (failedConnections > 0) logger.info('jetstream connected again', { failedConnections });
    failedConnections = 0;
    loggedBackoffMs = null;
    backoffMs = initialBackoffMs;
  }

  async function handle(event: JetstreamEvent) {
    const post = eventToPost(event);
    if (post && !recent.has(post.externalId)) {
      await options.onPost(post, event.time_us);
      recent.set(post.externalId, event.time_us);
    }
    lastTimeUs = Math.max(lastTimeUs ?? 0, event.time_us);
    for (const [uri, timeUs] of recent) {
      if (timeUs >= lastTimeUs - 2 * overlapUs) break;
      recent.delete(uri);
    }
  }

  connect();

  return {
    cursor: () => lastTimeUs,
    failing: () => failedConnections > 0,
    async stop() {
      stopped = true;
      clearInterval(cursorTimer);
      clearTimeout(reconnectTimer);
      clearTimeout(idleTimer);
      socket?.close();
      await processing;
      await reportCursor();
    },
  };
}

function parseEvent(text: string): JetstreamEvent | null {
  try {
    const event = jetstreamEvent.safeParse(JSON.parse(text));
    return event.success ? event.data : null;
  } catch {
    return null;
  }
}

/**
 * A created post as a NormalizedPost; null for every other event. The event
 * names only the author's DID, so the DID stands in for the handle.
 */
function eventToPost(event: JetstreamEvent): NormalizedPost | null {
  const { commit } = event;
  if (event.kind !== 'commit' || commit?.operation !== 'create' || commit.collection !== 'app.bsky.feed.post') return null;
  // A record the lexicon would refuse is network noise, not a post.
  const record = blueskyPostRecord.safeParse(commit.record);
  if (!record.success) return null;
  return blueskyRecordToPost(`at://${event.did}/${commit.collection}/${commit.rkey}`, record.data, blueskyAuthor({ did: event.did, handle: event.did }), {
    receivedAt: new Date(event.time_us / 1000),
  });
}
