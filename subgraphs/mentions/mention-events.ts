import type { GraphQLError } from 'graphql';
import type { Sql } from '../../runtime/database.ts';
import { domainError } from '../domain-error.ts';
import type { ResolvedMentionFilter } from './mention-filter.ts';
import { filterMentionIds } from './mention-store.ts';

interface MentionAnnounced {
  id: string;
  workspaceId: string;
}

type Listener = (event: MentionAnnounced) => void;

/**
 * Most announced mentions a subscription may have waiting. A subscriber
 * that falls further behind (its socket too slow, or it stopped reading) is
 * dropped: holding more would let one slow client grow the process's
 * memory, while announcing never waits for anyone, so ingestion is never
 * slowed by subscribers.
 */
export const maxWaitingEvents = 1000;
/** How many waiting mentions one filter query decides at once. */
const filterBatch = 200;

/** What a subscription yields: a mention's id, or the error it ends with (it fell too far behind; its filter was refused). */
export type MentionEvent = { id: string } | { error: GraphQLError };

const listenersByPool = new WeakMap<Sql, Map<string, Promise<Set<Listener>>>>();

/**
 * One LISTEN per process and channel fans out to every subscriber, so any
 * process that stores or changes a mention (a worker, another host) wakes
 * every subscription.
 */
function listenersOf(sql: Sql, channel: string): Promise<Set<Listener>> {
  let channels = listenersByPool.get(sql);
  if (!channels) listenersByPool.set(sql, (channels = new Map()));
  let listeners = channels.get(channel);
  if (!listeners) {
    const set = new Set<Listener>();
    listeners = sql
      .listen(channel, (payload) => {
        const event = JSON.parse(payload) as MentionAnnounced;
        for (const listener of set) listener(event);
      })
      .then(() => set);
    channels.set(channel, listeners);
  }
  return listeners;
}

/**
 * The mentions of one workspace announced on `channel` from now on, those
 * passing `filter`, until the consumer stops. The filter is decided by PostgreSQL with the list's own condition,
 * in batches, when the consumer asks for more. Another workspace's
 * mentions never get past the first check.
 */
export async function mentionEvents(sql: Sql, channel: string, workspaceId: string, filter: ResolvedMentionFilter): Promise<AsyncIterableIterator<MentionEvent>> {
  const listeners = await listenersOf(sql, channel);
  const waiting: string[] = [];
  const ready: string[] = [];
  let dropped = false;
  let closed = false;
  let wake: (() => void) | undefined;
  const listener: Listener = (event) => {
    if (event.workspaceId !== workspaceId || dropped) return;
    if (waiting.length >= maxWaitingEvents) {
      dropped = true;
      waiting.length = 0;
      listeners.delete(listener);
    } else {
      waiting.push(event.id);
    }
    wake?.();
  };
  listeners.add(listener);
  const close = () => {
    closed = true;
    listeners.delete(listener);
    wake?.();
  };

  const iterator: AsyncIterableIterator<MentionEvent> = {
    async next() {
      while (!closed) {
        if (ready.length) return { value: { id: ready.shift()! }, done: false };
        if (dropped) {
          close();
          const error = domainError('subscriber_too_slow', `This subscription fell more than ${maxWaitingEvents} mentions behind and was ended; subscribe again`);
          return { value: { error }, done: false };
        }
        if (waiting.length) {
          const batch = waiting.splice(0, filterBatch);
          ready.push(...(await filterMentionIds(sql, workspaceId, batch, filter)));
          continue;
        }
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
      }
      return { value: undefined, done: true };
    },
    async return() {
      close();
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
