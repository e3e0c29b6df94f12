import { ChangeHearers, listenForChanges } from '../../runtime/announced-changes.ts';
import type { Sql } from '../../runtime/database.ts';

/** The channel migration 066's triggers notify with a user's id when a session, access token, grant or membership of theirs changes. */
const changesChannel = 'user_credential_changes';

export interface UserCredentialChanges {
  /**
   * Calls `listener` with a user's id whenever this process hears that a
   * credential of theirs may have stopped working (a session signed out or
   * ended, an access token or grant revoked, a membership ended), and with
   * undefined when changes may have gone unheard (the listening connection
   * came back); returns the function that stops it.
   */
  onChange(listener: (userId: string | undefined) => void): () => void;
  stop(): Promise<void>;
}

/**
 * Listens for the changes that end a user's OAuth access tokens and
 * dashboard sessions, so what they opened (a live subscription) ends at
 * once rather than at its next periodic look-up. Nothing is cached: a
 * listener looks the credential up again.
 */
export async function watchUserCredentials(sql: Sql): Promise<UserCredentialChanges> {
  const hearers = new ChangeHearers();
  const changes = await listenForChanges(sql, changesChannel, { forget: (userId) => hearers.tell(userId), forgetAll: () => hearers.tell(undefined) });
  return {
    onChange: (listener) => hearers.add(listener),
    async stop() {
      await changes.stop();
      hearers.clear();
    },
  };
}
