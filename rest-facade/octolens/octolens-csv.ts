import { stringify } from 'csv-stringify/sync';
import type { octolensMention } from './octolens-records.ts';

/** The columns of Octolens's CSV export, in its order. */
const columns = ['id', 'sourceId', 'timestamp', 'source', 'url', 'title', 'body', 'author', 'authorFollowers', 'language', 'keywords', 'tags', 'relevance', 'sentiment', 'engaged'] as const;

/**
 * Exported mentions as Octolens writes them with `format: "csv"`: a header
 * row, then one row per mention; a list cell (keywords, tags) holds its
 * entries comma-separated, and an absent value is an empty cell.
 */
export function octolensMentionsCsv(mentions: ReturnType<typeof octolensMention>[]): string {
  const rows = mentions.map((mention) => ({
    ...mention,
    keywords: mention.keywords.map((keyword) => keyword.keyword).join(', '),
    tags: mention.tags.join(', '),
  }));
  return stringify(rows, { header: true, columns: [...columns], cast: { boolean: (value) => String(value) } });
}
