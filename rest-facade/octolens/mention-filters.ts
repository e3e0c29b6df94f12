import { z } from 'zod';
import { intents, sentiments } from '../../vocabulary/classification-values.ts';
import { type Platform, platforms } from '../../vocabulary/normalized-post.ts';
import { octolensPlatformName, searchPlatformOfOctolensName } from '../../vocabulary/octolens-platforms.ts';
import { anyCasePattern } from '../../subgraphs/any-case-pattern.ts';
import { RequestRefusal } from '../route.ts';
import { givenIdOf } from './octolens-ids.ts';

/**
 * Octolens's mention filters (its `POST /api/v2/mentions` body) and their
 * translation into the arguments of our `compatMentions` and
 * `compatMentionExport` queries: the one place that knows both. Names and
 * formats change here; what each filter means is the mention list's
 * (`MentionFilter`, spec 4.3), and the compatibility API's own notions
 * (integer keyword ids, relevance buckets, engaged) are the mentions
 * subgraph's.
 */

/** At most this many keyword ids in one filter (spec 8): in one list, and in the whole filter, groups included. The subgraph checks each list too. */
export const maxKeywordIds = 50;

const keywordIds = z
  .array(z.union([z.number().int().positive(), z.string().regex(/^[1-9]\d*$/, 'must be an integer keyword id').transform(Number)]).transform(givenIdOf))
  .max(maxKeywordIds, `at most ${maxKeywordIds} keyword ids`);
const names = z.array(z.string());
/** A sentiment in any case (Octolens writes them upper case, we lower case), described to clients as the pattern it must match. */
export const sentimentInAnyCase = (message: string) =>
  z
    .string()
    .regex(new RegExp(anyCasePattern(sentiments)), message)
    .toLowerCase()
    .pipe(z.enum(sentiments, { message }));
const sentimentNames = z.array(sentimentInAnyCase('must be positive, neutral or negative'));
const languageCodes = z.array(
  z
    .string()
    .toLowerCase()
    .regex(/^[a-z]{2}$/, 'must be an ISO 639-1 code such as en'),
);
const badBucket = 'must be 0, 1 or 2';
const buckets = z.array(z.union([z.number().int(badBucket).min(0, badBucket).max(2, badBucket), z.string().regex(/^[0-2]$/, badBucket).transform(Number)], { message: badBucket }));
const postTypes = z.array(z.enum(['top-level', 'reply']));
/**
 * Octolens takes any safe integer here (its own example sends 2^52 - 1);
 * the list's bound, 2,000,000,000, is past every real reach, so a larger
 * count stands for it.
 */
const listFollowerBound = 2_000_000_000;
const followers = z
  .number()
  .int()
  .min(0)
  .max(Number.MAX_SAFE_INTEGER)
  .transform((count) => Math.min(count, listFollowerBound));
/** Octolens's public engagement threshold (`{ source, metric, operator?, value }`), read only to be refused. */
const engagementThreshold = z.strictObject({
  source: z.string(),
  metric: z.string(),
  operator: z.enum(['>=', '<=', '=', 'equals']).optional(),
  value: z.number().int().min(0),
});
const badDate = 'must be ISO 8601 or a mention timestamp, such as 2026-01-15T00:00:00Z, 2026-01-15 08:30:00.000 or 2026-01-15';
/**
 * A mention's `timestamp` as the list shows it (`2026-05-06 13:35:37.000`,
 * UTC), which Octolens's reference takes back wherever it takes a time:
 * a space or `T`, up to nine fraction digits, an optional `Z` or offset.
 * Read as the ISO 8601 instant it stands for.
 */
const octolensTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:?\d{2})?$/, badDate)
  .transform((text) => {
    const [, dateAndTime, offset] = /^(.{10}.\d{2}:\d{2}:\d{2}(?:\.\d+)?)(.*)$/.exec(text)!;
    return `${dateAndTime.replace(' ', 'T')}${offset === '' ? 'Z' : offset.replace(/^([+-]\d{2})(\d{2})$/, '$1:$2')}`;
  })
  .pipe(z.iso.datetime({ offset: true, message: badDate }));
/** ISO 8601 with a time (no offset: UTC), a mention's `timestamp`, or a bare date (the whole UTC day). */
const date = z.union([z.iso.datetime({ offset: true, message: badDate }), z.iso.date({ message: badDate }), octolensTime], { message: badDate });

const octolensConditionFields = {
  source: names.optional().meta({ description: "Platforms, in Octolens's names; names we do not collect match nothing" }),
  '!source': names.optional().meta({ description: 'Platforms to leave out' }),
  keyword: keywordIds.optional().meta({ description: `Integer keyword ids, at most ${maxKeywordIds}` }),
  '!keyword': keywordIds.optional().meta({ description: `Integer keyword ids to leave out, at most ${maxKeywordIds}` }),
  sentiment: sentimentNames.optional().meta({ description: '`positive`, `neutral`, `negative` (any case); a corrected sentiment counts as corrected' }),
  '!sentiment': sentimentNames.optional().meta({ description: 'Sentiments to leave out; a mention not scored yet is never left out' }),
  language: languageCodes.optional().meta({ description: 'ISO 639-1; an unknown language never matches' }),
  '!language': languageCodes.optional().meta({ description: 'ISO 639-1 to leave out; an unknown language is never left out' }),
  tag: names.optional().meta({ description: 'Tags (the intents `GET /tags` lists), any of them; unknown tags match nothing' }),
  '!tag': names.optional().meta({ description: 'Tags to leave out' }),
  relevance: buckets.optional().meta({ description: 'Relevance buckets: 0 (70 and up), 1 (40 to 69), 2 (below, or not scored); a verdict counts as 100 or 0' }),
  '!relevance': buckets.optional().meta({ description: 'Relevance buckets to leave out' }),
  postType: postTypes.optional().meta({ description: '`top-level` posts or `reply` (replies and comments)' }),
  '!postType': postTypes.optional(),
  engaged: z.boolean().optional().meta({ description: 'true: mentions marked done; false: the rest' }),
  bookmarked: z.boolean().optional().meta({ description: 'Answers 501 `FEATURE_DISABLED`: Earshot has no bookmarks' }),
  engagement: z
    .union([engagementThreshold, z.array(engagementThreshold)])
    .optional()
    .meta({ description: 'Answers 501 `FEATURE_DISABLED`: engagement counters (likes, reposts, …) are not collected' }),
  minXFollowers: followers.optional().meta({ description: "At least this many followers: the author's count on the post's platform; unknown reach never matches" }),
  maxXFollowers: followers.optional().meta({ description: 'At most this many followers; unknown reach never matches' }),
  startDate: date.optional().meta({ description: 'Published at or after: ISO 8601 (no offset: UTC), a mention’s `timestamp`, or a bare date (from its start, UTC)' }),
  endDate: date.optional().meta({ description: 'Published at or before: ISO 8601 (no offset: UTC), a mention’s `timestamp`, or a bare date (to its end, UTC)' }),
};

const octolensCondition = z.strictObject(octolensConditionFields).meta({
  id: 'OctolensMentionCondition',
  description: 'One condition of an advanced group: a one-key object, the key any simple filter (several keys are ANDed)',
});

/** Conditions of an advanced filter, all groups together: Octolens's bound on a saved feed's. */
const maxConditions = 50;

/** `AND` or `OR`, any case. */
const operator = z
  .string()
  .regex(new RegExp(anyCasePattern(['AND', 'OR'])), 'must be AND or OR')
  .toUpperCase()
  .pipe(z.enum(['AND', 'OR'], { message: 'must be AND or OR' }));

/** The distinct keyword ids a filter names, in `keyword` and `!keyword` at its top level and in every condition of its groups. */
function namedKeywordIds(filters: { keyword?: number[]; '!keyword'?: number[]; groups?: { conditions: { keyword?: number[]; '!keyword'?: number[] }[] }[] }): number {
  const conditions = [filters, ...(filters.groups ?? []).flatMap((group) => group.conditions)];
  return new Set(conditions.flatMap((condition) => [...(condition.keyword ?? []), ...(condition['!keyword'] ?? [])])).size;
}

export const octolensMentionFilters = z
  .strictObject({
    ...octolensConditionFields,
    operator: operator.optional().meta({ description: 'Advanced filters: how `groups` join, `AND` (default) or `OR`' }),
    groups: z
      .array(
        z.strictObject({
          operator: operator.meta({ description: "How the group's conditions join" }),
          conditions: z.array(octolensCondition).min(1),
        }),
      )
      .optional()
      .refine((groups) => !groups || groups.reduce((all, group) => all + group.conditions.length, 0) <= maxConditions, `at most ${maxConditions} conditions in all groups together`)
      .meta({ description: `Advanced filters: groups of conditions, on top of the simple filters at this level; at most ${maxConditions} conditions in all` }),
  })
  .refine((filters) => namedKeywordIds(filters) <= maxKeywordIds, `at most ${maxKeywordIds} keyword ids in the whole filter (keyword, !keyword and every group together)`)
  .meta({
    id: 'OctolensMentionFilters',
    description:
      'Simple filters combined with AND (a `!` prefix leaves the values out), or advanced ones: `operator` joining `groups`, each group joining its one-key `conditions` by its own `operator`; simple filters beside `groups` (dates, followers) apply too. ' +
      `The whole filter names at most ${maxKeywordIds} distinct keyword ids`,
  });

export const octolensMentionQuery = {
  view: z.number().int().positive().transform(givenIdOf).optional().meta({ description: 'A saved view (`GET /views`): its filters apply too, and these narrow it further; an unknown id is `NOT_FOUND`' }),
  filters: octolensMentionFilters.optional(),
  includeAll: z.boolean().optional().meta({ description: 'true: every mention; false (default): relevant ones only (score 40 and up, or marked relevant)' }),
  includeEngagementMetrics: z.boolean().optional().meta({ description: 'false (default); true answers 501 `FEATURE_DISABLED`: engagement counters are not collected' }),
};

const mentionQuery = z.object(octolensMentionQuery);
type OctolensFilters = z.output<typeof octolensCondition>;

const featureDisabled = (message: string) => new RequestRefusal({ code: 'feature_disabled', message });

/** `includeEngagementMetrics: true`, on a list, an export or one mention: a feature Earshot does not have (spec 4.8: 501). */
export const engagementMetricsDisabled = () => featureDisabled('Engagement counters (likes, reposts, views, …) are not collected: includeEngagementMetrics is not offered');

/** Our platforms for Octolens's names; a name we do not collect stands for no platform of ours. */
const ourPlatforms = (octolensNames: string[]): Platform[] =>
  octolensNames.flatMap((name) => searchPlatformOfOctolensName(name) ?? (platforms.includes(name as Platform) ? [name as Platform] : []));

const isIntent = (tag: string) => (intents as readonly string[]).includes(tag);

/** What is left of `all` once `included` (when given) is kept and `excluded` taken out; undefined when that is all of it. */
function remaining<Item>(all: readonly Item[], included: readonly Item[] | undefined, excluded: readonly Item[] | undefined): Item[] | undefined {
  if (!included && !excluded) return undefined;
  const kept = all.filter((item) => (!included || included.includes(item)) && !excluded?.includes(item));
  return kept.length === all.length ? undefined : kept;
}

/** A bare date's first or last instant (UTC); a timestamp as it is. */
const instant = (text: string, end: 'start' | 'end') => (text.includes('T') ? text : `${text}T${end === 'start' ? '00:00:00.000' : '23:59:59.999'}Z`);

/** The list's own filters (`MentionFilter`) for the Octolens ones that have a counterpart there. */
function mentionFilterOf(filters: OctolensFilters): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  if (filters.source) filter.platforms = ourPlatforms(filters.source);
  if (filters['!source']) filter.notPlatforms = ourPlatforms(filters['!source']);
  if (filters.sentiment) filter.sentiments = filters.sentiment;
  if (filters['!sentiment']) filter.notSentiments = filters['!sentiment'];
  if (filters.language) filter.languages = filters.language;
  if (filters['!language']) filter.notLanguages = filters['!language'];
  // Tags are the classifier's intents (GET /tags); a tag that is none of them matches nothing.
  if (filters.tag) filter.intents = filters.tag.filter(isIntent);
  if (filters['!tag']) filter.notIntents = filters['!tag'].filter(isIntent);
  const postType = remaining(['top-level', 'reply'] as const, filters.postType, filters['!postType']);
  if (postType?.length === 1) filter.isReply = postType[0] === 'reply';
  if (filters.minXFollowers !== undefined) filter.minFollowers = filters.minXFollowers;
  if (filters.maxXFollowers !== undefined) filter.maxFollowers = filters.maxXFollowers;
  if (filters.startDate) filter.since = instant(filters.startDate, 'start');
  if (filters.endDate) filter.until = instant(filters.endDate, 'end');
  // Neither kind of post: no mention passes. An empty list of platforms stands for that.
  if (postType?.length === 0) filter.platforms = [];
  return filter;
}

/**
 * The `filter` argument (`CompatMentionFilter`) for an Octolens list or
 * export body the route has checked; `RequestRefusal` (501) for
 * `bookmarked`, which stands for a feature Earshot does not have.
 */
export function compatMentionFilterOf(rawBody: unknown): Record<string, unknown> {
  const body = mentionQuery.parse(rawBody);
  if (body.includeEngagementMetrics) throw engagementMetricsDisabled();
  const { operator, groups, ...filters } = body.filters ?? {};
  return {
    ...conditionOf(filters),
    includeAll: body.includeAll ?? false,
    viewId: body.view ?? null,
    operator: operator ?? null,
    groups: groups?.map((group) => ({ operator: group.operator, conditions: group.conditions.map(conditionOf) })) ?? null,
  };
}

/** One condition (`CompatMentionCondition`): the simple filters at one level, or one condition of a group. */
function conditionOf(filters: OctolensFilters): Record<string, unknown> {
  if (filters.bookmarked !== undefined) throw featureDisabled('Earshot has no bookmarks: the "bookmarked" mention filter is not offered');
  if (filters.engagement !== undefined) throw featureDisabled('Engagement counters are not collected: the "engagement" mention filter is not offered');
  return {
    keywordIds: filters.keyword ?? null,
    notKeywordIds: filters['!keyword'] ?? null,
    relevance: remaining([0, 1, 2], filters.relevance, filters['!relevance']) ?? null,
    engaged: filters.engaged ?? null,
    filter: mentionFilterOf(filters),
  };
}

/** A saved view as the compatibility API reads it: its filters (`MentionViewFilter`) and its keywords' integer ids. */
export interface CompatView {
  filter: Record<string, any>;
  compatKeywordIds: number[];
  compatNotKeywordIds: number[];
}

/** The values of a list filter and of its one-value form together (`platform` and `platforms`). */
const both = (one: string | null, many: string[] | null) => [...(one === null ? [] : [one]), ...(many ?? [])];

/**
 * A saved view's filters in Octolens's names, the reverse of
 * `mentionFilterOf`: those Octolens's filters can say. The others (a search
 * text, link hosts, a status other than done, …) still apply when the view
 * is used by its id, as `view`.
 */
export function octolensFiltersOf(view: CompatView): Record<string, unknown> {
  const f = view.filter;
  const entries: [string, unknown][] = [
    ['source', both(f.platform, f.platforms).map(octolensPlatformName)],
    ['!source', (f.notPlatforms ?? []).map(octolensPlatformName)],
    ['keyword', view.compatKeywordIds],
    ['!keyword', view.compatNotKeywordIds],
    ['sentiment', both(f.sentiment, f.sentiments)],
    ['!sentiment', f.notSentiments ?? []],
    ['language', f.languages ?? []],
    ['!language', f.notLanguages ?? []],
    ['tag', both(f.intent, f.intents)],
    ['!tag', f.notIntents ?? []],
    ['relevance', f.relevant === null ? [] : f.relevant ? [0, 1] : [2]],
    ['postType', f.isReply === null ? [] : [f.isReply ? 'reply' : 'top-level']],
    ['engaged', f.status === 'done' ? true : null],
    ['minXFollowers', f.minFollowers],
    ['maxXFollowers', f.maxFollowers],
    ['startDate', f.since],
    ['endDate', f.until],
  ];
  return Object.fromEntries(entries.filter(([, value]) => value !== null && !(Array.isArray(value) && value.length === 0)));
}
