import { createInterface } from 'node:readline';
import { connect } from '../runtime/database.ts';
import { createLogger } from '../runtime/logger.ts';
import { benchPosts, ingestionWorker, warmUpPosts } from './ingestion.ts';

/**
 * One ingestion worker process of the scaling benchmark: `<database url>
 * <first post> <posts> <warm-up first post>`. Warms up, says `ready`, and on
 * `go` ingests its posts and prints what it stored, in how long.
 */
const [url, first, count, warmUpFirst] = process.argv.slice(2);
const sql = connect(url);
const ingest = await ingestionWorker(sql, createLogger('warn'));
await ingest(benchPosts(Number(warmUpFirst), warmUpPosts));
const batch = benchPosts(Number(first), Number(count));
console.log('ready');
const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line !== 'go') continue;
  const started = performance.now();
  const outcome = await ingest(batch);
  console.log(JSON.stringify({ stored: outcome.stored.length, seconds: (performance.now() - started) / 1000 }));
  break;
}
lines.close();
await sql.end();
