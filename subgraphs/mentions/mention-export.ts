import { stringify } from 'csv-stringify/sync';
import type { Sql } from '../../runtime/database.ts';
import { domainError } from '../domain-error.ts';
import type { KeywordDirectory } from '../keyword-directory.ts';
import { parseMentionFilter, resolveMentionFilter } from './mention-filter.ts';
import { checkFilterKeywords, mentionFilterLookups, readMentionFilter, withDefaults } from './mention-filter-lookups.ts';
import { listViewDefaults } from './mention-list.ts';
import { claimMentionExport, countExportedMentions, type ExportedMention, exportedMentions, grantMentionExport } from './mention-export-store.ts';

/** Spec 8: exports a minute per workspace, rows per export, characters of text per row. */
export const exportsPerMinute = 6;
export const exportRowLimit = 10_000;
export const exportTextLength = 1000;
/** Rows read from the database cursor at a time: what the export holds in memory, whatever its length. */
const rowsPerFetch = 500;
/** A download not finished this long after it opened is ended, so a stalled client cannot hold a database connection. */
const longestStreamMs = 120_000;

/** The CSV's columns in order (spec 4.3), `links` last. */
export const exportColumns = [
  'id', 'published_at', 'platform', 'keyword', 'author', 'author_url', 'author_followers', 'relevance', 'sentiment',
  'intents', 'status', 'relevant', 'delivered', 'url', 'text', 'links',
] as const;

/**
 * A row as CSV fields: intents pipe-separated (spec 4.3); links
 * space-separated, as no link holds a bare space; unknowns (followers,
 * an unscored mention's relevance and sentiment) empty.
 */
const csvFields = (row: ExportedMention, term: string): string[] => [
  row.id,
  row.publishedAt.toISOString(),
  row.platform,
  term,
  row.author,
  row.authorUrl,
  row.authorFollowers === null ? '' : String(row.authorFollowers),
  row.relevance === null ? '' : String(row.relevance),
  row.sentiment ?? '',
  (row.intents ?? []).join('|'),
  row.status,
  String(row.relevant),
  String(row.delivered),
  row.url,
  row.text,
  row.links.join(' '),
];

// RFC 4180: CRLF between records, a field quoted when it holds a comma, a quote or a line break, quotes doubled.
// Given a record delimiter, csv-stringify quotes only fields holding that exact CRLF: a lone LF or CR (most posts'
// line breaks) would go out bare and split the record for every reader, hence `quote_record_delimiter`.
const csv = (records: string[][]) => stringify(records, { record_delimiter: 'windows', quote_record_delimiter: true });

/**
 * Grants a CSV export of the filter (on the list's defaults, which a saved
 * view the filter names overrides as it does on the list): the filter is
 * checked as the list checks it, then the export counts against the
 * workspace's 6 a minute, across every process (`rate_limited` with
 * `retryAfterSeconds` past it). The grant is streamed once, within a minute,
 * by `openMentionExport`.
 */
export async function grantExport(sql: Sql, keywords: KeywordDirectory, workspaceId: string, rawFilter: unknown): Promise<{ id: string }> {
  const lookups = mentionFilterLookups(sql, workspaceId);
  const given = parseMentionFilter(rawFilter);
  await checkFilterKeywords(sql, keywords, workspaceId, given);
  const filter = await withDefaults(given, listViewDefaults, lookups);
  await resolveMentionFilter(filter, lookups);
  const grant = await grantMentionExport(sql, workspaceId, filter, exportsPerMinute);
  if ('retryAfterSeconds' in grant) {
    throw domainError('rate_limited', `At most ${exportsPerMinute} exports a minute; retry in ${grant.retryAfterSeconds} s`, {
      retryAfterSeconds: grant.retryAfterSeconds,
    });
  }
  return grant;
}

export interface MentionExportStream {
  /** Whether more mentions matched than the export holds (`X-Mentions-Truncated`). */
  truncated: boolean;
  /** The CSV text, header first, a batch of rows at a time; `return()` ends it early. */
  chunks: AsyncIterableIterator<string>;
}

/**
 * Opens a granted export: one read-only snapshot, so the truncation it
 * reports and the rows it streams agree, read through a database cursor a
 * batch at a time, newest match first, at most 10,000 rows, the keywords'
 * terms read from the keyword directory in the same snapshot first (the
 * connection then belongs to the cursor). Undefined when the grant is
 * unknown, used or older than a minute.
 */
export async function openMentionExport(sql: Sql, keywords: KeywordDirectory, exportId: string): Promise<MentionExportStream | undefined> {
  const grant = await claimMentionExport(sql, exportId);
  if (!grant) return undefined;
  const filter = await readMentionFilter(sql, keywords, grant.workspaceId, grant.filter);
  const reserved = await sql.reserve();
  let finished = false;
  const finish = async (outcome: 'commit' | 'rollback') => {
    if (finished) return;
    finished = true;
    clearTimeout(deadline);
    await (outcome === 'commit' ? reserved`commit` : reserved`rollback`).catch(() => {});
    reserved.release();
  };
  const deadline = setTimeout(() => void finish('rollback'), longestStreamMs);
  deadline.unref();
  try {
    await reserved`/* beginMentionExport */ begin isolation level repeatable read read only`;
    const matched = await countExportedMentions(reserved, grant.workspaceId, filter, exportRowLimit + 1);
    const terms = await keywords.termsOfWorkspace(reserved, grant.workspaceId);
    const batches = exportedMentions(reserved, grant.workspaceId, filter, exportRowLimit, exportTextLength).cursor(rowsPerFetch)[Symbol.asyncIterator]();
    let headerSent = false;
    const chunks: AsyncIterableIterator<string> = {
      async next() {
        if (finished) return { value: undefined, done: true };
        try {
          if (!headerSent) {
            headerSent = true;
            return { value: csv([[...exportColumns]]), done: false };
          }
          const batch = await batches.next();
          if (batch.done) {
            await finish('commit');
            return { value: undefined, done: true };
          }
          return { value: csv(batch.value.map((row) => csvFields(row, terms.get(row.keywordId) ?? ''))), done: false };
        } catch (error) {
          await finish('rollback');
          throw error;
        }
      },
      async return() {
        if (!finished) await batches.return?.();
        await finish('rollback');
        return { value: undefined, done: true };
      },
      [Symbol.asyncIterator]() {
        return chunks;
      },
    };
    return { truncated: matched > exportRowLimit, chunks };
  } catch (error) {
    await finish('rollback');
    throw error;
  }
}
