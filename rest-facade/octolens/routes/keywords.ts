import { z } from 'zod';
import { compatKeywordCreateInput, compatKeywordInput } from '../../../subgraphs/keywords/index.ts';
import { booleanText, wholeNumberText } from '../../query-parameters.ts';
import type { GraphQLRoute } from '../../route.ts';
import { givenIdOf, integerId } from '../octolens-ids.ts';
import { octolensKeyword, octolensKeywordFields, octolensKeywordSchema } from '../octolens-records.ts';
import { octolensBadBody, octolensBase, octolensNotFound, octolensReadOnly, octolensTag, octolensUnauthorized } from '../octolens-routes.ts';

const keywordNotFound = octolensNotFound('keyword');
const subredditKeywordRefused = { description: '`isSubReddit: true`: subreddit keywords are not offered (`FEATURE_DISABLED`); nothing changed' };
const integerIdNote = 'The keyword’s integer `id`; ids are given when a keyword is first shown and never change';

const suggestionSchema = z.object({
  id: z.number().int(),
  keywordId: z.number().int(),
  organizationId: z.string(),
  type: z.enum(['add_exclude_words', 'add_exclude_authors', 'add_additional_terms', 'disable_source']),
  value: z.string(),
  reason: z.string(),
  impact: z.string().nullable(),
  impactScore: z.number(),
  status: z.literal('pending'),
  createdAt: z.iso.datetime().meta({ description: 'Suggestions are computed when asked for: this is that moment' }),
  respondedAt: z.null(),
});

const suggestionFields = 'compatSuggestions { compatId type value reason impact impactScore }';

/** The list with volumes comes in pages (Octolens: 25 by default, 100 at most), most impact first. */
const suggestionPageDefault = 25;
const suggestionPageMax = 100;

/**
 * A page's cursor: the position of its first suggestion in the list. The
 * list is measured afresh on every read, so a position is all a cursor can
 * hold; a suggestion that appears or goes between two reads shifts the rest.
 */
const suggestionCursor = z
  .string()
  .regex(/^p[1-9]\d{0,6}$/, 'must be a nextCursor this route returned')
  .transform((cursor) => Number(cursor.slice(1)));

export const octolensKeywordRoutes: GraphQLRoute[] = [
  // Before `DELETE /keywords/{id}`, whose path would otherwise take `suggestions` for an id.
  {
    method: 'DELETE',
    path: `${octolensBase}/keywords/suggestions`,
    operationId: 'octolensRejectKeywordSuggestion',
    summary: 'Dismisses one listed suggestion (`suggestionId`) or every one listed for a keyword (`keywordId`): a dismissed suggestion is not offered again, here or on `/v1`',
    tag: octolensTag,
    body: z.strictObject({
      suggestionId: z.number().int().optional().meta({ description: 'One suggestion to dismiss' }),
      keywordId: z.number().int().optional().meta({ description: 'A keyword whose listed suggestions are all dismissed' }),
    }).meta({ oneOf: [{ required: ['suggestionId'] }, { required: ['keywordId'] }] }),
    responses: {
      200: { description: 'Dismissed', schema: z.object({ success: z.literal(true) }).meta({ id: 'OctolensRejectedSuggestions' }) },
      400: { description: `${octolensBadBody.description}; neither or both of \`suggestionId\` and \`keywordId\`` },
      401: octolensUnauthorized,
      403: octolensReadOnly,
      404: { description: 'No such keyword, no such suggestion, or it no longer applies to its keyword (`NOT_FOUND`)' },
    },
    operation: `mutation OctolensRejectSuggestions($suggestionId: Int, $keywordId: Int) {
      compatRejectKeywordSuggestions(suggestionId: $suggestionId, keywordId: $keywordId)
    }`,
    variables: ({ body }) => {
      const { suggestionId, keywordId } = body as { suggestionId?: number; keywordId?: number };
      return { suggestionId: suggestionId === undefined ? null : givenIdOf(suggestionId), keywordId: keywordId === undefined ? null : givenIdOf(keywordId) };
    },
    result: () => ({ status: 200, body: { success: true } }),
  },
  {
    method: 'GET',
    path: `${octolensBase}/keywords`,
    operationId: 'octolensListKeywords',
    summary: 'Every keyword, by term (case ignored); unpaged, as Octolens lists them',
    tag: octolensTag,
    responses: {
      200: { description: 'The keywords', schema: z.object({ data: z.array(octolensKeywordSchema) }).meta({ id: 'OctolensKeywordList' }) },
      401: octolensUnauthorized,
    },
    operation: `query OctolensKeywords { compatKeywords { ${octolensKeywordFields} } }`,
    variables: () => ({}),
    result: (data) => ({ status: 200, body: { data: data.compatKeywords.map(octolensKeyword) } }),
  },
  {
    method: 'POST',
    path: `${octolensBase}/keywords`,
    operationId: 'octolensCreateKeyword',
    summary:
      'Creates a keyword with a 30-day look-back; a term the workspace tracks already returns that keyword (`alreadyExisted`). ' +
      'Lists are comma-separated; our bounds apply (term 2 to 80 characters, context 300)',
    tag: octolensTag,
    body: compatKeywordCreateInput,
    responses: {
      200: {
        description: 'The new keyword, or the one tracking the term already',
        schema: octolensKeywordSchema.extend({ alreadyExisted: z.boolean() }).meta({ id: 'OctolensKeywordCreation' }),
      },
      400: octolensBadBody,
      401: octolensUnauthorized,
      402: { description: 'The wallet cannot pay a day of one more keyword; nothing was created (`QUOTA_EXCEEDED`)' },
      403: octolensReadOnly,
      409: { description: '`allowDuplicate: true` for a term the workspace tracks already: a workspace tracks a term once (`ITEM_EXISTS`)' },
      501: subredditKeywordRefused,
    },
    operation: `mutation OctolensCreateKeyword($input: CompatKeywordInput!) {
      compatCreateKeyword(input: $input) { alreadyExisted keyword { ${octolensKeywordFields} } }
    }`,
    variables: ({ body }) => ({ input: body }),
    result: (data) => ({ status: 200, body: { ...octolensKeyword(data.compatCreateKeyword.keyword), alreadyExisted: data.compatCreateKeyword.alreadyExisted } }),
  },
  {
    method: 'PATCH',
    path: `${octolensBase}/keywords/{id}`,
    operationId: 'octolensUpdateKeyword',
    summary: `Changes the fields sent; a list sent replaces the old one (an empty string clears it). ${integerIdNote}`,
    tag: octolensTag,
    body: compatKeywordInput,
    responses: {
      200: { description: 'The keyword after the change', schema: octolensKeywordSchema },
      400: octolensBadBody,
      401: octolensUnauthorized,
      403: octolensReadOnly,
      404: keywordNotFound,
      409: { description: 'A new term the keyword’s group tracks already (`ITEM_EXISTS`)' },
      501: subredditKeywordRefused,
    },
    operation: `mutation OctolensUpdateKeyword($id: Int!, $input: CompatKeywordInput!) { compatUpdateKeyword(id: $id, input: $input) { ${octolensKeywordFields} } }`,
    variables: ({ params, body }) => ({ id: integerId(params.id), input: body }),
    result: (data) => ({ status: 200, body: octolensKeyword(data.compatUpdateKeyword) }),
  },
  {
    method: 'DELETE',
    path: `${octolensBase}/keywords/{id}`,
    operationId: 'octolensDeleteKeyword',
    summary: `Deletes a keyword and its mentions; alert rules forget it. ${integerIdNote}`,
    tag: octolensTag,
    responses: {
      200: { description: 'Deleted', schema: z.object({ ok: z.literal(true), id: z.number().int(), keyword: z.string() }).meta({ id: 'OctolensDeletedKeyword' }) },
      401: octolensUnauthorized,
      403: octolensReadOnly,
      404: keywordNotFound,
    },
    operation: `mutation OctolensDeleteKeyword($id: Int!) { compatDeleteKeyword(id: $id) { compatId term } }`,
    variables: ({ params }) => ({ id: integerId(params.id) }),
    result: (data) => ({ status: 200, body: { ok: true, id: data.compatDeleteKeyword.compatId, keyword: data.compatDeleteKeyword.term } }),
  },
  {
    method: 'POST',
    path: `${octolensBase}/keywords/{id}/pause`,
    operationId: 'octolensToggleKeywordPause',
    summary: `Pauses a running keyword or resumes a paused one (\`paused\` flips). ${integerIdNote}`,
    tag: octolensTag,
    responses: {
      200: { description: 'The keyword after the change', schema: octolensKeywordSchema },
      401: octolensUnauthorized,
      402: { description: 'Resuming a keyword paused for balance needs balance (`QUOTA_EXCEEDED`)' },
      403: octolensReadOnly,
      404: keywordNotFound,
    },
    operation: `mutation OctolensToggleKeywordPause($id: Int!) { compatToggleKeywordPause(id: $id) { ${octolensKeywordFields} } }`,
    variables: ({ params }) => ({ id: integerId(params.id) }),
    result: (data) => ({ status: 200, body: octolensKeyword(data.compatToggleKeywordPause) }),
  },
  {
    method: 'GET',
    path: `${octolensBase}/keywords/suggestions`,
    operationId: 'octolensListKeywordSuggestions',
    summary:
      'Rule suggestions measured on the last 30 days of scored matches: for one keyword with `keywordId`, else for every keyword with its volume (matches in the last 7 days); ' +
      '`withVolume=false` counts them by keyword, `withVolume=true` lists them with volumes, narrowed by `keywordId` when given, ' +
      `most impact first, ${suggestionPageDefault} a page (\`limit\` up to ${suggestionPageMax}; pass \`nextCursor\` back as \`cursor\`)`,
    tag: octolensTag,
    query: z.object({
      keywordId: z.string().regex(/^\d+$/, 'must be an integer keyword id').optional().meta({ description: 'Narrow to one keyword' }),
      withVolume: booleanText
        .optional()
        .meta({ description: 'true: the list with volumes, the default without `keywordId`; false without `keywordId`: `[{ keywordId, count }]` for each keyword with suggestions' }),
      limit: wholeNumberText(1, suggestionPageMax)
        .optional()
        .meta({ description: `The list with volumes: suggestions a page, 1 to ${suggestionPageMax}, default ${suggestionPageDefault}` }),
      cursor: suggestionCursor.optional().meta({ description: 'The list with volumes: `nextCursor` of the page before' }),
    }),
    responses: {
      200: {
        description: 'With `keywordId`: the keyword’s settings and its suggestions; with `withVolume=false`: counts by keyword; else every keyword’s (or the one’s) with volumes',
        schema: z
          .union([
            z.object({
              keyword: z.object({
                excludeWords: z.string().nullable(),
                excludeAuthors: z.string().nullable(),
                additionalTerms: z.string().nullable(),
                additionalTermsAndOr: z.boolean(),
                platforms: z.string().meta({ description: 'Comma-separated' }),
                symbolSensitive: z.boolean(),
              }),
              suggestions: z.array(suggestionSchema),
            }),
            z.array(z.object({ keywordId: z.number().int(), count: z.number().int() })),
            z.object({
              keywords: z.array(z.object({ id: z.number().int(), keyword: z.string(), volume: z.number().int() })),
              suggestions: z.array(suggestionSchema.extend({ keyword: z.string(), keywordVolume: z.number().int() })),
              totalSuggestionCount: z.number().int().meta({ description: 'Suggestions in the whole list, every page' }),
              nextCursor: z.string().nullable().meta({ description: 'Pass as `cursor` for the next page; null on the last' }),
            }),
          ])
          .meta({ id: 'OctolensKeywordSuggestions' }),
      },
      401: octolensUnauthorized,
      404: { description: '`keywordId` names no keyword of this workspace (`NOT_FOUND`)' },
    },
    operation: `query OctolensKeywordSuggestions($id: Int!, $one: Boolean!) {
      whoami { workspace { id } }
      compatKeyword(id: $id) @include(if: $one) { ${octolensKeywordFields} stats { last7d } ${suggestionFields} }
      compatKeywords @skip(if: $one) { compatId term stats { last7d } ${suggestionFields} }
    }`,
    variables: ({ query }) => ({ id: query.keywordId === undefined ? 0 : integerId(query.keywordId), one: query.keywordId !== undefined }),
    result: (data, { query }) => {
      const organizationId = data.whoami.workspace.id;
      const rows = (keyword: Record<string, any>) =>
        keyword.compatSuggestions.map((suggestion: Record<string, any>) => ({
          id: suggestion.compatId,
          keywordId: keyword.compatId,
          organizationId,
          type: suggestion.type,
          value: suggestion.value,
          reason: suggestion.reason,
          impact: suggestion.impact,
          impactScore: suggestion.impactScore,
          status: 'pending',
          createdAt: new Date().toISOString(),
          respondedAt: null,
        }));
      if (data.compatKeyword && query.withVolume !== true) {
        const settings = octolensKeyword(data.compatKeyword);
        return {
          status: 200,
          body: {
            keyword: {
              excludeWords: settings.excludeWords,
              excludeAuthors: settings.excludeAuthors,
              additionalTerms: settings.additionalTerms,
              additionalTermsAndOr: settings.additionalTermsAndOr,
              platforms: settings.platforms.join(','),
              symbolSensitive: settings.symbolSensitive,
            },
            suggestions: rows(data.compatKeyword),
          },
        };
      }
      const keywords: Record<string, any>[] = data.compatKeyword ? [data.compatKeyword] : data.compatKeywords;
      if (query.withVolume === false) {
        const counts = keywords.map((keyword) => ({ keywordId: keyword.compatId, count: keyword.compatSuggestions.length }));
        return { status: 200, body: counts.filter((row) => row.count > 0) };
      }
      const suggestions = keywords
        .flatMap((keyword) => rows(keyword).map((row: Record<string, unknown>) => ({ ...row, keyword: keyword.term, keywordVolume: keyword.stats.last7d })))
        .sort((a, b) => b.impactScore - a.impactScore || a.id - b.id);
      const start = query.cursor ?? 0;
      const end = start + (query.limit ?? suggestionPageDefault);
      return {
        status: 200,
        body: {
          keywords: keywords.map((keyword) => ({ id: keyword.compatId, keyword: keyword.term, volume: keyword.stats.last7d })),
          suggestions: suggestions.slice(start, end),
          totalSuggestionCount: suggestions.length,
          nextCursor: end < suggestions.length ? `p${end}` : null,
        },
      };
    },
  },
  {
    method: 'POST',
    path: `${octolensBase}/keywords/suggestions`,
    operationId: 'octolensAcceptKeywordSuggestion',
    summary: 'Applies a listed suggestion to its keyword; `modifiedValue` (comma-separated) replaces its values',
    tag: octolensTag,
    body: z.strictObject({ suggestionId: z.number().int(), modifiedValue: z.string().optional() }),
    responses: {
      200: {
        description: 'What changed, by keyword field',
        schema: z.object({ success: z.literal(true), appliedChanges: z.record(z.string(), z.unknown()) }).meta({ id: 'OctolensAppliedSuggestion' }),
      },
      400: octolensBadBody,
      401: octolensUnauthorized,
      403: octolensReadOnly,
      404: { description: 'No such suggestion, or it no longer applies to its keyword (`NOT_FOUND`)' },
    },
    operation: `mutation OctolensAcceptSuggestion($id: Int!, $modifiedValue: String) {
      compatAcceptKeywordSuggestion(id: $id, modifiedValue: $modifiedValue) { fields keyword { ${octolensKeywordFields} } }
    }`,
    variables: ({ body }) => {
      const { suggestionId, modifiedValue } = body as { suggestionId: number; modifiedValue?: string };
      return { id: givenIdOf(suggestionId), modifiedValue: modifiedValue ?? null };
    },
    result: (data) => {
      const keyword: Record<string, unknown> = octolensKeyword(data.compatAcceptKeywordSuggestion.keyword);
      const fields: string[] = data.compatAcceptKeywordSuggestion.fields;
      return { status: 200, body: { success: true, appliedChanges: Object.fromEntries(fields.map((field) => [field, keyword[field]])) } };
    },
  },
];
