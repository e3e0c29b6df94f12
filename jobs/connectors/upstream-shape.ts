import { z } from 'zod';
import type { Logger } from '../../runtime/logger.ts';
import { UpstreamError } from '../../runtime/upstream-http.ts';

interface SkippedItems {
  count: number;
  total: number;
  firstProblem: string | null;
}

/**
 * The tally of the `upstreamItems` lists of the body `parseUpstreamShape`
 * is checking. Zod parses synchronously, so no other parse can run while
 * it is set.
 */
let skippedInParse: SkippedItems | null = null;

const firstIssue = (error: z.ZodError) => {
  const issue = error.issues[0];
  return `${issue.path.join('.') || '(body)'}: ${issue.message}`;
};

/**
 * A response body checked against the shape a connector relies on, so a
 * changed or broken upstream fails with the field it broke instead of a
 * `TypeError` deep in a mapper. Items of `upstreamItems` lists that do not
 * parse are left out, and `logger` hears of them once per body, with the
 * first problem.
 */
export function parseUpstreamShape<Schema extends z.ZodType>(platform: string, schema: Schema, body: unknown, logger?: Logger): z.infer<Schema> {
  const skipped: SkippedItems = { count: 0, total: 0, firstProblem: null };
  skippedInParse = skipped;
  let result: z.ZodSafeParseResult<z.infer<Schema>>;
  try {
    result = schema.safeParse(body);
  } finally {
    skippedInParse = null;
  }
  if (!result.success) throw new UpstreamError(platform, `unexpected response: ${firstIssue(result.error)}`);
  if (skipped.count) {
    logger?.warn('upstream items skipped: they lack fields the connector needs', { platform, skipped: skipped.count, of: skipped.total, firstProblem: skipped.firstProblem });
  }
  return result.data;
}

/**
 * A list of a page's items, each checked on its own: one item an upstream
 * (or a proxy, or a recording) sends without a field the connector needs
 * costs that item, not the page. The list itself missing still fails.
 */
export function upstreamItems<Item extends z.ZodType>(item: Item) {
  return z.array(z.unknown()).transform((raw) => {
    const kept: z.output<Item>[] = [];
    raw.forEach((candidate, index) => {
      const parsed = item.safeParse(candidate);
      if (parsed.success) kept.push(parsed.data);
      else if (skippedInParse) {
        skippedInParse.count++;
        skippedInParse.firstProblem ??= `item ${index}: ${firstIssue(parsed.error)}`;
      }
    });
    if (skippedInParse) skippedInParse.total += raw.length;
    return kept;
  });
}

const endsWithOffset = /(?:Z|[+-]\d{2}:?\d{2})$/i;

/**
 * An ISO 8601 instant as an upstream writes it, normalized to UTC with `Z`.
 * One without an offset is read as UTC: APIs that drop the `Z` (or proxies
 * that reformat it) mean UTC, and `new Date()` would read it as local time.
 */
export const upstreamTimestamp = z.iso
  .datetime({ offset: true, local: true })
  .transform((text) => new Date(endsWithOffset.test(text) ? text : `${text}Z`).toISOString());
