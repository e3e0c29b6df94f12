import { platforms } from '../../vocabulary/normalized-post.ts';
import { domainError } from '../domain-error.ts';
import type { PothosBuilder, PothosObjectRef } from '../pothos-builder.ts';
import { requireAuth } from '../require-auth.ts';
import { analyticsBucketCount, mentionAnalytics, maxAnalyticsBuckets, type AnalyticsReport } from './analytics.ts';
import { objectsOfCompatIds } from './compat-ids.ts';

const dayMs = 86_400_000;
/** Octolens counts the last 30 days when neither end of the window is given. */
const defaultWindowMs = 30 * dayMs;
/** Octolens's longest window: 365 days. */
const maxWindowDays = 365;

const ourPlatforms = new Set<string>(platforms);

/**
 * Mention counts as the compatibility API's analytics ask for them (spec
 * 4.8): a window whose end is exclusive (default the last 30 days), keyword
 * ids being its integers, tags being intents, and the mentions its lists
 * show by default (relevant ones). Counts over the whole window are the
 * series totals, whatever the bucket; a volume over time reads `totals` in
 * hours or days.
 */
export function addCompatAnalyticsSchema(builder: PothosBuilder, Analytics: PothosObjectRef<AnalyticsReport>) {
  builder.queryField('compatMentionAnalytics', (t) =>
    t.field({
      type: Analytics,
      description: 'Mentions counted by `by` in buckets over a window: `startDate` included, `endDate` not (default the last 30 days); relevant ones unless `relevance` names buckets',
      args: {
        by: t.arg.string({ required: true }),
        bucket: t.arg.string({ description: 'hour, day, week or month (default)' }),
        startDate: t.arg({ type: 'DateTime' }),
        endDate: t.arg({ type: 'DateTime', description: 'Excluded; default now' }),
        keywordIds: t.arg.intList({ description: 'Integer keyword ids; ids naming no keyword count nothing' }),
        platforms: t.arg.stringList({ description: 'Our platform names; one we do not know counts nothing' }),
        intents: t.arg.stringList({ description: 'Mentions with any of these intents; one that is no intent counts nothing' }),
        sentiments: t.arg.stringList({ description: 'Mentions with any of these sentiments (positive, neutral, negative), a corrected one as corrected' }),
        relevance: t.arg.intList({ description: 'Relevance buckets (0 for 70 and up, 1 for 40 to 69, 2 below or unscored); default 0 and 1, the relevant mentions' }),
      },
      resolve: async (_root, args, ctx) => {
        const end = args.endDate ?? ctx.clock.now();
        const start = args.startDate ?? new Date(end.getTime() - defaultWindowMs);
        if (start >= end) throw domainError('validation_error', 'startDate: must be before endDate', { field: 'startDate' });
        if (end.getTime() - start.getTime() > maxWindowDays * dayMs) {
          throw domainError('validation_error', `endDate: the window spans at most ${maxWindowDays} days`, { field: 'endDate' });
        }
        // The window's end is not in it: its last instant is a millisecond before.
        const until = new Date(end.getTime() - 1);
        // The hours the window touches, as the volume's buckets count them: past the most, Octolens's parameter is named.
        const hours = analyticsBucketCount('hour', start, until);
        if (args.bucket === 'hour' && hours > maxAnalyticsBuckets) {
          throw domainError('validation_error', `granularity: hour buckets cover at most ${maxAnalyticsBuckets} hours and this window touches ${hours}; ask for day`, { field: 'granularity' });
        }
        return mentionAnalytics(
          ctx.sql,
          requireAuth(ctx).workspaceId,
          {
            by: args.by,
            bucket: args.bucket ?? 'month',
            since: start,
            until,
            ...(args.keywordIds ? { keywordIds: await objectsOfCompatIds(ctx, 'keyword', args.keywordIds) } : {}),
            ...(args.platforms ? { platforms: args.platforms.filter((name) => ourPlatforms.has(name)) } : {}),
            ...(args.intents ? { intents: args.intents } : {}),
            ...(args.sentiments ? { sentiments: args.sentiments } : {}),
            // Buckets named replace the default, the relevant mentions (buckets 0 and 1).
            ...(args.relevance ? { relevant: null, relevanceBuckets: args.relevance } : {}),
          },
          ctx.clock.now(),
        );
      },
    }),
  );
}
