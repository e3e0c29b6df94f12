import { createPothosBuilder, toSubgraphSchema } from '../pothos-builder.ts';
import { addAlertRuleType } from './alert-rule.ts';
import { addAnalyticsType } from './analytics.ts';
import { addCompatAnalyticsSchema } from './compat-analytics.ts';
import { addCompatMentionSchema } from './compat-mentions.ts';
import { addMentionType } from './mention.ts';
import { addMentionViewSchema } from './mention-view.ts';
import { addPersonType } from './person.ts';
import { addSegmentType } from './segment.ts';

/** The mentions subgraph: mentions, their filters, saved views, triage and export, people and segments, analytics, alert rules and the live `mentionCreated` and `mentionUpdated` subscriptions. */
export function buildMentionsSchema() {
  const builder = createPothosBuilder();
  builder.queryType({});
  builder.mutationType({});
  builder.subscriptionType({});
  const mentionTypes = addMentionType(builder);
  addSegmentType(builder, addPersonType(builder, mentionTypes.Mention));
  const Analytics = addAnalyticsType(builder, mentionTypes.Keyword);
  addAlertRuleType(builder);
  const viewTypes = addMentionViewSchema(builder, mentionTypes);
  addCompatMentionSchema(builder, { ...mentionTypes, ...viewTypes });
  addCompatAnalyticsSchema(builder, Analytics);
  return toSubgraphSchema(builder);
}

// The domain functions other parts of Earshot use; nothing outside this folder imports its other files.
export { createAlertRule } from './alert-rule.ts';
export { type CompatKind } from './compat-id-store.ts';
export { compatIdOf, objectOfCompatId, objectsOfCompatIds } from './compat-ids.ts';
export { createAlertRuleInput, updateAlertRuleInput } from './alert-rule-input.ts';
export { type AlertRuleRow, countChannelRules, findAlertRule, listDueDigestRules, listInstantAlertRules, lockAlertRule, recordDigestRun, removeKeywordFromAlertRules } from './alert-rule-store.ts';
export { digestSpanStart, nextDigestRun } from './digest-schedule.ts';
export { claimDueCommentWatches, recordThreadRead, removeComment, storeComment, threadCommentExternalIds } from './comment-store.ts';
export { countScoredKeywordMatches, listScoredKeywordMatches } from './keyword-match-sample-store.ts';
export { type KeywordMatchCounts, type KeywordMatchTotals, type KeywordWindowCounts, keywordMatchCounts, keywordMatchCountsOfJson, keywordMatchCountsSql, keywordPlatformWindowCounts, keywordWindowCounts, recountKeywordMatchDays, workspaceMatchCount } from './keyword-match-stats-store.ts';
export { exportColumns, exportRowLimit, exportsPerMinute, type MentionExportStream, openMentionExport } from './mention-export.ts';
export { instantParameter, linkHost, maxFilterItems, maxFilterListItems, mentionFilterJson, mentionFilterQuery, mentionFilterRecord } from './mention-filter.ts';
export { listMentions, mentionSorts } from './mention-list.ts';
export { type MentionRow, type StoredMention, type StoredMentions, filterMentionIdsByAlert, findDigestMentions, findMentionsByIds, keywordVerdicts, listUnscoredMentionIds, markMentionsDelivered, markPostMentionsDone, mentionCreatedChannel, mentionUpdatedChannel, readStoredMentions, storeMatchedPostsUnlinked } from './mention-store.ts';
export { makeMentionMonths } from './mention-month-store.ts';
export { mentionRecord } from './mention-record.ts';
export { linkPeople } from './person-linking.ts';
export { mentionsLikelyRefused } from './mention-admission.ts';
export { recordScores, type ScoredMention } from './mention-scoring.ts';
export { nextThreadRead } from './thread-windows.ts';
export { maxBulkMentions, mentionPatchInput, mentionsBulkInput } from './mention-triage.ts';
export { findMutedMentionIds } from './person-store.ts';
export { analyticsBuckets, analyticsDimensions } from './analytics-store.ts';
export { maxAnalyticsBuckets, mentionAnalytics } from './analytics.ts';
export { maxFilterValues, ownerId, peopleFilterInput, personSearch, personStages, unowned } from './person-filter.ts';
export { activityChannels, personActivityInput, personMergeInput, personPatchInput, personSplitInput } from './person-outreach.ts';
export { segmentCreateInput, segmentPatchInput } from './segment.ts';
export { mentionViewCreateInput, mentionViewPatchInput } from './mention-view.ts';
export { type RepositorySeen, findRepositorySeen, lockRepositoriesSeen, saveRepositorySeen } from './repository-store.ts';
export { findStreamCursor, saveStreamCursor } from './stream-cursor-store.ts';
