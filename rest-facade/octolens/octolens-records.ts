import { z } from 'zod';
import { isWildcardTerm, octolensTagOf, typedAuthor } from '../../subgraphs/keywords/index.ts';
import { searchPlatforms } from '../../vocabulary/normalized-post.ts';
import { octolensPlatformName } from '../../vocabulary/octolens-platforms.ts';

/**
 * Our records in Octolens's shapes (spec 4.8): the GraphQL selections the
 * compatibility routes ask for and the JSON they answer, field for field as
 * Octolens's API v2 reference names them (test/fixtures/octolens/ holds the
 * reference's examples). Only names and formats change here; every rule
 * (ids, buckets, quotas) comes from the subgraphs.
 */

/** Octolens's timestamps: `YYYY-MM-DD HH:mm:ss.SSS` in UTC, no `Z`. */
export const octolensTimestamp = (iso: string): string => new Date(iso).toISOString().replace('T', ' ').replace('Z', '');

/** A post's text holds its title, a blank line, then its body (NormalizedPost.text): the body alone, as Octolens gives it beside `title`. */
const bodyAfterTitle = (text: string, title: string | null): string => (title && text.startsWith(title) ? text.slice(title.length).replace(/^\n\n/, '') : text);

const capitalized = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
const commaJoined = (items: string[]) => (items.length ? items.join(', ') : null);

export const octolensMentionFields = `
  id compatId status relevant compatRelevanceScore compatAuthorFollowers
  keyword { compatId term }
  post { platform url text title publishedAt replyTo }
  author { name handle url avatarUrl }
  classification { sentiment intents language note }
  compatFeedback { relevant }`;

export const octolensMentionSchema = z
  .object({
    id: z.number().int().meta({ description: 'Integer id, given when first shown and stable; `postId` of the update route' }),
    sourceId: z.string().meta({ description: 'Our mention id (`mm_…`): the path of the get and update routes', example: 'mm_01jd8x3m5c2v7q9r4t6w8y0z1a' }),
    url: z.string(),
    title: z.string().nullable().meta({ description: "The post's title; null for platforms without titles (posts, comments, reviews without a headline) and for posts stored before titles were kept" }),
    body: z.string().meta({ description: 'The text after the title; the whole text when there is no title' }),
    source: z.string().meta({ description: "The platform in Octolens's names (`twitter`, `dev`, `reddit`, …)" }),
    timestamp: z.string().meta({ description: 'Published at, `YYYY-MM-DD HH:mm:ss.SSS` in UTC', example: '2026-05-06 13:35:37.000' }),
    author: z.string().nullable(),
    authorName: z.string().nullable(),
    authorAvatar: z.string().nullable(),
    authorUrl: z.string().nullable(),
    authorFollowers: z.number().int().nullable().meta({ description: 'Followers when the platform gives a count; null when it does not (unknown reach, which no follower filter matches)' }),
    relevance: z.enum(['relevant', 'not_relevant']),
    relevanceComment: z.string().nullable(),
    sentiment: z.enum(['Positive', 'Neutral', 'Negative']).nullable(),
    language: z.string().nullable().meta({ description: 'ISO 639-1; null when not known' }),
    tags: z.array(z.string()).meta({ description: 'The intents the classifier found (`buy_intent`, `question`, …)' }),
    keywords: z.array(z.object({ id: z.number().int(), keyword: z.string() })).meta({ description: 'The one keyword of this row: a post two keywords match is two rows' }),
    engaged: z.boolean().meta({ description: 'Marked done' }),
    isReply: z.boolean(),
    relevanceScore: z.number().int().meta({ description: 'Relevance bucket: 0 for 70 and up, 1 for 40 to 69, 2 below or unscored' }),
    feedbackRelevant: z.number().int().nullable().meta({ description: "1 or 0 for a user's relevant or not-relevant verdict; null without one" }),
    keywordId: z.number().int(),
  })
  .meta({ id: 'OctolensMention' });

export function octolensMention(m: Record<string, any>): z.output<typeof octolensMentionSchema> {
  return {
    id: m.compatId,
    sourceId: m.id,
    url: m.post.url,
    title: m.post.title,
    body: bodyAfterTitle(m.post.text, m.post.title),
    source: octolensPlatformName(m.post.platform),
    timestamp: octolensTimestamp(m.post.publishedAt),
    author: m.author.handle || null,
    authorName: m.author.name || null,
    authorAvatar: m.author.avatarUrl,
    authorUrl: m.author.url || null,
    authorFollowers: m.compatAuthorFollowers,
    relevance: m.relevant ? 'relevant' : 'not_relevant',
    relevanceComment: m.classification?.note ?? null,
    sentiment: m.classification?.sentiment ? (capitalized(m.classification.sentiment) as 'Positive') : null,
    language: m.classification?.language ?? null,
    tags: m.classification?.intents ?? [],
    keywords: [{ id: m.keyword.compatId, keyword: m.keyword.term }],
    engaged: m.status === 'done',
    isReply: m.post.replyTo !== null,
    relevanceScore: m.compatRelevanceScore,
    feedbackRelevant: m.compatFeedback ? Number(m.compatFeedback.relevant) : null,
    keywordId: m.keyword.compatId,
  };
}

export const octolensKeywordFields = `
  compatId term kind muted context platforms createdAt updatedAt
  matching { requiredTerms requiredMode excludedTerms excludedAuthors caseSensitive exactPhrase }`;

export const octolensKeywordSchema = z
  .object({
    id: z.number().int().meta({ description: 'Integer id, given when first shown and stable' }),
    keyword: z.string(),
    context: z.string().nullable(),
    additionalTerms: z.string().nullable().meta({ description: 'Comma-separated; null when none' }),
    additionalTermsAndOr: z.boolean().meta({ description: 'true: any one additional term; false: all of them' }),
    caseSensitive: z.boolean(),
    symbolSensitive: z.boolean().meta({ description: 'Exact phrase' }),
    platforms: z.array(z.string()).meta({ description: "Octolens's platform names; every platform we search for a keyword on all of them" }),
    excludeWords: z.string().nullable(),
    wildcardExcludeWords: z.string().nullable(),
    excludeAuthors: z.string().nullable(),
    tag: z.enum(['own_brand', 'competitor', 'industry_term']),
    paused: z.boolean().meta({ description: 'Muted (by hand, for balance or for noise)' }),
    isSubReddit: z.null(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime().meta({ description: 'When its settings last changed (its creation until then)' }),
  })
  .meta({ id: 'OctolensKeyword' });

export function octolensKeyword(k: Record<string, any>): z.output<typeof octolensKeywordSchema> {
  const excluded: string[] = k.matching.excludedTerms;
  return {
    id: k.compatId,
    keyword: k.term,
    context: k.context,
    additionalTerms: commaJoined(k.matching.requiredTerms),
    additionalTermsAndOr: k.matching.requiredMode === 'any',
    caseSensitive: k.matching.caseSensitive,
    symbolSensitive: k.matching.exactPhrase,
    platforms: (k.platforms ?? searchPlatforms).map(octolensPlatformName),
    excludeWords: commaJoined(excluded.filter((term) => !isWildcardTerm(term))),
    wildcardExcludeWords: commaJoined(excluded.filter(isWildcardTerm)),
    excludeAuthors: commaJoined(k.matching.excludedAuthors.map(typedAuthor)),
    tag: octolensTagOf(k.kind),
    paused: k.muted,
    isSubReddit: null,
    createdAt: k.createdAt,
    updatedAt: k.updatedAt,
  };
}

export const octolensFilterListsFields = 'excludedTerms excludedAuthors githubRepositories subreddits { allowed denied }';

export const octolensGlobalFiltersSchema = z
  .object({
    negativeKeywords: z.array(z.string()),
    negativeAuthors: z.array(z.string()),
    negativeSubreddits: z.array(z.string()).meta({ description: 'Stored bare and lower case' }),
    positiveSubreddits: z.array(z.string()).meta({ description: 'When non-empty, Reddit posts only from these' }),
    negativeRepos: z.array(z.string()).meta({ description: '`owner/repo`, lower case' }),
  })
  .meta({ id: 'OctolensGlobalFilters' });

/** A global filter list's values as Octolens shows them: excluded authors as typed, the rest as stored. */
export const octolensFilterValues = (list: string, values: string[]): string[] => (list === 'negativeAuthors' ? values.map(typedAuthor) : values);

export const octolensGlobalFilters = (f: Record<string, any>): z.output<typeof octolensGlobalFiltersSchema> => ({
  negativeKeywords: f.excludedTerms,
  negativeAuthors: f.excludedAuthors.map(typedAuthor),
  negativeSubreddits: f.subreddits.denied,
  positiveSubreddits: f.subreddits.allowed,
  negativeRepos: f.githubRepositories,
});
