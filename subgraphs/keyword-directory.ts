import type { Queryable } from '../runtime/database.ts';

/**
 * What the mentions subgraph needs to know of keywords, whose table the
 * keywords subgraph owns: whether ids name keywords of a workspace (a
 * filter or a rule naming another workspace's keyword is `not_found`, spec
 * 5.3) and their terms (the CSV export's `keyword` column, streamed from a
 * database cursor where the gateway cannot be asked row by row). The
 * keywords subgraph answers it; the start-up hands it to every subgraph's
 * context, as it hands the source readers, so the mentions subgraph neither
 * imports the keywords subgraph (imports run the other way) nor reads its
 * table. Each question runs on the caller's connection, so it reads the
 * caller's transaction or snapshot.
 */
export interface KeywordDirectory {
  /**
   * The ids among `ids` that name no keyword of the workspace (another
   * workspace's, or none at all). With `hold`, the keywords found cannot be
   * deleted until the caller's transaction ends, so what it writes naming
   * them is written before a delete that would have to forget them.
   */
  idsOutsideWorkspace(sql: Queryable, workspaceId: string, ids: readonly string[], options?: { hold?: boolean }): Promise<string[]>;
  /** The term of each keyword of the workspace, by id. */
  termsOfWorkspace(sql: Queryable, workspaceId: string): Promise<Map<string, string>>;
}
