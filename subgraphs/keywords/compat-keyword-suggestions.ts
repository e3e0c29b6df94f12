import { octolensPlatformName } from '../../vocabulary/octolens-platforms.ts';
import { compatIdOf, objectOfCompatId } from '../mentions/index.ts';
import { domainError, notFound } from '../domain-error.ts';
import type { PothosBuilder, PothosObjectRef } from '../pothos-builder.ts';
import type { SubgraphContext } from '../subgraph-server.ts';
import { keywordOfCompatId } from './compat-keywords.ts';
import { loadKeyword, reviseKeyword } from './keyword.ts';
import { keywordSuggestions, suggestionIdentity } from './keyword-suggestions.ts';
import { dismissSuggestions } from './suggestion-dismissal-store.ts';
import type { KeywordRow } from './keyword-store.ts';
import type { KeywordSuggestion, SuggestionType } from './rule-suggestions.ts';
import type { SuggestionPatch } from './suggestion-patches.ts';

/** Octolens's suggestion types for ours; a context sentence has none and is not listed. */
const octolensTypeOf: Partial<Record<SuggestionType, string>> = {
  excluded_terms: 'add_exclude_words',
  excluded_authors: 'add_exclude_authors',
  required_terms: 'add_additional_terms',
  platforms: 'disable_source',
};

/** The keyword field in Octolens's terms each type changes, for `appliedChanges`. */
const octolensFieldOf: Partial<Record<SuggestionType, string>> = {
  excluded_terms: 'excludeWords',
  excluded_authors: 'excludeAuthors',
  required_terms: 'additionalTerms',
  platforms: 'platforms',
};

/**
 * Suggestions are computed, not stored; the object an integer id names is
 * the keyword, type and values, so accepting one finds it again among the
 * keyword's current suggestions (or finds it gone).
 */
const suggestionKey = (keywordId: string, suggestion: Pick<KeywordSuggestion, 'type' | 'values'>) => `${keywordId}|${suggestionIdentity(suggestion)}`;

interface CompatSuggestion {
  keyword: KeywordRow;
  suggestion: KeywordSuggestion;
}

async function compatSuggestionsOf(ctx: SubgraphContext, keyword: KeywordRow): Promise<CompatSuggestion[]> {
  const suggestions = await keywordSuggestions(ctx, keyword.id);
  return suggestions.filter((suggestion) => octolensTypeOf[suggestion.type]).map((suggestion) => ({ keyword, suggestion }));
}

/**
 * The patch of a suggestion, its values replaced by `modifiedValue`
 * (comma-separated) when one is given. A term or author suggestion's patch
 * is one `matching` list holding the current entries and its values (spec 2.6).
 */
function patchWith(suggestion: KeywordSuggestion, modifiedValue: string | null | undefined): SuggestionPatch {
  if (modifiedValue === null || modifiedValue === undefined) return suggestion.patch;
  const matching = suggestion.patch.matching;
  if (!matching) {
    throw domainError('validation_error', `modifiedValue: a ${suggestion.type} suggestion is taken as it is`, { field: 'modifiedValue' });
  }
  const [field, list] = Object.entries(matching).find(([, value]) => Array.isArray(value)) as [keyof typeof matching, string[]];
  const values = modifiedValue.split(',').map((value) => value.trim()).filter(Boolean);
  return { matching: { ...matching, [field]: [...list.filter((value) => !suggestion.values.includes(value)), ...values] } };
}

/** The listed suggestion an integer id names, or `not_found` once it no longer applies. */
async function listedSuggestion(ctx: SubgraphContext, compatId: number): Promise<CompatSuggestion> {
  const key = await objectOfCompatId(ctx, 'suggestion', compatId, 'Suggestion');
  const keyword = await loadKeyword(ctx, key.slice(0, key.indexOf('|')));
  const found = (await compatSuggestionsOf(ctx, keyword)).find(({ suggestion }) => suggestionKey(keyword.id, suggestion) === key);
  if (!found) throw notFound('Suggestion (it no longer applies to the keyword)');
  return found;
}

async function acceptSuggestion(ctx: SubgraphContext, compatId: number, modifiedValue: string | null | undefined) {
  const found = await listedSuggestion(ctx, compatId);
  const keyword = found.keyword;
  const patch = patchWith(found.suggestion, modifiedValue);
  const changed = await reviseKeyword(ctx, keyword.workspaceId, keyword.id, patch);
  return { keyword: changed, fields: [octolensFieldOf[found.suggestion.type]!] };
}

/** Keyword suggestions in Octolens's terms (spec 2.6, 4.8): integer ids, its types, a value and the measured impact. */
export function addCompatKeywordSuggestionSchema(builder: PothosBuilder, Keyword: PothosObjectRef<KeywordRow>) {
  const CompatKeywordSuggestion = builder.objectRef<CompatSuggestion>('CompatKeywordSuggestion').implement({
    description: 'A rule suggestion as the compatibility API lists it',
    fields: (t) => ({
      compatId: t.int({
        description: 'Integer id, stable while the suggestion stays the same',
        resolve: ({ keyword, suggestion }, _args, ctx) => compatIdOf(ctx, 'suggestion', suggestionKey(keyword.id, suggestion)),
      }),
      type: t.string({ description: '`add_exclude_words`, `add_exclude_authors`, `add_additional_terms` or `disable_source`', resolve: ({ suggestion }) => octolensTypeOf[suggestion.type]! }),
      value: t.string({
        description: 'The values, comma-separated (platforms by their Octolens names)',
        resolve: ({ suggestion }) => (suggestion.type === 'platforms' ? suggestion.values.map(octolensPlatformName) : suggestion.values).join(','),
      }),
      reason: t.string({ resolve: ({ suggestion }) => suggestion.why }),
      impact: t.string({
        nullable: true,
        resolve: ({ suggestion: { effect } }) =>
          effect && `Would have removed ${effect.noiseRemoved} noisy and ${effect.relevantRemoved} relevant matches in 30 days, ${effect.centsSaved} cents`,
      }),
      impactScore: t.float({
        description: 'The share of the last 30 days’ noise it removes, 0 to 1',
        resolve: ({ suggestion: { effect } }) => (effect && effect.sample.noise > 0 ? effect.sample.noiseRemoved / effect.sample.noise : 0),
      }),
    }),
  });

  builder.objectField(Keyword, 'compatSuggestions', (t) =>
    t.field({
      type: [CompatKeywordSuggestion],
      description: 'The rule suggestions Octolens has a type for, the largest noise removal first',
      resolve: (keyword, _args, ctx) => compatSuggestionsOf(ctx, keyword),
    }),
  );

  const CompatAppliedSuggestion = builder.objectRef<{ keyword: KeywordRow; fields: string[] }>('CompatAppliedSuggestion').implement({
    fields: (t) => ({
      keyword: t.field({ type: Keyword, resolve: (applied) => applied.keyword }),
      fields: t.exposeStringList('fields', { description: "The keyword fields it changed, in Octolens's names" }),
    }),
  });

  builder.mutationField('compatRejectKeywordSuggestions', (t) =>
    t.field({
      type: 'Int',
      description:
        'Dismisses one listed suggestion (`suggestionId`) or every one listed for a keyword (`keywordId`), so that it is not offered again; answers how many were dismissed',
      args: { suggestionId: t.arg.int(), keywordId: t.arg.int() },
      resolve: async (_root, { suggestionId, keywordId }, ctx) => {
        if ([suggestionId, keywordId].filter((id) => id !== null && id !== undefined).length !== 1) {
          throw domainError('validation_error', 'suggestionId: send one of suggestionId and keywordId, not both or neither', { field: 'suggestionId' });
        }
        const rejected =
          suggestionId != null ? [await listedSuggestion(ctx, suggestionId)] : await compatSuggestionsOf(ctx, await keywordOfCompatId(ctx, keywordId!));
        if (rejected.length) {
          await dismissSuggestions(ctx.sql, rejected[0].keyword.id, rejected.map(({ suggestion }) => suggestionIdentity(suggestion)), ctx.clock.now());
        }
        return rejected.length;
      },
    }),
  );

  builder.mutationField('compatAcceptKeywordSuggestion', (t) =>
    t.field({
      type: CompatAppliedSuggestion,
      description: 'Applies a listed suggestion to its keyword; `not_found` once it no longer applies',
      args: { id: t.arg.int({ required: true }), modifiedValue: t.arg.string() },
      resolve: (_root, args, ctx) => acceptSuggestion(ctx, args.id, args.modifiedValue),
    }),
  );
}
