import { chatCompletionSettings } from '../../runtime/chat-completion.ts';
import { countScoredKeywordMatches, listScoredKeywordMatches } from '../mentions/index.ts';
import { notFound } from '../domain-error.ts';
import { JsonScalar } from '../json-scalar.ts';
import type { PothosBuilder } from '../pothos-builder.ts';
import { requireAuth } from '../require-auth.ts';
import type { SubgraphContext } from '../subgraph-server.ts';
import { aiSuggestions } from './ai-suggestions.ts';
import { findKeyword } from './keyword-store.ts';
import { matchRulesOf } from './match-rules-store.ts';
import { type KeywordSuggestion, measureSample, ruleSuggestions, type SuggestionEffect, type SuggestionSubject } from './rule-suggestions.ts';
import { listDismissedSuggestions } from './suggestion-dismissal-store.ts';
import { findCompanyProfile } from './workspace-settings-store.ts';

const day = 86_400_000;
/** Suggestions read the last 30 days of scored matches, the same span as a new keyword's look-back. */
const sampleDays = 30;
/** Beyond this many scored matches the newest are measured and the effect is scaled to the window (`exact` false). */
const sampleLimit = 5_000;

/**
 * GET /v1/keywords/{id}/suggestions (spec 2.6): rule changes measured on the
 * keyword's own scored matches (source `rules`), then, when a language model
 * is configured (`EARSHOT_CLASSIFIER_URL`), its suggestions measured on the
 * same matches (source `ai`). A suggestion dismissed for the keyword (the
 * compatibility API's reject) is not offered again.
 */
export async function keywordSuggestions(ctx: SubgraphContext, id: string): Promise<KeywordSuggestion[]> {
  const { workspaceId } = requireAuth(ctx);
  const keyword = await findKeyword(ctx.sql, workspaceId, id);
  if (!keyword) throw notFound('Keyword');
  const since = new Date(ctx.clock.now().getTime() - sampleDays * day);
  const [matches, window, company, dismissed] = await Promise.all([
    listScoredKeywordMatches(ctx.sql, keyword.id, since, sampleLimit),
    countScoredKeywordMatches(ctx.sql, keyword.id, since),
    findCompanyProfile(ctx.sql, workspaceId),
    listDismissedSuggestions(ctx.sql, keyword.id),
  ]);
  const sample = measureSample(matchRulesOf(keyword), { matches, window: { days: sampleDays, ...window } });
  const subject: SuggestionSubject = { kind: keyword.kind, context: keyword.context, company };
  const computed = ruleSuggestions(sample, subject);
  const model = chatCompletionSettings(ctx.env);
  const offered = !model || sample.kept.length === 0 ? computed : [...computed, ...(await aiSuggestions(model, sample, subject, company, ctx.log))];
  return offered.filter((suggestion) => !dismissed.has(suggestionIdentity(suggestion)));
}

/** What a suggestion is, whenever it is measured: its type and values. */
export const suggestionIdentity = (suggestion: Pick<KeywordSuggestion, 'type' | 'values'>): string => `${suggestion.type}|${suggestion.values.join('\u001f')}`;

export function addKeywordSuggestionSchema(builder: PothosBuilder) {
  builder.addScalarType('JSON', JsonScalar);

  const SuggestionType = builder.enumType('KeywordSuggestionType', {
    values: ['excluded_terms', 'excluded_authors', 'required_terms', 'platforms', 'context'] as const,
  });
  const SuggestionSource = builder.enumType('KeywordSuggestionSource', {
    values: ['rules', 'ai'] as const,
    description: '`rules`: computed from the matches; `ai`: written by a language model',
  });

  const SuggestionSample = builder.objectRef<SuggestionEffect['sample']>('KeywordSuggestionSample').implement({
    description: 'The counts the effect was measured on',
    fields: (t) => ({
      noiseRemoved: t.exposeInt('noiseRemoved'),
      noise: t.exposeInt('noise'),
      relevantRemoved: t.exposeInt('relevantRemoved'),
      relevant: t.exposeInt('relevant'),
    }),
  });

  const SuggestionEffectRef = builder.objectRef<SuggestionEffect>('KeywordSuggestionEffect').implement({
    description: 'What the patch would have removed among the scored matches of the last 30 days',
    fields: (t) => ({
      noiseRemoved: t.exposeInt('noiseRemoved'),
      relevantRemoved: t.exposeInt('relevantRemoved'),
      centsSaved: t.exposeInt('centsSaved', { description: 'The noise removed at the mention price, rounded once' }),
      sample: t.field({ type: SuggestionSample, resolve: (effect) => effect.sample }),
      exact: t.exposeBoolean('exact', { description: 'Measured on every scored match of the window, not scaled from the newest' }),
    }),
  });

  const Suggestion = builder.objectRef<KeywordSuggestion>('KeywordSuggestion').implement({
    description: 'A change to a keyword and its measured effect (spec 2.6)',
    fields: (t) => ({
      type: t.field({ type: SuggestionType, resolve: (suggestion) => suggestion.type }),
      values: t.exposeStringList('values', { description: 'What it adds, drops or writes' }),
      why: t.exposeString('why', { description: 'Reason and measured effect' }),
      patch: t.field({
        type: 'JSON',
        description: 'A keyword PATCH body to apply as is; a list in it holds the whole new list, current entries kept',
        resolve: (suggestion) => suggestion.patch,
      }),
      effect: t.field({ type: SuggestionEffectRef, nullable: true, description: 'Null for a context suggestion', resolve: (suggestion) => suggestion.effect }),
      source: t.field({ type: SuggestionSource, resolve: (suggestion) => suggestion.source }),
    }),
  });

  builder.queryField('keywordSuggestions', (t) =>
    t.field({
      type: [Suggestion],
      description:
        'Suggested changes: rule suggestions (`rules`), the largest noise removal first, a context sentence last, at most 10; then, with a language model configured, at most 5 of its own (`ai`), each measured the same way',
      args: { id: t.arg.id({ required: true }) },
      resolve: (_root, args, ctx) => keywordSuggestions(ctx, String(args.id)),
    }),
  );
}
