import { announceChangeInProcess, listenForChanges } from '../../runtime/announced-changes.ts';
import type { Sql } from '../../runtime/database.ts';

/** The channel migration 051's trigger notifies with a keyword's id when its term changes or it is deleted. */
const changesChannel = 'keyword_term_changes';

export interface KeywordTermCacheOptions {
  /** How long a term is answered from memory before it is read again: the bound on staleness should a change notification ever be lost. Default 60 s. */
  maxAgeMs?: number;
  /** Terms kept at most; the oldest goes first. Default 100,000. */
  maxEntries?: number;
}

/** Keeps the terms a read found, unless a change was announced since the read began. */
export type RememberTerms = (workspaceId: string, terms: { id: string; term: string }[]) => void;

export interface KeywordTermCache {
  /** The remembered term of each of the workspace's keywords `ids`, in their order; undefined where none is. */
  termsOf(workspaceId: string, ids: readonly string[]): (string | undefined)[];
  /** Call before reading terms from the keywords subgraph; keep what it answered with the function returned. */
  beginRead(): RememberTerms;
  stop(): Promise<void>;
}

/** Drops a keyword's term from every cache of this process at once (the rename or deletion that changed it committed here). */
export function forgetKeywordTermInProcess(id: string): void {
  announceChangeInProcess(changesChannel, id);
}

interface Entry {
  workspaceId: string;
  term: string;
  readAt: number;
}

/**
 * Keyword terms by workspace and id, as the keywords subgraph answered them,
 * so a page of mentions names its keywords without a request to that
 * subgraph once their terms are known (issue 14 point 10: the request cost
 * a fifth of the list's CPU time). The keywords table stays the keywords
 * subgraph's: this only remembers its answers. Every process listens on
 * `keyword_term_changes`: a rename or a deletion commits, PostgreSQL
 * notifies every listener, and each drops the term at once. A read that
 * overlapped a notification is not kept; should the listening connection
 * drop, everything is forgotten when it is back, and in the meantime a
 * term is trusted for at most `maxAgeMs`.
 */
export async function startKeywordTermCache(sql: Sql, options: KeywordTermCacheOptions = {}): Promise<KeywordTermCache> {
  const maxAgeMs = options.maxAgeMs ?? 60_000;
  const maxEntries = options.maxEntries ?? 100_000;
  // By keyword id (unique across workspaces); a term is answered only to the workspace it was read for.
  const entries = new Map<string, Entry>();
  const changes = await listenForChanges(sql, changesChannel, { forget: (id) => entries.delete(id), forgetAll: () => entries.clear() });
  return {
    termsOf(workspaceId, ids) {
      const now = Date.now();
      return ids.map((id) => {
        const entry = entries.get(id);
        return entry && entry.workspaceId === workspaceId && now - entry.readAt < maxAgeMs ? entry.term : undefined;
      });
    },
    beginRead() {
      const unchanged = changes.beginRead();
      const readAt = Date.now();
      return (workspaceId, terms) => {
        if (!unchanged()) return;
        for (const { id, term } of terms) {
          entries.delete(id);
          if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
          entries.set(id, { workspaceId, term, readAt });
        }
      };
    },
    async stop() {
      await changes.stop();
      entries.clear();
    },
  };
}
