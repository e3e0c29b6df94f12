import { domainError } from '../domain-error.ts';
import { FeedCheckFailure, requireReader, type SourceReaders } from '../source-readers.ts';

export interface CheckedFeed {
  /** The feed after redirects and discovery (spec 2.1 `feeds.url`). */
  url: string;
  title: string | null;
}

/**
 * Checks the feeds a write adds, before anything is stored (spec 4.2: "a
 * feed added is checked now"): each must be a public RSS, Atom or JSON feed,
 * or a page advertising one. Feeds already connected are kept as they are.
 * A failing site is `upstream_unavailable`; anything else wrong is the
 * caller's `validation_error` naming the entry.
 */
export async function checkFeeds(
  requested: readonly { url: string }[],
  connected: ReadonlyMap<string, string | null>,
  readers: SourceReaders,
): Promise<CheckedFeed[]> {
  const readFeed = requireReader(readers, 'readFeed');
  // Read side by side: one after another, a few slow sites added up past the request deadline.
  const reads = await Promise.allSettled(
    requested.map(({ url }) => (connected.has(url) ? Promise.resolve({ url, title: connected.get(url) ?? null }) : readFeed(url))),
  );
  const checked = new Map<string, CheckedFeed>();
  for (const [index, read] of reads.entries()) {
    if (read.status === 'fulfilled') {
      checked.set(read.value.url, read.value);
      continue;
    }
    const field = `feeds.${index}.url`;
    const error: unknown = read.reason;
    if (!(error instanceof FeedCheckFailure)) throw error;
    if (error.kind === 'not_a_feed') throw domainError('validation_error', `${field}: ${error.message}`, { field }, error);
    throw domainError('upstream_unavailable', `${field}: the feed's site did not answer (${error.message})`, {
      field,
      retryAfterSeconds: error.retryAfterSeconds ?? 60,
    }, error);
  }
  return [...checked.values()];
}
