/** What a keyword tracks (spec 2.1 `kind`). Shared vocabulary: this folder imports nothing. */
export const keywordKinds = ['brand', 'competitor', 'topic'] as const;
export type KeywordKind = (typeof keywordKinds)[number];
