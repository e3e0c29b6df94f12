import { connect } from '../runtime/database.ts';

/** WAL written per message while filling segments: big enough that the loop's round trips cost nothing beside it. */
const messageBytes = 1 << 20;

/**
 * Leaves the server with about `megabytes` of recycled WAL segment files
 * ahead of its insert position, as a server past its first checkpoints
 * has. A cluster fresh from initdb has none: every 16 MB of WAL a timed
 * statement writes makes a new segment file, zero-filled by the backend
 * that needs it (`XLogFileInit`, a tenth of the ingestion benchmark's
 * PostgreSQL CPU in `perf`), where a running server renames one the last
 * checkpoint freed. Writes that much WAL (logical messages, which touch no
 * table) and checkpoints, which recycles the segments just filled. Needs
 * the server's superuser connection.
 */
export async function recycleWalSegments(adminUrl: string, megabytes: number): Promise<void> {
  const admin = connect(adminUrl, { max: 1 });
  try {
    for (let written = 0; written < megabytes; written++) {
      await admin`select pg_logical_emit_message(false, 'earshot-bench', repeat('x', ${messageBytes}))`;
    }
    await admin`checkpoint`;
  } finally {
    await admin.end();
  }
}
