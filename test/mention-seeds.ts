import type { Sql } from '../runtime/database.ts';
import type { Intent, Sentiment } from '../vocabulary/classification-values.ts';
import type { NormalizedPost, Platform } from '../vocabulary/normalized-post.ts';
import { saveClassification, storeMatchedPosts, updateMentions } from '../subgraphs/mentions/mention-store.ts';

/** One mention as a filter sees it: its post, author, score, the user's verdict and its triage. */
export interface MentionSeed {
  keywordId: string;
  platform?: Platform;
  text?: string;
  links?: string[];
  replyTo?: string | null;
  publishedAt?: Date;
  author?: { name?: string; handle?: string; url?: string; followers?: number | null; tags?: string[] };
  score?: { relevance: number; sentiment: Sentiment; intents?: Intent[]; automated?: boolean | null; language?: string | null; priority?: number };
  verdict?: { relevant?: boolean | null; sentiment?: Sentiment | null };
  triage?: { status?: 'open' | 'done' | 'ignored'; assigneeId?: string | null; snoozedUntil?: Date | null; note?: string | null };
}

let sequence = 0;

function postOf(seed: MentionSeed): NormalizedPost {
  const n = ++sequence;
  const handle = seed.author?.handle ?? `author${n}`;
  return {
    platform: seed.platform ?? 'reddit',
    externalId: `seed-${n}-${Date.now()}`,
    url: `https://example.com/posts/${n}`,
    text: seed.text ?? `Seeded post ${n}`,
    publishedAt: seed.publishedAt ?? new Date(),
    replyTo: seed.replyTo ?? null,
    links: seed.links ?? [],
    author: {
      platformId: `${handle}-${n}`,
      name: seed.author?.name ?? handle,
      handle,
      url: seed.author?.url ?? `https://example.com/u/${handle}`,
      avatarUrl: null,
      followers: seed.author?.followers === undefined ? 100 : seed.author.followers,
    },
  };
}

/**
 * Stores the mentions in the workspace, one statement for all, then gives
 * each its score, verdict and triage through the store's own writers;
 * author tags, which nothing in Earshot sets yet, are written directly.
 * Returns the ids in the order of `seeds`. Mentions stored together share
 * their match time, so a list orders them by id.
 */
export async function seedMentions(sql: Sql, workspaceId: string, seeds: MentionSeed[]): Promise<string[]> {
  const posts = seeds.map(postOf);
  const stored = await storeMatchedPosts(
    sql,
    seeds.map((seed, i) => ({ post: posts[i], matches: [{ keywordId: seed.keywordId, workspaceId, fuzzy: false }] })),
  );
  const ids = stored.map((mention) => mention.id);
  for (const [i, seed] of seeds.entries()) {
    const id = ids[i];
    if (seed.score) {
      const { relevance, sentiment, intents = [], automated = false, language = 'en', priority = relevance } = seed.score;
      await saveClassification(sql, id, { relevance, sentiment, intents, automated: automated ?? false, language, note: '', priority }, new Date());
      // Mentions judged before the `automated` flag existed have none.
      if (automated === null) await sql`update mentions set automated = null where id = ${id}`;
    }
    if (seed.verdict || seed.triage) {
      await updateMentions(sql, workspaceId, [id], {
        verdictRelevant: seed.verdict?.relevant,
        verdictSentiment: seed.verdict?.sentiment,
        status: seed.triage?.status,
        assigneeId: seed.triage?.assigneeId,
        snoozedUntil: seed.triage?.snoozedUntil,
        triageNote: seed.triage?.note,
      });
    }
    if (seed.author?.tags?.length) {
      await sql`update authors set tags = ${sql.array(seed.author.tags)} where id = ${stored[i].authorId}`;
    }
  }
  return ids;
}
