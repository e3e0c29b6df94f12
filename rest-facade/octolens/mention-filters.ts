import { z } from 'zod';
import { platforms } from '../../vocabulary/normalized-post.ts';
import { searchPlatformOfOctolensName } from '../../vocabulary/octolens-platforms.ts';
import { RequestRefusal } from '../route.ts';

/**
 * Octolens's mention filters (its `POST /api/v2/mentions` body) and their
 * translation into the arguments of our `compatMentions` and
 * `compatMentionExport` queries: the one place that knows both, so that
 * moving onto a richer filter input is a change here alone. Keyword ids are
 * the compatibility API's integers; the mentions subgraph resolves them.
 */

/** At most this many keyword ids in one filter (spec 8); the subgraph checks it too. */
const maxKeywordIds = 50;

const keywordIds = z
  .array(z.union([z.number().int().positive(), z.string().regex(/^[1-9]\d{0,8}$/, 'must be an integer keyword id').transform(Number)]))
  .max(maxKeywordIds, `at most ${maxKeywordIds} keyword ids`);
const names = z.array(z.string());

export const octolensMentionFilters = z
  .strictObject({
    source: names.optional().meta({ description: "Platforms, in Octolens's names" }),
    '!source': names.optional().meta({ description: 'Platforms to leave out' }),
    keyword: keywordIds.optional().meta({ description: `Integer keyword ids, at most ${maxKeywordIds}` }),
    '!keyword': keywordIds.optional(),
    sentiment: names.optional(),
    '!sentiment': names.optional(),
    language: names.optional(),
    '!language': names.optional(),
    tag: names.optional(),
    '!tag': names.optional(),
    relevance: names.optional(),
    '!relevance': names.optional(),
    engaged: z.boolean().optional(),
    bookmarked: z.boolean().optional(),
    minXFollowers: z.number().int().min(0).optional(),
    maxXFollowers: z.number().int().min(0).optional(),
    startDate: z.string().optional(),
    endDate: z.string().optional(),
  })
  .meta({
    id: 'OctolensMentionFilters',
    description:
      'Combined with AND; a `!` prefix leaves the values out. Served today: `source`, `!source` and `keyword`; the others answer 501 `FEATURE_DISABLED` until the mention list filters by them',
  });

export const octolensMentionQuery = {
  view: z.number().int().positive().optional().meta({ description: 'A saved view: answers 501 `FEATURE_DISABLED` until saved views exist' }),
  filters: octolensMentionFilters.optional(),
  includeAll: z.boolean().optional().meta({ description: 'true: every mention; false (default): relevant ones only (score 40 and up, or marked relevant)' }),
  includeEngagementMetrics: z.literal(false).optional().meta({ description: 'Only false: engagement counters are not collected' }),
};

const mentionQuery = z.object(octolensMentionQuery);

/** The filters this server cannot apply yet: a request naming one is refused rather than answered unfiltered. */
const notYetServed = ['!keyword', 'sentiment', '!sentiment', 'language', '!language', 'tag', '!tag', 'relevance', '!relevance', 'engaged', 'bookmarked', 'minXFollowers', 'maxXFollowers', 'startDate', 'endDate'] as const;

const featureDisabled = (message: string) => new RequestRefusal({ code: 'feature_disabled', message });

/** Our platform names for Octolens's; a name we do not know stays as it is and so matches nothing. */
const ourPlatforms = (octolensNames: string[]) => octolensNames.map((name) => searchPlatformOfOctolensName(name) ?? name);

/**
 * The `filter` argument (`CompatMentionFilter`) for an Octolens list or
 * export body the route has checked; `RequestRefusal` (501) for a view or a
 * filter not served yet.
 */
export function compatMentionFilterOf(rawBody: unknown): Record<string, unknown> {
  const body = mentionQuery.parse(rawBody);
  if (body.view !== undefined) throw featureDisabled('Saved views are not offered yet; send the filters instead');
  const filters = body.filters ?? {};
  const unserved = notYetServed.find((name) => filters[name] !== undefined);
  if (unserved) throw featureDisabled(`The "${unserved}" mention filter is not offered yet`);
  let onPlatforms = filters.source ? ourPlatforms(filters.source) : null;
  if (filters['!source']) {
    const excluded = new Set(ourPlatforms(filters['!source']));
    onPlatforms = (onPlatforms ?? [...platforms]).filter((platform) => !excluded.has(platform));
  }
  return { includeAll: body.includeAll ?? false, keywordIds: filters.keyword ?? null, platforms: onPlatforms };
}
