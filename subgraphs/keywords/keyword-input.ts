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
  .refine(({ term }) => term.length >= 2 && term.length <= 80, 'must be 2 to 80 characters')
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

const repositoriesPatch = z.strictObject({
  events: list(repositoryEvent, 4).transform(uniqueList).optional(),
  minStars: z.number().int('must be a whole number').min(0).max(1_000_000).nullable().optional(),
  minWeeklyStars: z.number().int('must be a whole number').min(25).max(1_000_000).nullable().optional(),
});

const subredditsPatch = z.strictObject({
  only: subredditList.optional(),
  excluded: subredditList.optional(),
});

export const matchingPatch = z.strictObject({
  requiredTerms: termList.optional(),
  requiredMode: z.enum(['any', 'all']).optional(),
  excludedTerms: termList.optional(),
  excludedAuthors: excludedAuthorList.optional(),
  caseSensitive: z.boolean().optional(),
  exactPhrase: z.boolean().optional(),
  subreddits: subredditsPatch.optional(),
  repositories: repositoriesPatch.optional(),
});

export const capInput = z
  .strictObject({
    mentions: z.number({ error: 'is required: a whole number 1 to 1,000,000' }).int('must be a whole number').min(1).max(1_000_000),
    per: z.enum(['day', 'week', 'month']).nullish().transform((per) => per ?? 'month'),
  })
  .nullable();

export const commentsInput = z.strictObject({
  enabled: z.boolean().optional(),
  maxPerPost: z.number().int('must be a whole number').min(1).max(100).optional(),
});

const countryCode = z
  .string()
  .regex(/^[A-Za-z]{2}$/, 'must be a two-letter storefront code')
  .transform((code) => code.toLowerCase());

/** One review source as written: a link, or a platform and id (spec 2.3). */
export const reviewSourceInput = z
  .strictObject({
    url: text(1, 500).optional(),
    platform: z.enum(reviewPlatforms).optional(),
    id: text(1, 200).optional(),
    countries: z.array(countryCode).min(1, 'at least 1 item').max(20, 'at most 20 items').transform(uniqueList).optional(),
    language: text(2, 10).optional(),
  })
  .superRefine((source, ctx) => {
    if (!source.url && !(source.platform && source.id)) {
      ctx.addIssue({ code: 'custom', message: 'give a url, or a platform and an id' });
    }
  });

export const feedInput = z.strictObject({ url: text(4, 500) });

const contextInput = z
  .string()
  .max(300, 'must be at most 300 characters')
  .nullable()
  .transform((value) => (value === null || value.trim() === '' ? null : value.trim()));

/** The writable fields of a keyword (spec 4.2 PATCH body); every field optional. */
export const keywordPatchInput = z.strictObject({
  term: termInput.optional(),
  kind: z.enum(keywordKinds).optional(),
  muted: z.boolean().optional(),
  platforms: z.array(platform).max(searchPlatforms.length).nullable().transform((items) => (items ? uniqueList(items) : null)).optional(),
  context: contextInput.optional(),
  matching: matchingPatch.optional(),
  cap: capInput.optional(),
  comments: commentsInput.optional(),
  groupId: z.string().min(1).optional(),
  reviewSources: z.array(reviewSourceInput).max(10, 'at most 10 review sources').optional(),
  feeds: z.array(feedInput).max(20, 'at most 20 feeds').optional(),
});

/** POST /v1/keywords: `term` is required, everything else as PATCH. */
export const keywordCreateInput = keywordPatchInput.extend({ term: termInput });

export type KeywordPatch = z.output<typeof keywordPatchInput>;
export type KeywordCreate = z.output<typeof keywordCreateInput>;
