import { platforms } from '../../vocabulary/normalized-post.ts';
import { domainError } from '../domain-error.ts';
import type { PothosBuilder, PothosObjectRef } from '../pothos-builder.ts';
import { requireAuth } from '../require-auth.ts';
import { mentionAnalytics, type AnalyticsReport } from './analytics.ts';
import { objectsOfCompatIds } from './compat-ids.ts';

/** Octolens counts the last 30 days when neither end of the window is given. */
const defaultWindowMs = 30 * 86_400_000;

const ourPlatforms = new Set<string>(platforms);

/**
 * Mention counts as the compatibility API's analytics ask for them (spec
 * 4.8): a window whose end is exclusive (default the last 30 days), keyword
 * ids being its integers, and the mentions its lists show by default
 * (relevant ones). The whole window is one count per key: calendar months
 * are summed by the caller from the series totals.
 */
export function addCompatAnalyticsSchema(builder: PothosBuilder, Analytics: PothosObjectRef<AnalyticsReport>) {
  builder.queryField('compatMentionAnalytics', (t) =>
    t.field({
      type: Analytics,
      description: 'Relevant mentions counted by `by` in calendar months over a window: `startDate` included, `endDate` not (default the last 30 days)',
      args: {
        by: t.arg.string({ required: true }),
        startDate: t.arg({ type: 'DateTime' }),
        endDate: t.arg({ type: 'DateTime', description: 'Excluded; default now' }),
        keywordIds: t.arg.intList({ description: 'Integer keyword ids; ids naming no keyword count nothing' }),
        platforms: t.arg.stringList({ description: 'Our platform names; one we do not know counts nothing' }),
      },
      resolve: async (_root, args, ctx) => {
        const end = args.endDate ?? ctx.clock.now();
        const start = args.startDate ?? new Date(end.getTime() - defaultWindowMs);
        if (start >= end) throw domainError('validation_error', 'startDate: must be before endDate', { field: 'startDate' });
        return mentionAnalytics(
          ctx.sql,
          requireAuth(ctx).workspaceId,
          {
            by: args.by,
            bucket: 'month',
            since: start,
            until: new Date(end.getTime() - 1),
            ...(args.keywordIds ? { keywordIds: await objectsOfCompatIds(ctx, 'keyword', args.keywordIds) } : {}),
            ...(args.platforms ? { platforms: args.platforms.filter((name) => ourPlatforms.has(name)) } : {}),
          },
          ctx.clock.now(),
        );
      },
    }),
  );
}
