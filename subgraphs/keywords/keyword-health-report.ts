import { platformName } from '../../vocabulary/platform-names.ts';
import { keywordPlatformWindowCounts, workspaceMatchCount } from '../mentions/index.ts';
import { domainError, notFound } from '../domain-error.ts';
import type { PothosBuilder, PothosObjectRef } from '../pothos-builder.ts';
import { requireAuth } from '../require-auth.ts';
import type { SubgraphContext } from '../subgraph-server.ts';
import type { KeywordEnums } from './keyword-graphql-enums.ts';
import { type HealthStatus, judgeKeywordHealth } from './keyword-health.ts';
import { keywordLoaders, sinceKey } from './keyword-loaders.ts';
import { findKeyword, type KeywordRow } from './keyword-store.ts';

const day = 86_400_000;
/** Spec 4.2: the health window defaults to 30 days; 90 bounds the reads. */
const defaultWindowDays = 30;
const maxWindowDays = 90;

interface MatchCounts {
  matches: number;
  relevant: number;
  filtered: number;
  unscored: number;
  /** filtered / (relevant + filtered); null with nothing scored. */
  noiseShare: number | null;
}

export interface KeywordHealthReport {
  keyword: KeywordRow;
  window: { from: string; to: string; days: number };
  status: HealthStatus;
  reasons: string[];
  stats: MatchCounts & {
    workspaceShare: number | null;
    judgedSince: Date | null;
    byPlatform: (MatchCounts & { platform: string })[];
  };
}

const isoDay = (at: Date) => at.toISOString().slice(0, 10);
const share = (part: number, whole: number) => (whole === 0 ? null : part / whole);
const withNoiseShare = <Counts extends Omit<MatchCounts, 'noiseShare'>>(counts: Counts) => ({
  ...counts,
  noiseShare: share(counts.filtered, counts.relevant + counts.filtered),
});

/**
 * The health rule of 2.1.4 over a window that starts at `windowStart`: on
 * the matches since the keyword's last change of rules, platforms or
 * context (or unmute) when that falls inside the window. `stats.health`
 * (14 days) and the health report (`days`) both judge through here.
 */
export async function judgeHealthInWindow(keyword: KeywordRow, ctx: SubgraphContext, windowStart: Date, windowDays: number) {
  const loaders = keywordLoaders(ctx);
  const judgedSince = keyword.judgedSince && keyword.judgedSince > windowStart ? keyword.judgedSince : null;
  const { window: judged } = await loaders.matchCounts.load(sinceKey(keyword.id, judgedSince ?? windowStart));
  // Named rather than spread: a keyword row has 31 columns, and a page of ten copied them all on every request (5% of the keywords subgraph's CPU under `npm run bench -- gateways`).
  const { muted, pausedForBalance, pausedForNoise, pausedForCap, createdAt } = keyword;
  const verdict = judgeKeywordHealth({
    muted, pausedForBalance, pausedForNoise, pausedForCap, createdAt, judgedSince: keyword.judgedSince,
    relevant: judged.relevant, filtered: judged.filtered, windowDays, now: loaders.now,
  });
  return { ...verdict, judgedSince };
}

/** From 00:00 UTC of the window's first day to now: `days` calendar days, today included. */
function healthWindow(now: Date, days: number) {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const start = new Date(today - (days - 1) * day);
  return { start, range: { from: isoDay(start), to: isoDay(now), days } };
}

function contextReasons(stats: KeywordHealthReport['stats']): string[] {
  const reasons: string[] = [];
  // Read by people as they are (the dashboard shows them): a UTC minute and a platform's name, not an ISO instant and an id.
  if (stats.judgedSince) reasons.push(`Judged on matches since ${stats.judgedSince.toISOString().slice(0, 16).replace('T', ' ')} UTC, when its rules last changed.`);
  const noisiest = stats.byPlatform.reduce<(typeof stats.byPlatform)[number] | null>(
    (worst, platform) => (platform.filtered > (worst?.filtered ?? 0) ? platform : worst),
    null,
  );
  if (noisiest) reasons.push(`Most filtered matches came from ${platformName(noisiest.platform)}: ${noisiest.filtered} of ${stats.filtered}.`);
  if (stats.unscored > 0) reasons.push(`${stats.unscored} ${stats.unscored === 1 ? 'match' : 'matches'} not scored yet.`);
  return reasons;
}

/** GET /v1/keywords/{id}/health (spec 2.5): the keyword's status and counts over the last `days` days. */
export async function keywordHealthReport(ctx: SubgraphContext, id: string, days: number = defaultWindowDays): Promise<KeywordHealthReport> {
  if (!Number.isInteger(days) || days < 1 || days > maxWindowDays) {
    throw domainError('validation_error', `days: must be a whole number 1 to ${maxWindowDays}`, { field: 'days' });
  }
  const { workspaceId } = requireAuth(ctx);
  const keyword = await findKeyword(ctx.sql, workspaceId, id);
  if (!keyword) throw notFound('Keyword');
  const window = healthWindow(keywordLoaders(ctx).now, days);
  const [health, platforms, workspaceMatches] = await Promise.all([
    judgeHealthInWindow(keyword, ctx, window.start, days),
    keywordPlatformWindowCounts(ctx.sql, keyword.id, window.start),
    workspaceMatchCount(ctx.sql, workspaceId, window.start),
  ]);
  const sum = (field: 'matches' | 'relevant' | 'filtered' | 'unscored') => platforms.reduce((total, platform) => total + platform[field], 0);
  const totals = withNoiseShare({ matches: sum('matches'), relevant: sum('relevant'), filtered: sum('filtered'), unscored: sum('unscored') });
  const stats = {
    ...totals,
    workspaceShare: share(totals.matches, workspaceMatches),
    judgedSince: health.judgedSince,
    byPlatform: platforms.map(withNoiseShare),
  };
  return { keyword, window: window.range, status: health.status, reasons: [...health.reasons, ...contextReasons(stats)], stats };
}

export function addKeywordHealthReportSchema(builder: PothosBuilder, enums: KeywordEnums, Keyword: PothosObjectRef<KeywordRow>) {
  // Shared by the totals and each platform; typed loosely as the keyword inputs' shared fields are.
  const countFields = (t: any) => ({
    matches: t.exposeInt('matches', { description: 'Matches in the window' }),
    relevant: t.exposeInt('relevant', { description: 'Scored at or above 40, or marked relevant' }),
    filtered: t.exposeInt('filtered', { description: 'Scored under 40; billed like any match' }),
    unscored: t.exposeInt('unscored', { description: 'Not scored yet or failed to score; never billed' }),
    noiseShare: t.exposeFloat('noiseShare', { nullable: true, description: 'filtered / (relevant + filtered); null with nothing scored' }),
  });

  const PlatformHealth = builder.objectRef<KeywordHealthReport['stats']['byPlatform'][number]>('KeywordPlatformHealth').implement({
    description: "The window's matches from one platform",
    fields: (t) => ({ platform: t.field({ type: enums.PolledPlatform, resolve: (counts) => counts.platform as never }), ...countFields(t) }),
  });

  const HealthStats = builder.objectRef<KeywordHealthReport['stats']>('KeywordHealthStats').implement({
    fields: (t) => ({
      ...countFields(t),
      workspaceShare: t.exposeFloat('workspaceShare', {
        nullable: true,
        description: "This keyword's share of the workspace's matches in the window; null when the workspace matched nothing",
      }),
      judgedSince: t.expose('judgedSince', {
        type: 'DateTime',
        nullable: true,
        description: 'When the keyword last changed matching rules, platforms or context (or was unmuted), inside the window',
      }),
      byPlatform: t.field({ type: [PlatformHealth], description: 'Platforms with matches in the window, most matches first', resolve: (stats) => stats.byPlatform }),
    }),
  });

  const HealthWindow = builder.objectRef<KeywordHealthReport['window']>('KeywordHealthWindow').implement({
    fields: (t) => ({
      from: t.exposeString('from', { description: 'First day, YYYY-MM-DD UTC, inclusive' }),
      to: t.exposeString('to', { description: 'Today, YYYY-MM-DD UTC' }),
      days: t.exposeInt('days'),
    }),
  });

  const KeywordHealth = builder.objectRef<KeywordHealthReport>('KeywordHealth').implement({
    description: "A keyword's health over a window of days (spec 2.5)",
    fields: (t) => ({
      keyword: t.field({ type: Keyword, resolve: (report) => report.keyword }),
      window: t.field({ type: HealthWindow, resolve: (report) => report.window }),
      status: t.field({
        type: enums.HealthStatus,
        description: 'As stats.health, over the window; judged on matches since stats.judgedSince when set',
        resolve: (report) => report.status,
      }),
      reasons: t.exposeStringList('reasons', { description: 'The first line explains the status' }),
      stats: t.field({ type: HealthStats, resolve: (report) => report.stats }),
    }),
  });

  builder.queryField('keywordHealth', (t) =>
    t.field({
      type: KeywordHealth,
      args: { id: t.arg.id({ required: true }), days: t.arg.int({ description: 'Window in days, 1 to 90 (default 30)' }) },
      resolve: (_root, args, ctx) => keywordHealthReport(ctx, String(args.id), args.days ?? undefined),
    }),
  );
}
