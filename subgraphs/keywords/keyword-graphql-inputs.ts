import type { PothosBuilder } from '../pothos-builder.ts';
import type { KeywordEnums } from './keyword-graphql-enums.ts';

/**
 * GraphQL input types of keyword writes. They only shape the input; bounds
 * and normalisation live in keyword-input.ts, applied once for GraphQL and
 * REST alike. Every field is optional so PATCH can tell omitted from null.
 */
export function addKeywordInputs(builder: PothosBuilder, enums: KeywordEnums) {
  const SubredditRulesInput = builder.inputType('SubredditRulesInput', {
    fields: (t) => ({ only: t.stringList(), excluded: t.stringList() }),
  });
  const RepositoryRulesInput = builder.inputType('RepositoryRulesInput', {
    fields: (t) => ({ events: t.field({ type: [enums.RepositoryEvent] }), minStars: t.int(), minWeeklyStars: t.int() }),
  });
  const MatchingInput = builder.inputType('KeywordMatchingInput', {
    fields: (t) => ({
      requiredTerms: t.stringList(),
      requiredMode: t.field({ type: enums.RequiredMode }),
      excludedTerms: t.stringList(),
      excludedAuthors: t.stringList(),
      caseSensitive: t.boolean(),
      exactPhrase: t.boolean(),
      subreddits: t.field({ type: SubredditRulesInput }),
      repositories: t.field({ type: RepositoryRulesInput }),
    }),
  });
  const CapInput = builder.inputType('KeywordCapInput', {
    fields: (t) => ({ mentions: t.int(), per: t.field({ type: enums.CapPeriod }) }),
  });
  const CommentsInput = builder.inputType('KeywordCommentsInput', {
    fields: (t) => ({ enabled: t.boolean(), maxPerPost: t.int() }),
  });
  const ReviewSourceInput = builder.inputType('ReviewSourceInput', {
    description: 'A review page `url`, or a `platform` and `id`',
    fields: (t) => ({
      url: t.string(),
      platform: t.field({ type: enums.ReviewPlatform }),
      id: t.string(),
      countries: t.stringList(),
      language: t.string(),
    }),
  });
  const FeedInput = builder.inputType('KeywordFeedInput', { fields: (t) => ({ url: t.string() }) });

  const writableFields = (t: any) => ({
    kind: t.field({ type: enums.KeywordKind }),
    muted: t.boolean(),
    platforms: t.field({ type: [enums.Platform] }),
    context: t.string(),
    matching: t.field({ type: MatchingInput }),
    cap: t.field({ type: CapInput }),
    comments: t.field({ type: CommentsInput }),
    groupId: t.id(),
    reviewSources: t.field({ type: [ReviewSourceInput] }),
    feeds: t.field({ type: [FeedInput] }),
  });

  return {
    CreateKeywordInput: builder.inputType('CreateKeywordInput', {
      fields: (t) => ({ term: t.string({ required: true, description: 'Double quotes mean exact phrase' }), ...writableFields(t) }),
    }),
    KeywordPatchInput: builder.inputType('KeywordPatchInput', {
      fields: (t) => ({ term: t.string({ description: 'Renames; no look-back' }), ...writableFields(t) }),
    }),
  };
}
