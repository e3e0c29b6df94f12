import { GraphQLError } from 'graphql';
import { z } from 'zod';
import { octolensSearchPlatformNames, searchPlatformOfOctolensName } from '../../vocabulary/octolens-platforms.ts';
import type { KeywordKind } from '../../vocabulary/keyword-kinds.ts';
import { compatIdOf, objectOfCompatId } from '../mentions/index.ts';
import { domainError } from '../domain-error.ts';
import type { PothosBuilder, PothosObjectRef } from '../pothos-builder.ts';
import { requireAuth } from '../require-auth.ts';
import type { SubgraphContext } from '../subgraph-server.ts';
import { parseInput } from '../validate-input.ts';
import { removeKeyword } from './keyword-commands.ts';
import { loadKeyword, reviseKeyword, startKeyword } from './keyword.ts';
import { findKeywordByTerm, type KeywordRow, listKeywordsByTerm } from './keyword-store.ts';

/** An excluded term with a `*` at either end matches as a wildcard (spec 2.1.3); Octolens lists those apart. */
export const isWildcardTerm = (term: string): boolean => term.startsWith('*') || term.endsWith('*');

/** Octolens's keyword classification and ours (spec 2.1 `kind`). */
const octolensTags = ['own_brand', 'competitor', 'industry_term'] as const;
const kindOfTag: Record<(typeof octolensTags)[number], KeywordKind> = { own_brand: 'brand', competitor: 'competitor', industry_term: 'topic' };

export const octolensTagOf = (kind: KeywordKind): (typeof octolensTags)[number] => octolensTags.find((tag) => kindOfTag[tag] === kind)!;

/** A comma-separated list as Octolens writes them; an empty string or null clears it. */
const commaSeparated = z
  .string()
  .nullable()
  .transform((text) => (text ?? '').split(',').map((entry) => entry.trim()).filter(Boolean));

/**
 * A keyword as the compatibility API writes it (spec 4.8): Octolens's
 * field names, comma-separated lists and platform names. Our own bounds
 * (spec 2.1, 8) apply once it is translated; `color` is accepted and not kept.
 */
export const compatKeywordInput = z.strictObject({
  keyword: z.string().optional().meta({ description: 'The term, 2 to 80 characters; double quotes mean exact phrase' }),
  context: z.string().nullable().optional().meta({ description: 'At most 300 characters; null or empty clears it' }),
  additionalTerms: commaSeparated.optional().meta({ description: 'Comma-separated terms the post must also hold (at most 50, each 1 to 80 characters)' }),
  additionalTermsAndOr: z.boolean().optional().meta({ description: 'true: any one of the additional terms (default); false: all of them' }),
  caseSensitive: z.boolean().optional(),
  symbolSensitive: z.boolean().optional().meta({ description: 'true (the default on create): the words of a multi-word term must appear together, as written (exact phrase)' }),
  platforms: z.array(z.string().meta({ enum: octolensSearchPlatformNames })).min(1, 'must name at least one platform').optional().meta({ description: "Octolens's platform names (`twitter`, `dev`, `reddit`, …)" }),
  excludeWords: commaSeparated.optional().meta({ description: 'Comma-separated terms that drop a post' }),
  wildcardExcludeWords: commaSeparated.optional().meta({ description: 'Comma-separated exclusions with `*` at either end' }),
  excludeAuthors: commaSeparated.optional().meta({ description: 'Comma-separated handles, names or profile links whose posts are dropped (at most 100)' }),
  tag: z.enum(octolensTags).nullable().optional(),
  isSubReddit: z
    .boolean()
    .nullable()
    .optional()
    .meta({ description: 'false or null; true answers 501 `FEATURE_DISABLED`: subreddit keywords are not offered' }),
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a #rrggbb colour').optional().meta({ description: 'Accepted and not kept' }),
});

export const compatKeywordCreateInput = compatKeywordInput.extend({
  keyword: z.string().meta({ description: 'The term, 2 to 80 characters; double quotes mean exact phrase' }),
  allowDuplicate: z
    .boolean()
    .optional()
    .meta({ description: 'false (default): a term already tracked returns that keyword; true: such a term is 409 `ITEM_EXISTS`, a group tracking a term once' }),
});

type CompatKeyword = z.output<typeof compatKeywordInput>;

/** Our field names and Octolens's, for problems found once the input is translated. */
const octolensFieldNames: [ours: string, octolens: string][] = [
  ['matching.requiredTerms', 'additionalTerms'],
  ['matching.excludedTerms', 'excludeWords'],
  ['matching.excludedAuthors', 'excludeAuthors'],
  ['term', 'keyword'],
  ['kind', 'tag'],
];

/**
 * Octolens's two exclusion lists as our one (plain terms, then wildcard
 * ones), when the input writes either; a list not sent keeps its entries
 * from `current`. `plain` counts the first part, to tell apart where a
 * refused entry came from.
 */
function excludedTermsOf(input: CompatKeyword, current?: KeywordRow): { terms: string[]; plain: number } | undefined {
  if (input.excludeWords === undefined && input.wildcardExcludeWords === undefined) return undefined;
  const kept = current?.excludedTerms ?? [];
  const plain = input.excludeWords ?? kept.filter((term) => !isWildcardTerm(term));
  return { terms: [...plain, ...(input.wildcardExcludeWords ?? kept.filter(isWildcardTerm))], plain: plain.length };
}

/** The Octolens field an excluded term of ours came from (`matching.excludedTerms.7` may be `wildcardExcludeWords.2`), or the whole lists'. */
function octolensExclusionField(field: string, input: CompatKeyword, current?: KeywordRow): string {
  const index = /^matching\.excludedTerms\.(\d+)(.*)$/.exec(field);
  const plain = excludedTermsOf(input, current)?.plain ?? 0;
  if (index) return Number(index[1]) < plain ? `excludeWords.${index[1]}${index[2]}` : `wildcardExcludeWords.${Number(index[1]) - plain}${index[2]}`;
  // The bound is on both lists together: name the one sent, plain terms when both were.
  return `${input.excludeWords === undefined ? 'wildcardExcludeWords' : 'excludeWords'}${field.slice('matching.excludedTerms'.length)}`;
}

/** A refusal of the translated input, naming the field the caller sent. */
function inOctolensTerms(error: unknown, input: CompatKeyword, current?: KeywordRow): unknown {
  if (!(error instanceof GraphQLError) || typeof error.extensions.field !== 'string') return error;
  const field = error.extensions.field;
  const rename = octolensFieldNames.find(([ours]) => field === ours || field.startsWith(`${ours}.`));
  if (!rename) return error;
  const renamed = rename[0] === 'matching.excludedTerms' ? octolensExclusionField(field, input, current) : rename[1] + field.slice(rename[0].length);
  const message = error.message.startsWith(`${field}:`) ? `${renamed}${error.message.slice(field.length)}` : error.message;
  return domainError(String(error.extensions.code), message, { field: renamed }, error);
}

/** The platforms a list of Octolens names stands for, or `validation_error` naming the one we do not search. */
function searchPlatformsOf(names: string[]): string[] {
  return names.map((name, index) => {
    const platform = searchPlatformOfOctolensName(name);
    if (!platform) throw domainError('validation_error', `platforms.${index}: "${name}" is not a platform Earshot searches`, { field: `platforms.${index}` });
    return platform;
  });
}

/**
 * Our keyword PATCH body (spec 4.2) for an Octolens one. Octolens keeps
 * plain and wildcard exclusions in two lists and we in one, so a write of
 * one list keeps the other's entries from `current`.
 */
function keywordPatchOf(input: CompatKeyword, current?: KeywordRow): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  const matching: Record<string, unknown> = {};
  if (input.keyword !== undefined) patch.term = input.keyword;
  if (input.context !== undefined) patch.context = input.context;
  if (input.platforms !== undefined) patch.platforms = searchPlatformsOf(input.platforms);
  if (input.tag != null) patch.kind = kindOfTag[input.tag];
  if (input.additionalTerms !== undefined) matching.requiredTerms = input.additionalTerms;
  if (input.additionalTermsAndOr !== undefined) matching.requiredMode = input.additionalTermsAndOr ? 'any' : 'all';
  if (input.caseSensitive !== undefined) matching.caseSensitive = input.caseSensitive;
  if (input.symbolSensitive !== undefined) matching.exactPhrase = input.symbolSensitive;
  const excluded = excludedTermsOf(input, current);
  if (excluded) matching.excludedTerms = excluded.terms;
  if (input.excludeAuthors !== undefined) matching.excludedAuthors = input.excludeAuthors;
  if (Object.keys(matching).length) patch.matching = matching;
  return patch;
}

export async function keywordOfCompatId(ctx: SubgraphContext, compatId: number): Promise<KeywordRow> {
  return loadKeyword(ctx, await objectOfCompatId(ctx, 'keyword', compatId, 'Keyword'));
}

/**
 * Creates a keyword the compatibility API's way (spec 4.8): a term the
 * workspace already tracks returns that keyword, unless `allowDuplicate`
 * asks for a second one, which a workspace cannot hold (`item_exists`); a
 * wallet that cannot pay a day of one more keyword creates nothing
 * (`quota_exceeded`).
 */
/** `isSubReddit: true` asks for an Octolens feature Earshot does not have (spec 4.8: 501), not for a wrong value. */
function refuseSubredditKeyword(input: { isSubReddit?: boolean | null }): void {
  if (input.isSubReddit === true) {
    throw domainError('feature_disabled', 'Subreddit keywords are not offered: track a term and name subreddits in the global filters', { field: 'isSubReddit' });
  }
}

async function createCompatKeyword(ctx: SubgraphContext, rawInput: unknown): Promise<{ keyword: KeywordRow; alreadyExisted: boolean }> {
  const { allowDuplicate, ...input } = parseInput(compatKeywordCreateInput, rawInput);
  refuseSubredditKeyword(input);
  const { workspaceId } = requireAuth(ctx);
  const term = input.keyword.trim().replace(/^"(.*)"$/, '$1').trim();
  const existing = await findKeywordByTerm(ctx.sql, workspaceId, term);
  if (existing && allowDuplicate) {
    throw domainError('item_exists', `"${existing.term}" is tracked already, and a workspace tracks a term once`, { field: 'keyword' });
  }
  if (existing) return { keyword: existing, alreadyExisted: true };
  try {
    // Octolens creates a keyword symbol-sensitive (an exact phrase) unless told otherwise.
    return { keyword: await startKeyword(ctx, keywordPatchOf({ symbolSensitive: true, ...input }), { refuseShortWallet: true }), alreadyExisted: false };
  } catch (error) {
    // A create of the same term sent at the same time won: the term is tracked now, answered as if it had been before.
    const raced = !allowDuplicate && error instanceof GraphQLError && error.extensions.code === 'duplicate_keyword';
    const existingNow = raced ? await findKeywordByTerm(ctx.sql, workspaceId, term) : undefined;
    if (existingNow) return { keyword: existingNow, alreadyExisted: true };
    throw inOctolensTerms(error, input);
  }
}

async function updateCompatKeyword(ctx: SubgraphContext, compatId: number, rawInput: unknown): Promise<KeywordRow> {
  const input = parseInput(compatKeywordInput, rawInput);
  refuseSubredditKeyword(input);
  const current = await keywordOfCompatId(ctx, compatId);
  try {
    return await reviseKeyword(ctx, current.workspaceId, current.id, keywordPatchOf(input, current));
  } catch (error) {
    throw inOctolensTerms(error, input, current);
  }
}

/** The keywords side of the Octolens-compatible API (spec 4.8): integer ids, the whole list, and writes in Octolens's terms. */
export function addCompatKeywordSchema(builder: PothosBuilder, Keyword: PothosObjectRef<KeywordRow>) {
  builder.objectField(Keyword, 'compatId', (t) =>
    t.int({
      description: 'Integer id of the compatibility API, given when the keyword is first shown and never changed',
      resolve: (keyword, _args, ctx) => compatIdOf(ctx, 'keyword', keyword.id),
    }),
  );

  const CompatKeywordInput = builder.inputType('CompatKeywordInput', {
    description: "A keyword in Octolens's terms: comma-separated lists, its platform names; `allowDuplicate` on creation only",
    fields: (t) => ({
      keyword: t.string(),
      context: t.string(),
      additionalTerms: t.string(),
      additionalTermsAndOr: t.boolean(),
      caseSensitive: t.boolean(),
      symbolSensitive: t.boolean(),
      platforms: t.stringList(),
      excludeWords: t.string(),
      wildcardExcludeWords: t.string(),
      excludeAuthors: t.string(),
      tag: t.string(),
      isSubReddit: t.boolean(),
      color: t.string(),
      allowDuplicate: t.boolean(),
    }),
  });

  const CompatKeywordCreation = builder.objectRef<{ keyword: KeywordRow; alreadyExisted: boolean }>('CompatKeywordCreation').implement({
    fields: (t) => ({
      keyword: t.field({ type: Keyword, resolve: (creation) => creation.keyword }),
      alreadyExisted: t.exposeBoolean('alreadyExisted', { description: 'True when the term was tracked already and that keyword is returned' }),
    }),
  });

  const CompatDeletedKeyword = builder.objectRef<{ compatId: number; term: string }>('CompatDeletedKeyword').implement({
    fields: (t) => ({ compatId: t.exposeInt('compatId'), term: t.exposeString('term') }),
  });

  builder.queryField('compatKeywords', (t) =>
    t.field({
      type: [Keyword],
      description: 'Every keyword of the workspace by term (case ignored), unpaged as Octolens lists them',
      resolve: (_root, _args, ctx) => listKeywordsByTerm(ctx.sql, requireAuth(ctx).workspaceId),
    }),
  );

  builder.queryField('compatKeyword', (t) =>
    t.field({ type: Keyword, args: { id: t.arg.int({ required: true }) }, resolve: (_root, args, ctx) => keywordOfCompatId(ctx, args.id) }),
  );

  builder.mutationField('compatCreateKeyword', (t) =>
    t.field({
      type: CompatKeywordCreation,
      description: 'Creates a keyword, or returns the one tracking the term already; `item_exists` with `allowDuplicate`, `quota_exceeded` when the wallet cannot pay it',
      args: { input: t.arg({ type: CompatKeywordInput, required: true }) },
      resolve: (_root, args, ctx) => createCompatKeyword(ctx, args.input),
    }),
  );

  builder.mutationField('compatUpdateKeyword', (t) =>
    t.field({
      type: Keyword,
      description: 'Changes the fields sent; a list sent replaces the old one',
      args: { id: t.arg.int({ required: true }), input: t.arg({ type: CompatKeywordInput, required: true }) },
      resolve: (_root, args, ctx) => updateCompatKeyword(ctx, args.id, args.input),
    }),
  );

  builder.mutationField('compatToggleKeywordPause', (t) =>
    t.field({
      type: Keyword,
      description: 'Mutes a running keyword or unmutes a muted one; unmuting one paused for balance needs balance (`insufficient_balance`)',
      args: { id: t.arg.int({ required: true }) },
      resolve: async (_root, args, ctx) => {
        const current = await keywordOfCompatId(ctx, args.id);
        return reviseKeyword(ctx, current.workspaceId, current.id, { muted: !current.muted });
      },
    }),
  );

  builder.mutationField('compatDeleteKeyword', (t) =>
    t.field({
      type: CompatDeletedKeyword,
      description: 'Deletes a keyword and its mentions, as `deleteKeyword` does',
      args: { id: t.arg.int({ required: true }) },
      resolve: async (_root, args, ctx) => {
        const keyword = await keywordOfCompatId(ctx, args.id);
        await removeKeyword(ctx.sql, keyword.workspaceId, keyword.id);
        return { compatId: args.id, term: keyword.term };
      },
    }),
  );
}
