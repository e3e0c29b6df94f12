import { z } from 'zod';
import { reviewPlatforms, searchPlatforms } from '../../vocabulary/normalized-post.ts';
import { canonicalAuthor } from './matching/author-identity.ts';
import { keywordKinds } from '../../vocabulary/keyword-kinds.ts';

// Bounds of spec 2.1.x and part 8, in one place for create, PATCH and the docs.
const text = (min: number, max: number) => z.string().trim().min(min, `must be ${min} to ${max} characters`).max(max, `must be ${min} to ${max} characters`);
const list = <T extends z.ZodType>(item: T, max: number) =>
  z.array(item).max(max, `at most ${max} items`).nullable().transform((items) => items ?? []);
const uniqueList = <T,>(items: T[]) => [...new Set(items)];

/** A term as sent: 2 to 80 characters; double quotes around it mean exact phrase (spec 2.1). */
export const termInput = z
  .string()
  .transform((raw) => {
    const trimmed = raw.trim();
    const quoted = trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"');
    return { term: (quoted ? trimmed.slice(1, -1) : trimmed).trim(), exactPhrase: quoted };
  })
  // Characters are code points, as every other bound here counts them (zod's min and max): an emoji is one, not two UTF-16 units.
  .refine(({ term }) => {
    const characters = [...term].length;
    return characters >= 2 && characters <= 80;
  }, 'must be 2 to 80 characters')
  .refine(({ term }) => !/[\r\n\t]/.test(term), 'must be one line');

/** A subreddit's address as a browser shows it: `https://www.reddit.com/r/Name/…`, `old.reddit.com/r/name`. */
const subredditAddress = /^(?:https?:\/\/)?(?:[a-z]+\.)?reddit\.com\/r\/([^/?#]*)/i;

/**
 * `r/Name`, `/r/name`, `name` or the subreddit's address → `name` (spec
 * 2.1.3: stored bare and lowercase); a bare `r/` names no subreddit. An
 * address kept whole would be a rule no post ever meets.
 */
const subredditName = text(1, 100)
  .transform((name) => (subredditAddress.exec(name)?.[1] ?? name.replace(/^\/?r\//i, '')).toLowerCase())
  .refine((name) => name.length > 0, 'must name a subreddit after r/');
export const subredditList = list(subredditName, 50).transform(uniqueList);

export const excludedAuthorList = list(text(1, 500), 100)
  .transform((entries, ctx) => {
    const canonical: string[] = [];
    for (const [index, entry] of entries.entries()) {
      const value = canonicalAuthor(entry);
      if (value === null) {
        ctx.addIssue({ code: 'custom', message: `"${entry}" is not a profile link, handle, u/name, DID or name`, path: [index] });
        return z.NEVER;
      }
      canonical.push(value);
    }
    return uniqueList(canonical);
  });

export const termList = list(text(1, 80), 50).transform(uniqueList);

const repositoryEvent = z.enum(['new', 'traction', 'stars', 'growth']);
const platform = z.enum(searchPlatforms);

// The descriptions (spec 2.1.1 to 2.3, in short) reach the interface description and the MCP tools' argument schemas.
const repositoriesPatch = z.strictObject({
  events: list(repositoryEvent, 4)
    .transform(uniqueList)
    .optional()
    .meta({ description: 'new (every newly seen repository), traction (first seen in 30 days, reached 10 stars), stars (a milestone past 100), growth (fast weekly gain); default traction, stars, growth' }),
  minStars: z.number().int('must be a whole number').min(0).max(1_000_000).nullable().optional().meta({ description: 'Only repositories with at least this many stars; null: no minimum' }),
  minWeeklyStars: z
    .number()
    .int('must be a whole number')
    .min(25)
    .max(1_000_000)
    .nullable()
    .optional()
    .meta({ description: 'Only repositories that gained at least this many stars in the last week, for every event; null: no minimum' }),
});

const subredditsPatch = z.strictObject({
  only: subredditList.optional().meta({ description: 'Only posts from these subreddits (r/name, name or a link); excluded is then ignored' }),
  excluded: subredditList.optional().meta({ description: 'Never posts from these subreddits' }),
});

export const matchingPatch = z.strictObject({
  requiredTerms: termList.optional().meta({ description: 'The post must also contain these (any or all, per requiredMode); empty: no requirement' }),
  requiredMode: z.enum(['any', 'all']).optional().meta({ description: 'any: one required term suffices; all: every one must appear' }),
  excludedTerms: termList.optional().meta({ description: 'A post containing any of these is dropped; a * at the start or end is a wildcard' }),
  excludedAuthors: excludedAuthorList.optional().meta({ description: 'Authors whose posts are dropped: profile or post links, @handles, u/names, DIDs or display names' }),
  caseSensitive: z.boolean().optional().meta({ description: 'Match the term in its exact case (default false)' }),
  exactPhrase: z
    .boolean()
    .optional()
    .meta({ description: 'Match the term as written only (default false: a multi-word term also matches its words close together, kept when scored relevant)' }),
  subreddits: subredditsPatch.optional().meta({ description: 'Reddit posts: from which subreddits' }),
  repositories: repositoriesPatch.optional().meta({ description: 'Code-hosting repository events to keep' }),
});

export const capInput = z
  .strictObject({
    mentions: z
      // Only a missing value is told what to send; any other problem gets its own words (a number out of bounds, its bounds).
      .number({ error: (issue) => (issue.input === undefined ? 'is required: a whole number 1 to 1,000,000' : undefined) })
      .int('must be a whole number')
      .min(1, 'must be 1 to 1,000,000')
      .max(1_000_000, 'must be 1 to 1,000,000')
      .meta({ description: 'Charged items (matched mentions and delivered comments) allowed per period' }),
    per: z
      .enum(['day', 'week', 'month'])
      .nullish()
      .transform((per) => per ?? 'month')
      .meta({ description: 'The period, in UTC: day, week (from Monday) or month (the default)' }),
  })
  .nullable();

export const commentsInput = z.strictObject({
  enabled: z.boolean().optional().meta({ description: 'Read the comments under relevant mentions (default false); each delivered comment costs $0.008' }),
  maxPerPost: z.number().int('must be a whole number').min(1).max(100).optional().meta({ description: 'At most this many comments read per thread, the newest (default 20)' }),
});

const countryCode = z
  .string()
  .regex(/^[A-Za-z]{2}$/, 'must be a two-letter storefront code')
  .transform((code) => code.toLowerCase());

/** One review source as written: a link, or a platform and id (spec 2.3). */
export const reviewSourceInput = z
  .strictObject({
    url: text(1, 500).optional().meta({ description: 'An App Store, Google Play, Trustpilot or Google Maps link', format: 'uri' }),
    platform: z.enum(reviewPlatforms).optional().meta({ description: 'The review site, with id instead of url' }),
    id: text(1, 200).optional().meta({ description: "The product's id on that site, with platform" }),
    countries: z
      .array(countryCode)
      .min(1, 'at least 1 item')
      .max(20, 'at most 20 items')
      .transform(uniqueList)
      .optional()
      .meta({ description: "Two-letter storefront codes, App Store and Google Play only (default the link's, else us)" }),
    language: text(2, 10).optional().meta({ description: "The reviews' language, Google Play only (default the link's hl, else en)" }),
  })
  .superRefine((source, ctx) => {
    if (!source.url && !(source.platform && source.id)) {
      ctx.addIssue({ code: 'custom', message: 'give a url, or a platform and an id' });
    }
  })
  .meta({ anyOf: [{ required: ['url'] }, { required: ['platform', 'id'] }] });

export const feedInput = z.strictObject({ url: text(4, 500).meta({ description: 'The RSS or Atom feed, or a page naming one', format: 'uri' }) });

const contextInput = z
  .string()
  .max(300, 'must be at most 300 characters')
  .nullable()
  .transform((value) => (value === null || value.trim() === '' ? null : value.trim()));

/** The writable fields of a keyword (spec 4.2 PATCH body); every field optional. */
const termDescription = { description: 'The term, 2 to 80 characters; in double quotes for an exact phrase' };

export const keywordPatchInput = z.strictObject({
  term: termInput.optional().meta(termDescription),
  kind: z.enum(keywordKinds).optional().meta({ description: 'brand, competitor or topic' }),
  muted: z.boolean().optional().meta({ description: 'true pauses it (not polled or matched); false resumes it, balance permitting' }),
  platforms: z
    .array(platform)
    .max(searchPlatforms.length)
    .nullable()
    .transform((items) => (items ? uniqueList(items) : null))
    .optional()
    .meta({ description: 'The search platforms to watch; null: every one; []: none (reviews and feeds only). A platform a change adds looks back over its last 30 days, that platform alone' }),
  context: contextInput.optional().meta({ description: 'At most 300 characters the classifier reads for this keyword only; null clears it' }),
  matching: matchingPatch.optional().meta({ description: 'Rules a post must pass before it is stored, classified or billed' }),
  cap: capInput.optional().meta({ description: 'A ceiling of charged items per period; null: no cap' }),
  comments: commentsInput.optional().meta({ description: 'Reading the comment threads under relevant mentions' }),
  groupId: z.string().min(1).optional().meta({ description: 'The group (grp_…) it belongs to; the default group when never given' }),
  reviewSources: z.array(reviewSourceInput).max(10, 'at most 10 review sources').optional().meta({ description: 'Review pages to collect, each a url or a platform and id; replaces the list' }),
  feeds: z.array(feedInput).max(20, 'at most 20 feeds').optional().meta({ description: 'RSS or Atom feeds to read; replaces the list' }),
});

/** POST /v1/keywords: `term` is required, everything else as PATCH. */
export const keywordCreateInput = keywordPatchInput.extend({ term: termInput.meta(termDescription) });

export type KeywordPatch = z.output<typeof keywordPatchInput>;
export type KeywordCreate = z.output<typeof keywordCreateInput>;
