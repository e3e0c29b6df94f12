import type { Sql } from '../../runtime/database.ts';
import { domainError } from '../domain-error.ts';
import { type AnnouncedMention, loadAnnouncedMentions, type MentionAudience } from './mention-event-store.ts';
import type { ResolvedMentionFilter } from './mention-filter.ts';
import type { MentionRow } from './mention-store.ts';

interface MentionAnnounced {
  id: string;
  workspaceId: string;
}

/**
 * Most announced mentions a subscription may have waiting. A subscriber
 * that falls further behind (its socket too slow, or it stopped reading) is
 * dropped: holding more would let one slow client grow the process's
 * memory, while announcing never waits for anyone, so scoring is never
 * slowed by subscribers.
 */
export const maxWaitingEvents = 1000;
/** Most announced mentions one statement loads. */
const loadBatch = 200;

/** What a subscription yields: a mention, or the error it ends with (it fell too far behind, its filter was refused, the database failed). */
export type MentionEvent = { mention: MentionRow } | { error: Error };

/** An announced mention waiting for its subscriber; `outcome` is set once its batch is loaded (null: the filter leaves it out). */
interface Waiting {
  outcome?: MentionEvent | null;
}

interface Subscriber {
  workspaceId: string;
  filter: ResolvedMentionFilter;
  /** Equal for subscribers whose filters are the same: one condition of the batch's statement decides for all of them. */
  audienceKey: string;
  waiting: Waiting[];
  dropped: boolean;
  wake(): void;
}

interface PendingAnnouncement {
  id: string;
  waiting: { subscriber: Subscriber; waiting: Waiting }[];
}

/**
 * One channel's subscribers in this process. One LISTEN per process and
 * channel hears every announcement, so any process that stores or changes
 * a mention (a worker, another host) wakes every subscription. Mentions of
 * workspaces with no subscriber here are ignored; the others are loaded in
 * batches, one statement at a time, each deciding every subscriber's
 * filter at once and loading each mention once for all of them: a
 * thousand subscribers of one mention cost one statement and no extra
 * connection.
 */
interface ChannelHub {
  byWorkspace: Map<string, Set<Subscriber>>;
  pending: PendingAnnouncement[];
  loading: boolean;
  scheduled: boolean;
}

const hubsByPool = new WeakMap<Sql, Map<string, Promise<ChannelHub>>>();

function announce(hub: ChannelHub, sql: Sql, event: MentionAnnounced) {
  const subscribers = hub.byWorkspace.get(event.workspaceId);
  if (!subscribers) return;
  const pending: PendingAnnouncement = { id: event.id, waiting: [] };
  for (const subscriber of subscribers) {
    if (subscriber.waiting.length >= maxWaitingEvents) {
      subscriber.dropped = true;
      subscriber.waiting.length = 0;
      subscribers.delete(subscriber);
    } else {
      const waiting: Waiting = {};
      subscriber.waiting.push(waiting);
      pending.waiting.push({ subscriber, waiting });
    }
    subscriber.wake();
  }
  if (subscribers.size === 0) hub.byWorkspace.delete(event.workspaceId);
  if (pending.waiting.length) {
    hub.pending.push(pending);
    scheduleLoad(hub, sql);
  }
}

/** Loads once the announcements that arrived together are all in: a transaction's NOTIFYs come in one read. */
function scheduleLoad(hub: ChannelHub, sql: Sql) {
  if (hub.loading || hub.scheduled || hub.pending.length === 0) return;
  hub.scheduled = true;
  setImmediate(() => {
    hub.scheduled = false;
    hub.loading = true;
    void loadPending(hub, sql).finally(() => {
      hub.loading = false;
      scheduleLoad(hub, sql);
    });
  });
}

async function loadPending(hub: ChannelHub, sql: Sql) {
  const batch = hub.pending.splice(0, loadBatch);
  const audienceIndex = new Map<string, number>();
  const audiences: MentionAudience[] = [];
  for (const { subscriber } of batch.flatMap((pending) => pending.waiting)) {
    if (audienceIndex.has(subscriber.audienceKey)) continue;
    audienceIndex.set(subscriber.audienceKey, audiences.length);
    audiences.push({ workspaceId: subscriber.workspaceId, filter: subscriber.filter });
  }
  let decide: (subscriber: Subscriber, id: string) => MentionEvent | null;
  try {
    const loaded = new Map<string, AnnouncedMention>();
    for (const mention of await loadAnnouncedMentions(sql, [...new Set(batch.map((pending) => pending.id))], audiences)) loaded.set(mention.id, mention);
    decide = (subscriber, id) => {
      const found = loaded.get(id);
      if (!found?.audiences.includes(audienceIndex.get(subscriber.audienceKey)!)) return null;
      const { audiences: _shownTo, ...mention } = found;
      return { mention };
    };
  } catch (error) {
    // The subscribers end with the error (`service_unavailable` when the database is away): they missed these mentions.
    decide = () => ({ error: error as Error });
  }
  for (const pending of batch) {
    for (const { subscriber, waiting } of pending.waiting) {
      waiting.outcome = decide(subscriber, pending.id);
      subscriber.wake();
    }
  }
}

function hubOf(sql: Sql, channel: string): Promise<ChannelHub> {
  let channels = hubsByPool.get(sql);
  if (!channels) hubsByPool.set(sql, (channels = new Map()));
  let hub = channels.get(channel);
  if (!hub) {
    const created: ChannelHub = { byWorkspace: new Map(), pending: [], loading: false, scheduled: false };
    hub = sql.listen(channel, (payload) => announce(created, sql, JSON.parse(payload) as MentionAnnounced)).then(() => created);
    // A LISTEN that failed (the database away) is tried again by the next subscription.
    hub.catch(() => channels.delete(channel));
    channels.set(channel, hub);
  }
  return hub;
}

let audiencesOfOne = 0;

/**
 * Which subscribers share a condition: the same workspace and filter. A
 * filter holding a resolved saved view or alert rule (a function) is its
 * subscriber's alone: another's may have been resolved before the view changed.
 */
function audienceKeyOf(workspaceId: string, filter: ResolvedMentionFilter): string {
  let ownResolution = false;
  const key = JSON.stringify(filter, (_name, value) => (typeof value === 'function' ? (ownResolution = true) : value));
  return ownResolution ? `${workspaceId} #${++audiencesOfOne}` : `${workspaceId} ${key}`;
}

/**
 * The mentions of one workspace announced on `channel` from now on, those
 * passing `filter` as they are when loaded, until the consumer stops.
 */
export async function mentionEvents(sql: Sql, channel: string, workspaceId: string, filter: ResolvedMentionFilter): Promise<AsyncIterableIterator<MentionEvent>> {
  const hub = await hubOf(sql, channel);
  let wake: (() => void) | undefined;
  const subscriber: Subscriber = { workspaceId, filter, audienceKey: audienceKeyOf(workspaceId, filter), waiting: [], dropped: false, wake: () => wake?.() };
  let closed = false;
  const close = () => {
    closed = true;
    const subscribers = hub.byWorkspace.get(workspaceId);
    subscribers?.delete(subscriber);
    if (subscribers?.size === 0) hub.byWorkspace.delete(workspaceId);
    wake?.();
  };
  let subscribers = hub.byWorkspace.get(workspaceId);
  if (!subscribers) hub.byWorkspace.set(workspaceId, (subscribers = new Set()));
  subscribers.add(subscriber);

  const iterator: AsyncIterableIterator<MentionEvent> = {
    async next() {
      while (!closed) {
        const first = subscriber.waiting[0];
        if (first && first.outcome !== undefined) {
          subscriber.waiting.shift();
          if (first.outcome === null) continue;
          if ('error' in first.outcome) close();
          return { value: first.outcome, done: false };
        }
        if (subscriber.dropped) {
          close();
          const error = domainError('subscriber_too_slow', `This subscription fell more than ${maxWaitingEvents} mentions behind and was ended; subscribe again`);
          return { value: { error }, done: false };
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
