import { createPothosBuilder, toSubgraphSchema } from '../pothos-builder.ts';
import { addCompanyProfileSchema } from './company-profile.ts';
import { addCompatKeywordSuggestionSchema } from './compat-keyword-suggestions.ts';
import { addCompatKeywordSchema } from './compat-keywords.ts';
import { addCompatWorkspaceFiltersSchema } from './compat-workspace-filters.ts';
import { addGroupSchema } from './group.ts';
import { addKeywordMutations, addKeywordType } from './keyword.ts';
import { addKeywordEnums } from './keyword-graphql-enums.ts';
import { addKeywordInputs } from './keyword-graphql-inputs.ts';
import { addKeywordHealthReportSchema } from './keyword-health-report.ts';
import { addKeywordSuggestionSchema } from './keyword-suggestions.ts';
import { addWorkspaceFiltersSchema } from './workspace-filters.ts';

/** The keywords subgraph: keywords, groups, filters and the company profile. */
export function buildKeywordsSchema() {
  const builder = createPothosBuilder();
  builder.queryType({});
  builder.mutationType({});
  const enums = addKeywordEnums(builder);
  const { Keyword } = addKeywordType(builder, enums);
  addKeywordMutations(builder, Keyword, addKeywordInputs(builder, enums));
  addKeywordHealthReportSchema(builder, enums, Keyword);
  addKeywordSuggestionSchema(builder);
  addGroupSchema(builder);
  const { WorkspaceFilters } = addWorkspaceFiltersSchema(builder);
  addCompanyProfileSchema(builder);
  addCompatKeywordSchema(builder, Keyword);
  addCompatKeywordSuggestionSchema(builder, Keyword);
  addCompatWorkspaceFiltersSchema(builder, WorkspaceFilters);
  return toSubgraphSchema(builder);
}

// The domain functions other parts of Earshot use; nothing outside this folder imports its other files.
export { companyProfilePatchInput } from './company-profile.ts';
export { compatKeywordCreateInput, compatKeywordInput, isWildcardTerm, octolensTagOf } from './compat-keywords.ts';
export { typedAuthor } from './matching/author-identity.ts';
export { compatFilterValuesInput, compatWorkspaceFiltersInput } from './compat-workspace-filters.ts';
export { ensureDefaultGroup, findGroupsByIds } from './group-store.ts';
export { groupCreateInput, groupPatchInput } from './group.ts';
export { createKeyword } from './keyword-commands.ts';
export { keywordDirectory } from './keyword-directory.ts';
export { keywordCreateInput, keywordPatchInput } from './keyword-input.ts';
export { type KeywordTermCache, startKeywordTermCache } from './keyword-term-cache.ts';
export { type KeywordRow, findKeywordById, findKeywordsByIdsAnyWorkspace, listFeeds, listReviewSources, saveFeedValidators } from './keyword-store.ts';
export { reviewStorefrontKeys } from './review-sources.ts';
export { loadActiveMatchRules, loadWorkspaceFilters, matchRulesOf, toWorkspaceFilters } from './match-rules-store.ts';
export { type KeywordMatchRules, type WorkspaceFilters, compileKeywordRules, compileWorkspaceFilters, keywordRulesPass, workspaceFiltersPass } from './matching/keyword-rules.ts';
export { type KeywordMatch, type Matcher, createMatcher } from './matching/matcher.ts';
export { type MatchablePost, PreparedPost } from './matching/prepared-post.ts';
export { createReferenceMatcher } from './matching/reference-matcher.ts';
export { matchingSinceRename } from './matching/term-since.ts';
export { matchWithRepositoryEvents } from './repository-watch.ts';
export { applyNoiseBrake, type BrakedKeyword, scoreWithNoiseBrake } from './noise-brake.ts';
export { isWholeLookback, type OwedLookback, oweLookback } from './owed-lookback-store.ts';
export { keywordRuns, type SendLookback, startLookbacksOfRunningKeywords } from './owed-lookbacks.ts';
export {
  claimDuePolls,
  recordLookbackPoll,
  recordPollError,
  recordPollFailure,
  recordPollOutcome,
  recordUnpolledPlatforms,
  searchKey,
  syncKeywordPolls,
} from './poll-schedule-store.ts';
export { workspaceFiltersPatchInput } from './workspace-filters.ts';
export { findCompanyProfile, findWorkspaceFilters } from './workspace-settings-store.ts';
export { FeedCheckFailure, type ReviewSourceRef, type SourceReaders } from '../source-readers.ts';
