import { announceChangeInProcess, ChangeHearers, listenForChanges } from '../../runtime/announced-changes.ts';
import type { Sql } from '../../runtime/database.ts';
import { type AuthenticatedKey, authenticateApiKey, lastUseResolutionMs, recordApiKeyUse } from './api-key-store.ts';
import { hashSecretToken } from './secret-token.ts';

/** The channel migration 035's trigger notifies with a key's id when the key is revoked, changed or deleted. */
const changesChannel = 'api_key_changes';

export interface ApiKeyCacheOptions {
  /**
   * How long a key is trusted from memory before it is read again: the
   * bound on staleness should a change notification ever be lost. Default
   * 60 s. Its uses are written meanwhile, at most once a second.
   */
  maxAgeMs?: number;
  /** Keys kept at most; the oldest goes first. Default 10,000. */
  maxEntries?: number;
}

export interface ApiKeyCache {
  /** As `authenticateApiKey`, answered from memory when the key was read within `maxAgeMs` and nothing said it changed. */
  authenticate(secret: string): Promise<AuthenticatedKey | undefined>;
  /**
   * Calls `listener` with a key's id whenever this process hears that the
   * key changed (revoked, its expiry or scope altered, deleted), and with
   * undefined when changes may have gone unheard (the listening connection
   * came back); returns the function that stops it.
   */
  onChange(listener: (apiKeyId: string | undefined) => void): () => void;
  stop(): Promise<void>;
}

/** Drops a key from every cache of this process at once (the revoke that made it dead committed here). */
export function forgetApiKeyInProcess(id: string): void {
  announceChangeInProcess(changesChannel, id);
}

interface Entry {
  key: AuthenticatedKey;
  readAt: number;
  /** When this process last wrote the key's `last_used_at`. */
  usedAt: number;
}

/**
 * The live API keys this process authenticated, so a request with a known
 * key makes no database round trip for it. Every process listens on
 * `api_key_changes`: a revoke (or a change of expiry or scope, or the
 * workspace's deletion) commits, PostgreSQL notifies every listener, and
 * each drops the key at once, so another process refuses it within a
 * second. Expiry is checked on every use. Unknown secrets are never kept,
 * and neither is a read that overlapped a notification. Should the
 * listening connection drop, everything is forgotten when it is back
 * (changes in between went unheard); in the meantime a key is trusted for
 * at most `maxAgeMs`.
 */
export async function startApiKeyCache(sql: Sql, options: ApiKeyCacheOptions = {}): Promise<ApiKeyCache> {
  const maxAgeMs = options.maxAgeMs ?? 60_000;
  const maxEntries = options.maxEntries ?? 10_000;
  const entries = new Map<string, Entry>();
  const hearers = new ChangeHearers();
  const changes = await listenForChanges(sql, changesChannel, {
    forget: (id) => {
      for (const [hash, entry] of entries) if (entry.key.id === id) entries.delete(hash);
      hearers.tell(id);
    },
    forgetAll: () => {
      entries.clear();
      hearers.tell(undefined);
    },
  });

  return {
    async authenticate(secret) {
      const hash = hashSecretToken(secret).toString('hex');
      const now = Date.now();
      const entry = entries.get(hash);
      if (entry && now - entry.readAt < maxAgeMs) {
        if (entry.key.expiresAt === null || entry.key.expiresAt.getTime() > now) {
          if (now - entry.usedAt >= lastUseResolutionMs) {
            entry.usedAt = now;
            await recordApiKeyUse(sql, entry.key.id);
          }
          return entry.key;
        }
      }
      entries.delete(hash);
      const unchanged = changes.beginRead();
      const key = await authenticateApiKey(sql, secret);
      if (key && unchanged()) {
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
        entries.set(hash, { key, readAt: now, usedAt: now });
      }
      return key;
    },
    onChange: (listener) => hearers.add(listener),
    async stop() {
      await changes.stop();
      hearers.clear();
      entries.clear();
    },
  };
}
