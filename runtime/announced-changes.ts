import type { Sql } from './database.ts';

/** What a process keeps in memory of rows that PostgreSQL announces the changes of. */
export interface ChangeListener {
  /** Drops one row's memory (its id, as the notification's payload). */
  forget(id: string): void;
  /** Drops everything (the listening connection came back: changes in between went unheard). */
  forgetAll(): void;
}

export interface AnnouncedChanges {
  /** Call before reading rows from the database; the function returned says whether what was read may be kept (no change was announced since). */
  beginRead(): () => boolean;
  stop(): Promise<void>;
}

/** Whoever asked to hear of announced changes: told a row's id, or undefined when changes may have gone unheard. */
export class ChangeHearers {
  private readonly hearers = new Set<(id: string | undefined) => void>();

  /** Adds `hearer`; returns the function that removes it. */
  add(hearer: (id: string | undefined) => void): () => void {
    this.hearers.add(hearer);
    return () => this.hearers.delete(hearer);
  }

  tell(id: string | undefined): void {
    for (const hearer of this.hearers) hearer(id);
  }

  clear(): void {
    this.hearers.clear();
  }
}

/** The listeners of this process by channel: a change committed here reaches them before its response leaves, not only when the notification arrives. */
const processListeners = new Map<string, Set<(id: string) => void>>();

/** Tells every listener of `channel` in this process at once that a row changed (the change committed here). */
export function announceChangeInProcess(channel: string, id: string): void {
  for (const forget of processListeners.get(channel) ?? []) forget(id);
}

/**
 * Listens on `channel`, which a trigger notifies with a row's id when the
 * row changes (LISTEN/NOTIFY: delivered when the changing transaction
 * commits, to every process listening), and tells `listener`. A read that
 * began before a notification or a reconnection may hold what changed, so
 * `beginRead` lets its caller keep only reads that none overlapped.
 */
export async function listenForChanges(sql: Sql, channel: string, listener: ChangeListener): Promise<AnnouncedChanges> {
  // Bumped by every notification and reconnection.
  let generation = 0;
  const forget = (id: string) => {
    generation++;
    listener.forget(id);
  };
  const listening = await sql.listen(channel, forget, () => {
    generation++;
    listener.forgetAll();
  });
  const inProcess = processListeners.get(channel) ?? new Set();
  processListeners.set(channel, inProcess.add(forget));
  return {
    beginRead() {
      const readFrom = generation;
      return () => readFrom === generation;
    },
    async stop() {
      inProcess.delete(forget);
      await listening.unlisten();
    },
  };
}
