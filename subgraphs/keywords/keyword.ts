import { type GraphQLResolveInfo, Kind } from 'graphql';
import { capPeriodStart, nextCapPeriodStart, welcomeCap } from '../billing/index.ts';
import { domainError, notFound } from '../domain-error.ts';
import type { PothosBuilder } from '../pothos-builder.ts';
import { requireAuth } from '../require-auth.ts';
import type { SubgraphContext } from '../subgraph-server.ts';
import { findGroup } from './group-store.ts';
import { createKeyword, groupNotFound, type LookbackOfWrite, patchKeyword, removeKeyword } from './keyword-commands.ts';
import type { KeywordEnums } from './keyword-graphql-enums.ts';
import { isNoisy } from './keyword-health.ts';
import { judgeHealthInWindow } from './keyword-health-report.ts';
import { keywordLoaders, listKeywordsPageWithStats, sinceKey } from './keyword-loaders.ts';
import { findKeyword, type KeywordPollRow, type KeywordRow, listKeywordsPage } from './keyword-store.ts';
import { decodeCursor, pageOf, pageSize } from '../cursor-pages.ts';

const day = 86_400_000;

/** Keywords page in creation (id) order: the cursor holds the last one's id. */
const parseKeywordCursor = ([id, ...rest]: string[]) => (rest.length === 0 && /^kw_[0-9a-z]{26}$/.test(id) ? id : undefined);

export async function loadKeyword(ctx: SubgraphContext, id: string): Promise<KeywordRow> {
  const keyword = await findKeyword(ctx.sql, requireAuth(ctx).workspaceId, id);
  if (!keyword) throw notFound('Keyword');
  return keyword;
}

/**
 * A write's look-back, queued through the `lookback` job: the look-back is
 * the first poll of what it reads, the regular ones follow an interval later.
 */
function lookbackOfWrite(ctx: SubgraphContext, now: Date): LookbackOfWrite {
  return {
    firstPollAt: new Date(now.getTime() + ctx.pollIntervalSeconds * 1000),
    send: (tx, lookback) => ctx.sendJob('lookback', lookback, { transaction: tx }),
  };
}

/**
 * Creates a keyword and starts its 30-day look-back (spec 4.2). One the
 * wallet cannot cover a day of starts paused for balance, or with
 * `refuseShortWallet` is not created (`quota_exceeded`).
 */
export async function startKeyword(ctx: SubgraphContext, rawInput: unknown, options: { refuseShortWallet?: boolean } = {}): Promise<KeywordRow> {
  const now = ctx.clock.now();
  const start = { now, lookback: lookbackOfWrite(ctx, now), ...options };
  const { keyword } = await createKeyword(ctx.sql, requireAuth(ctx).workspaceId, rawInput, ctx.sourceReaders, start);
  return keyword;
}

/**
 * Applies a PATCH (spec 4.2) and queues, in its transaction, the look-back
 * of what it added: a new search platform its last 30 days, as a new
 * keyword's (part 8); a new feed its newest matching items; a new app or
 * storefront its last 30 days (2.3). A platform kept, and a rename, look
 * back nothing. What the look-back reads is first polled regularly an
 * interval later, as a new keyword's platforms are: a regular poll due at
 * once would search the same platform again beside the look-back. A PATCH
 * that starts the keyword (an unmute, a noise resume, a cap raised or
 * removed) queues the look-back it was owed while it did not run.
 */
export async function reviseKeyword(ctx: SubgraphContext, workspaceId: string, id: string, rawPatch: unknown): Promise<KeywordRow> {
  const now = ctx.clock.now();
  const { keyword } = await patchKeyword(ctx.sql, workspaceId, id, rawPatch, now, ctx.sourceReaders, lookbackOfWrite(ctx, now));
  return keyword;
}

/** The effective cap of 2.1.1: the welcome cap while on welcome credit, else the user's own. */
async function effectiveCap(keyword: KeywordRow, ctx: SubgraphContext) {
  const loaders = keywordLoaders(ctx);
  const welcome = await loaders.welcome.load(keyword.workspaceId);
  const own = keyword.capMentions;
  if (!welcome && own === null) return null;
  const { mentions, per } = welcome ? welcomeCap : { mentions: own!, per: keyword.capPer ?? 'month' };
  const used = await loaders.chargedItems.load(sinceKey(keyword.id, capPeriodStart(per, loaders.now)));
  return {
    mentions,
    per,
    used,
    welcome,
    own,
    ownPer: own === null ? null : (keyword.capPer ?? 'month'),
    resumesAt: keyword.pausedForCap ? nextCapPeriodStart(per, loaders.now) : null,
  };
}

/** Where the noise and health windows of `stats` start: 14 days back (2.1.4). */
const statsWindowStart = (now: Date) => new Date(now.getTime() - 14 * day);

/** Whether a `keywords` field asks for its nodes' stats, as the gateway writes it (fields named, no fragments). */
const asksForStats = (info: GraphQLResolveInfo) =>
  info.fieldNodes.some((page) =>
    page.selectionSet?.selections.some(
      (nodes) => nodes.kind === Kind.FIELD && nodes.name.value === 'nodes' && nodes.selectionSet?.selections.some((field) => field.kind === Kind.FIELD && field.name.value === 'stats'),
    ),
  );

/** Noise over the last 14 days by match time; health from the last rule change when that is later (2.1.4). */
async function keywordStats(keyword: KeywordRow, ctx: SubgraphContext) {
  const loaders = keywordLoaders(ctx);
  const fourteenDaysAgo = statsWindowStart(loaders.now);
  const [{ totals, window: noise }, health, cost] = await Promise.all([
    loaders.matchCounts.load(sinceKey(keyword.id, fourteenDaysAgo)),
    judgeHealthInWindow(keyword, ctx, fourteenDaysAgo, 14),
    loaders.monthCost.load(keyword.id),
  ]);
  return {
    mentions: totals.mentions,
    relevant: totals.relevant,
    last7d: totals.last7d,
    // The count a cap compares against (2.1.4): the matches and thread comments charged this month, as the ledger holds them
    // (a match is charged, and counts, when scored, in the month it is scored).
    thisMonth: cost.billableMentions + cost.billableComments,
    lastMentionAt: totals.lastMentionAt,
    feedback: { relevant: totals.feedbackRelevant, notRelevant: totals.feedbackNotRelevant },
    noise: {
      scored: noise.relevant + noise.filtered,
      relevant: noise.relevant,
      noisy: isNoisy(noise.relevant, noise.filtered),
    },
    health: health.status,
    cost,
  };
}

type KeywordStatsView = Awaited<ReturnType<typeof keywordStats>>;
type CapView = NonNullable<Awaited<ReturnType<typeof effectiveCap>>>;

export function addKeywordType(builder: PothosBuilder, enums: KeywordEnums) {
  const GroupRef = builder.objectRef<{ id: string; name: string; externalId: string | null; isDefault: boolean }>('GroupRef').implement({
    description: 'The group a keyword belongs to (spec 2.2)',
    fields: (t) => ({
      id: t.exposeID('id', { description: 'Format `grp_...`' }),
      name: t.exposeString('name'),
      externalId: t.exposeString('externalId', { nullable: true, description: "The caller's own id" }),
      isDefault: t.exposeBoolean('isDefault', { description: 'The workspace default group, where a keyword lands when no group is named' }),
    }),
  });

  const KeywordCap = builder.objectRef<CapView>('KeywordCap').implement({
    description: 'Charged items allowed per period (spec 2.1.1)',
    fields: (t) => ({
      mentions: t.exposeInt('mentions', {
        description: 'Charged items allowed per period, 1 to 1,000,000: matched mentions plus thread comments delivered under them, relevant or not, the look-back included',
      }),
      per: t.field({ type: enums.CapPeriod, description: 'Default `month`. UTC periods: day from 00:00, week from Monday 00:00, the calendar month', resolve: (cap) => cap.per }),
      used: t.exposeInt('used', { description: 'Charged items in the current period; the keyword pauses when it reaches `mentions`' }),
      welcome: t.exposeBoolean('welcome', {
        description: 'Set by the service: a workspace on its welcome credit collects at most 200 mentions per keyword per month. The first top-up removes it',
      }),
      own: t.exposeInt('own', {
        nullable: true,
        description: "The user's own cap. With `welcome` true, the cap the keyword gets back at the first top-up (null for none); otherwise equals `mentions`",
      }),
      ownPer: t.field({ type: enums.CapPeriod, nullable: true, description: 'Period of `own` (null when `own` is null); with `welcome` false, equals `per`', resolve: (cap) => cap.ownPer }),
      resumesAt: t.expose('resumesAt', { type: 'DateTime', nullable: true, description: 'While `pausedForCap`: when the next period starts; null otherwise' }),
    }),
  });

  const KeywordComments = builder.objectRef<{ enabled: boolean; maxPerPost: number }>('KeywordComments').implement({
    description: 'Thread comments read under every mention scored relevant (spec 2.1.2); each delivered comment is charged',
    fields: (t) => ({
      enabled: t.exposeBoolean('enabled', { description: 'Default false' }),
      maxPerPost: t.exposeInt('maxPerPost', { description: 'The newest comments read per thread, 1 to 100 (default 20)' }),
    }),
  });

  const KeywordFeed = builder.objectRef<{ url: string; title: string | null; connectedAt: Date }>('KeywordFeed').implement({
    fields: (t) => ({
      url: t.exposeString('url', { description: 'The feed after redirects' }),
      title: t.exposeString('title', { nullable: true, description: "The feed's title; null when it has none" }),
      connectedAt: t.expose('connectedAt', { type: 'DateTime', description: 'Nothing published before it is a live mention' }),
    }),
  });

  const ReviewSource = builder
    .objectRef<{ platform: 'appstore' | 'googleplay' | 'trustpilot' | 'googlemaps'; sourceId: string; url: string; countries: string[]; language: string | null; connectedAt: Date }>('ReviewSource')
    .implement({
      description: 'A review source of a keyword (spec 2.3)',
      fields: (t) => ({
        platform: t.field({ type: enums.ReviewPlatform, resolve: (source) => source.platform }),
        id: t.exposeString('sourceId', { description: 'App id, package name, company domain, Place ID or cid' }),
        url: t.exposeString('url', { description: 'The review page' }),
        countries: t.exposeStringList('countries', { description: 'Lowercase two-letter storefront codes; empty for `trustpilot` and `googlemaps`' }),
        language: t.exposeString('language', { nullable: true, description: 'Review language for `googleplay`; null elsewhere' }),
        connectedAt: t.expose('connectedAt', { type: 'DateTime', description: 'When collection started' }),
      }),
    });

  const Subreddits = builder.objectRef<{ only: string[]; excluded: string[] }>('SubredditRules').implement({
    description: 'Subreddit lists, stored bare and lowercase; the workspace filters still apply',
    fields: (t) => ({
      only: t.exposeStringList('only', { description: 'When non-empty, posts from these subreddits only, and `excluded` is ignored' }),
      excluded: t.exposeStringList('excluded', { description: 'Posts from these subreddits are dropped' }),
    }),
  });
  const Repositories = builder
    .objectRef<{ events: string[]; minStars: number | null; minWeeklyStars: number | null }>('RepositoryRules')
    .implement({
      description: 'Code-hosting repository events (spec 2.1.3); an event outside the rule is dropped before storage and never billed',
      fields: (t) => ({
        events: t.field({ type: [enums.RepositoryEvent], description: 'Default `traction`, `stars`, `growth`; empty means none', resolve: (rules) => rules.events as never }),
        minStars: t.exposeInt('minStars', { nullable: true, description: '0 to 1,000,000, or null for none' }),
        minWeeklyStars: t.exposeInt('minWeeklyStars', {
          nullable: true,
          description: '25 to 1,000,000, or null: applies to every event, and a repository whose last week is unknown does not pass',
        }),
      }),
    });

  const KeywordMatching = builder.objectRef<KeywordRow>('KeywordMatching').implement({
    description: 'Matching rules (spec 2.1.3)',
    fields: (t) => ({
      requiredTerms: t.exposeStringList('requiredTerms', { description: 'The post must also contain them (any or all per `requiredMode`); empty means no requirement' }),
      requiredMode: t.field({ type: enums.RequiredMode, description: '`any`: at least one required term appears; `all`: every one appears', resolve: (k) => k.requiredMode }),
      excludedTerms: t.exposeStringList('excludedTerms', { description: 'A post containing any is dropped; a `*` at the start or end of an entry is a wildcard' }),
      excludedAuthors: t.exposeStringList('excludedAuthors', { description: 'Profile or post links, @handles, u/names, DIDs or display names, in canonical form' }),
      caseSensitive: t.exposeBoolean('caseSensitive', { description: 'Default false' }),
      exactPhrase: t.exposeBoolean('exactPhrase', {
        description:
          'Default false. When false a multi-word keyword also matches its words close together in any order, with plurals and spelling variants; such a match is kept and billed only when scored relevant',
      }),
      subreddits: t.field({ type: Subreddits, resolve: (k) => ({ only: k.subredditsOnly, excluded: k.subredditsExcluded }) }),
      repositories: t.field({
        type: Repositories,
        resolve: (k) => ({ events: k.repositoryEvents, minStars: k.repositoryMinStars, minWeeklyStars: k.repositoryMinWeeklyStars }),
      }),
    }),
  });

  const KeywordCost = builder.objectRef<KeywordStatsView['cost']>('KeywordCost').implement({
    description: "This calendar month's cost at list price, equal to the keyword's usage breakdown row",
    fields: (t) => ({
      keywordDays: t.exposeInt('keywordDays', { description: 'Days charged this month (0 for a keyword created today until the next daily tick)' }),
      keywordCents: t.exposeInt('keywordCents', { description: 'Keyword days at 500/30 cents a day, rounded once' }),
      billableMentions: t.exposeInt('billableMentions'),
      mentionCents: t.exposeInt('mentionCents', { description: 'Billable mentions at 0.8 cents each, rounded once' }),
      billableComments: t.exposeInt('billableComments'),
      commentCents: t.exposeInt('commentCents', { description: 'Billable comments at 0.8 cents each, rounded once' }),
      totalCents: t.exposeInt('totalCents', { description: 'The sum of the three cents figures' }),
    }),
  });

  const KeywordStats = builder.objectRef<KeywordStatsView>('KeywordStats').implement({
    description: 'Counts over real matches and charges (spec 2.1.4)',
    fields: (t) => ({
      mentions: t.exposeInt('mentions', { description: 'Every match ever, relevant or not (the number billing counts)' }),
      relevant: t.exposeInt('relevant', { description: 'Matches scored at or above the relevance threshold (40)' }),
      last7d: t.exposeInt('last7d', { description: 'Matches published in the last 7 days' }),
      thisMonth: t.exposeInt('thisMonth', { description: 'Matches this calendar month (UTC) plus delivered thread comments: the count a cap compares against' }),
      lastMentionAt: t.expose('lastMentionAt', { type: 'DateTime', nullable: true, description: 'Newest matched post' }),
      feedback: t.field({
        type: builder.objectRef<{ relevant: number; notRelevant: number }>('KeywordFeedbackCounts').implement({
          description: 'User verdicts on the keyword’s mentions',
          fields: (f) => ({ relevant: f.exposeInt('relevant'), notRelevant: f.exposeInt('notRelevant') }),
        }),
        resolve: (stats) => stats.feedback,
      }),
      noise: t.field({
        type: builder.objectRef<{ scored: number; relevant: number; noisy: boolean }>('KeywordNoise').implement({
          description: 'Over the last 14 days by match time',
          fields: (f) => ({
            scored: f.exposeInt('scored'),
            relevant: f.exposeInt('relevant'),
            noisy: f.exposeBoolean('noisy', { description: 'True at 20 or more scored matches with under 30% relevant' }),
          }),
        }),
        resolve: (stats) => stats.noise,
      }),
      health: t.field({
        type: enums.HealthStatus,
        description:
          'Judged over 14 days, on matches since the last change of matching rules, platforms or context (or unmute) inside them: `paused` if muted; `capped` if at cap; `noisy` at 20 or more scored matches and under 30% relevant; `new` if under 7 days old and not noisy, or changed in the last 7 days with under 20 scored matches since; `quiet` if 7 days or older with nothing relevant; else `healthy`',
        resolve: (stats) => stats.health,
      }),
      cost: t.field({ type: KeywordCost, resolve: (stats) => stats.cost }),
    }),
  });

  const KeywordPolling = builder.objectRef<KeywordPollRow>('KeywordPolling').implement({
    description: 'The schedule of one platform polled for a keyword (spec 2.1 `polling`)',
    fields: (t) => ({
      platform: t.field({ type: enums.PolledPlatform, resolve: (poll) => poll.platform as never }),
      lastPolledAt: t.expose('lastPolledAt', {
        type: 'DateTime',
        nullable: true,
        description: 'The last poll that read the platform; a failed poll does not move it, because the next poll reads from here',
      }),
      emptyPolls: t.exposeInt('emptyPolls', { description: 'Polls in a row that found nothing; each doubles the wait, up to 32 base intervals (30 s at most when the base interval is under 30 s)' }),
      lastError: t.exposeString('lastError', {
        nullable: true,
        description: 'Why the last poll failed (each failure in a row doubles the wait), or why the platform is not polled (a setting the server lacks); null once a poll succeeds',
      }),
      lastErrorAt: t.expose('lastErrorAt', { type: 'DateTime', nullable: true, description: 'When `lastError` happened; null with it' }),
    }),
  });

  const Keyword = builder.objectRef<KeywordRow>('Keyword').implement({
    description: 'A tracked term (spec 2.1)',
    fields: (t) => ({
      id: t.exposeID('id', { description: 'Format `kw_...`' }),
      term: t.exposeString('term', { description: '2 to 80 characters on write; a term sent in double quotes sets `matching.exactPhrase`' }),
      kind: t.field({ type: enums.KeywordKind, description: 'Can be changed after creation', resolve: (k) => k.kind }),
      muted: t.exposeBoolean('muted', {
        description: 'Not polled or matched. Set by the user, by the wallet (`pausedForBalance`) or by the noise brake (`pausedForNoise`); a keyword at its cap is not muted',
      }),
      pausedForBalance: t.exposeBoolean('pausedForBalance', { description: 'Muted by the wallet for lack of balance; a top-up resumes it, and unmuting by hand needs balance too' }),
      pausedForNoise: t.exposeBoolean('pausedForNoise', {
        description:
          'Muted by the noise brake (welcome credit, at least 20 scored matches, under 30% relevant). A change of required or excluded terms, platforms or context, or unmuting, resumes it; a top-up does not',
      }),
      pausedForCap: t.exposeBoolean('pausedForCap', {
        description: 'At its mention cap: not matched until the next period starts (UTC) or the cap is raised. Not muted; keeps its daily keyword charge',
      }),
      cap: t.field({ type: KeywordCap, nullable: true, description: 'Null means no cap', resolve: (k, _args, ctx) => effectiveCap(k, ctx) }),
      comments: t.field({ type: KeywordComments, resolve: (k) => ({ enabled: k.commentsEnabled, maxPerPost: k.commentsMaxPerPost }) }),
      group: t.field({
        type: GroupRef,
        // A keyword read just before its group was deleted names a group that is gone (a PATCH's answer, read after it
        // committed, while the delete waited for it): the delete moved the keyword to the default group in the same
        // transaction, so its group is read again through the keyword. One deleted meanwhile as well has none to show.
        resolve: async (k, _args, ctx) => {
          const loaders = keywordLoaders(ctx);
          const group = (await loaders.group.load(k.groupId)) ?? (await loaders.currentGroup.load(k.id));
          if (!group) throw domainError('group_changed', "The keyword and its group were deleted meanwhile; read the keyword again");
          return group;
        },
      }),
      platforms: t.field({ type: [enums.Platform], nullable: true, description: 'Null means every search platform; `[]` means none (reviews only)', resolve: (k) => k.platforms as never }),
      feeds: t.field({ type: [KeywordFeed], description: 'RSS or Atom feeds read for the keyword', resolve: (k, _args, ctx) => keywordLoaders(ctx).feeds.load(k.id) }),
      reviewSources: t.field({ type: [ReviewSource], resolve: (k, _args, ctx) => keywordLoaders(ctx).reviewSources.load(k.id) }),
      context: t.exposeString('context', {
        nullable: true,
        description: "At most 300 characters: a sentence the classifier reads for this keyword only, on top of the company profile or the group's description",
      }),
      matching: t.field({ type: KeywordMatching, resolve: (k) => k }),
      stats: t.field({ type: KeywordStats, resolve: (k, _args, ctx) => keywordStats(k, ctx) }),
      polling: t.field({
        type: [KeywordPolling],
        description: 'Per platform polled on a schedule; live feeds (`bluesky`) have no entry',
        resolve: (k, _args, ctx) => keywordLoaders(ctx).polls.load(k.id),
      }),
      createdAt: t.expose('createdAt', { type: 'DateTime' }),
      updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When the keyword’s settings last changed (its creation until then)' }),
    }),
  });

  builder.asEntity(Keyword, {
    key: builder.selection<{ id: string }>('id'),
    resolveReference: async (ref, ctx) => (await keywordLoaders(ctx).keyword.load(ref.id)) ?? null,
  });

  const KeywordPage = builder.objectRef<{ nodes: KeywordRow[]; nextCursor: string | null }>('KeywordPage').implement({
    description: 'A page of keywords, oldest first; pass `nextCursor` as `after` for the next page',
    fields: (t) => ({
      nodes: t.field({ type: [Keyword], resolve: (page) => page.nodes }),
      nextCursor: t.exposeString('nextCursor', { nullable: true }),
    }),
  });

  builder.queryField('keyword', (t) =>
    t.field({ type: Keyword, args: { id: t.arg.id({ required: true }) }, resolve: (_root, args, ctx) => loadKeyword(ctx, String(args.id)) }),
  );

  builder.queryField('keywords', (t) =>
    t.field({
      type: KeywordPage,
      args: {
        first: t.arg.int({ description: '1 to 100, default 50' }),
        after: t.arg.string({ description: 'The `nextCursor` of the previous page' }),
        groupId: t.arg.id(),
      },
      resolve: async (_root, args, ctx, info) => {
        const limit = pageSize(args.first);
        const after = args.after ? decodeCursor(args.after, parseKeywordCursor) : null;
        const { workspaceId } = requireAuth(ctx);
        const groupId = args.groupId ? String(args.groupId) : null;
        if (groupId && !(await findGroup(ctx.sql, workspaceId, groupId))) throw groupNotFound();
        const rows = asksForStats(info)
          ? await listKeywordsPageWithStats(ctx, workspaceId, { after, groupId }, limit, statsWindowStart(keywordLoaders(ctx).now))
          : await listKeywordsPage(ctx.sql, workspaceId, { after, limit: limit + 1, groupId });
        return pageOf(rows, limit, (keyword) => [keyword.id]);
      },
    }),
  );

  return { Keyword, GroupRef };
}

export function addKeywordMutations(builder: PothosBuilder, Keyword: ReturnType<typeof addKeywordType>['Keyword'], inputs: { CreateKeywordInput: any; KeywordPatchInput: any }) {
  builder.mutationField('createKeyword', (t) =>
    t.field({
      type: Keyword,
      description: 'Creates a keyword; it starts collecting at once with a 30-day look-back',
      args: { input: t.arg({ type: inputs.CreateKeywordInput, required: true }) },
      resolve: (_root, args, ctx) => startKeyword(ctx, args.input),
    }),
  );
  builder.mutationField('updateKeyword', (t) =>
    t.field({
      type: Keyword,
      description: 'PATCH semantics: omitted fields stay, lists are replaced, null clears. A platform, feed or review source added looks back 30 days; a rename does not',
      args: { id: t.arg.id({ required: true }), input: t.arg({ type: inputs.KeywordPatchInput, required: true }) },
      resolve: (_root, args, ctx) => reviseKeyword(ctx, requireAuth(ctx).workspaceId, String(args.id), args.input),
    }),
  );
  builder.mutationField('deleteKeyword', (t) =>
    t.field({
      type: 'ID',
      description: 'Deletes a keyword and its mentions; returns its id',
      args: { id: t.arg.id({ required: true }) },
      resolve: async (_root, args, ctx) => {
        await removeKeyword(ctx.sql, requireAuth(ctx).workspaceId, String(args.id));
        return String(args.id);
      },
    }),
  );
}
