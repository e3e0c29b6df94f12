import { domainError } from './domain-error.ts';
import { isStorableInstant } from './storable-instant.ts';

/**
 * Cursor pages, the one way every list of the API pages: a page of 1 to
 * 100 items (default 50), read as one more than asked so the last item
 * says whether a next page exists, and a cursor that is an opaque
 * base64url of the last item's sort key, handed back as it was given.
 */
export const defaultPageSize = 50;
export const maxPageSize = 100;

/** The page size asked for, or `validation_error` on `limit`. */
export function pageSize(first: number | null | undefined): number {
  const limit = first ?? defaultPageSize;
  if (!Number.isInteger(limit) || limit < 1 || limit > maxPageSize) {
    throw domainError('validation_error', `limit: must be 1 to ${maxPageSize}`, { field: 'limit' });
  }
  return limit;
}

export const encodeCursor = (key: readonly string[]) => Buffer.from(key.join('|')).toString('base64url');

const cursorTimeForms = { 3: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/, 6: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/ };

/**
 * A time as a cursor holds it: ISO 8601 in UTC with `fractionDigits` digits
 * of fraction (3 as `toISOString` writes it, 6 for PostgreSQL's
 * microseconds), of a day that exists, in a year PostgreSQL reads (1 to
 * 9999). Anything else is no cursor this API returned: handed to
 * PostgreSQL it would fail the statement (`2026-02-30`, year -100000).
 */
export function cursorTime(text: string | undefined, fractionDigits: 3 | 6): string | undefined {
  if (text === undefined || !cursorTimeForms[fractionDigits].test(text)) return undefined;
  const toMilliseconds = `${text.slice(0, 23)}Z`;
  const time = new Date(toMilliseconds);
  return isStorableInstant(time) && time.toISOString() === toMilliseconds ? text : undefined;
}

/** The sort key a cursor holds, or `invalid_cursor` when `parseKey` does not recognise it as one this API returned. */
export function decodeCursor<Key>(cursor: string, parseKey: (parts: string[]) => Key | undefined): Key {
  const key = parseKey(Buffer.from(cursor, 'base64url').toString('utf8').split('|'));
  if (key === undefined) throw domainError('invalid_cursor', 'The cursor is not one this API returned', { field: 'cursor' });
  return key;
}

/** The first `limit` of rows read as `limit + 1`, and the cursor of the page after them. */
export function pageOf<Row>(rows: readonly Row[], limit: number, keyOf: (row: Row) => readonly string[]): { nodes: Row[]; nextCursor: string | null } {
  const nodes = rows.slice(0, limit);
  return { nodes, nextCursor: rows.length > limit ? encodeCursor(keyOf(nodes[nodes.length - 1])) : null };
}
