import { platforms, reviewPlatforms, searchPlatforms } from '../../vocabulary/normalized-post.ts';
import { keywordKinds } from '../../vocabulary/keyword-kinds.ts';
import type { PothosBuilder } from '../pothos-builder.ts';

/** The enums the keyword schema shares; GraphQL values equal the REST strings. */
export function addKeywordEnums(builder: PothosBuilder) {
  return {
    Platform: builder.enumType('Platform', { values: searchPlatforms, description: 'A search platform (spec 1.3)' }),
    PolledPlatform: builder.enumType('PolledPlatform', {
      values: platforms,
      description: 'A platform polled on a schedule: search platforms, review platforms and rss',
    }),
    ReviewPlatform: builder.enumType('ReviewPlatform', { values: reviewPlatforms }),
    KeywordKind: builder.enumType('KeywordKind', { values: keywordKinds }),
    RequiredMode: builder.enumType('RequiredMode', { values: ['any', 'all'] as const }),
    CapPeriod: builder.enumType('CapPeriod', { values: ['day', 'week', 'month'] as const }),
    RepositoryEvent: builder.enumType('RepositoryEvent', { values: ['new', 'traction', 'stars', 'growth'] as const }),
    HealthStatus: builder.enumType('KeywordHealthStatus', {
      values: ['healthy', 'noisy', 'quiet', 'capped', 'paused', 'new'] as const,
    }),
  };
}

export type KeywordEnums = ReturnType<typeof addKeywordEnums>;
