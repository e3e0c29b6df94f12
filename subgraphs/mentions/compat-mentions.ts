import type postgres from 'postgres';
import { z } from 'zod';
import type { Queryable } from '../../runtime/database.ts';
import { domainError, notFound } from '../domain-error.ts';
import type { PothosBuilder, PothosInputRef, PothosObjectRef } from '../pothos-builder.ts';
import { requireAuth } from '../require-auth.ts';
import type { SubgraphContext } from '../subgraph-server.ts';
import { parseInput } from '../validate-input.ts';
import { deleteCompatFeedbackNote, findCompatFeedbackNote, saveCompatFeedbackNote } from './compat-feedback-store.ts';
import { compatIdOf, objectOfCompatId, objectsOfCompatIds } from './compat-ids.ts';
import { listMentions, type MentionListScope, newestMentions } from './mention-list.ts';
import { readMentionFilter } from './mention-filter-lookups.ts';
import { mentionFilterSql, type NestedCondition } from './mention-filter.ts';
import { findMention, type MentionRow, updateMentions } from './mention-store.ts';
import type { MentionViewRow } from './mention-view-store.ts';
import { patchMention, toggleMentionDone, writeCompatRelevance } from './mention-triage.ts';
import { relevanceBucket, relevanceBucketSql } from './relevance.ts';

/** Compatibility API pages (spec 4.8, 8): 20 mentions by default, 100 at most; an export at most 5,000. */
const compatDefaultPage = 20;
const compatExportLimit = 5_000;
/** At most this many keyword ids in one filter (spec 8). */
const compatMaxKeywordIds = 50;
/** At most this many conditions in an advanced filter's groups together, each read on its own. */
const compatMaxConditions = 50;

const compatKeywordIds = z.array(z.number().int()).max(compatMaxKeywordIds, `at most ${compatMaxKeywordIds} keyword ids`).nullish();

/** How conditions join in a group, and groups in a filter (Octolens's advanced filters). */
const compatOperators = ['AND', 'OR'] as const;

const compatConditionFields = {
  keywordIds: compatKeywordIds,
  notKeywordIds: compatKeywordIds,
  relevance: z.array(z.number().int().min(0, 'must be 0, 1 or 2').max(2, 'must be 0, 1 or 2')).nullish(),
  engaged: z.boolean().nullish(),
  filter: z.record(z.string(), z.unknown()).nullish(),
};

const compatCondition = z.strictObject(compatConditionFields);
type CompatCondition = z.output<typeof compatCondition>;

const compatMentionFilterInput = z.strictObject({
  ...compatConditionFields,
  includeAll: z.boolean().nullish(),
  viewId: z.number().int().nullish(),
  operator: z.enum(compatOperators).nullish(),
  groups: z
    .array(z.strictObject({ operator: z.enum(compatOperators), conditions: z.array(compatCondition).min(1, 'must hold a condition') }))
    .refine((groups) => groups.reduce((all, group) => all + group.conditions.length, 0) <= compatMaxConditions, `at most ${compatMaxConditions} conditions in all groups together`)
    .nullish(),
});

type Fragment = postgres.PendingQuery<postgres.Row[]>;

/** Fragments joined by `and` or `or`, in parentheses. */
const joined = (sql: Queryable, operator: (typeof compatOperators)[number], parts: Fragment[]): Fragment =>
  sql`(${parts.reduce((all, part) => (operator === 'AND' ? sql`${all} and ${part}` : sql`${all} or ${part}`))})`;

/**
 * One condition's list filter (spec 4.3) and the condition only this API
 * has: its integer keyword ids as ours (ids naming no keyword of the
 * workspace match nothing, or leave nothing out), and its relevance
 * buckets and engaged flag.
 */
async function compatClauseOf(ctx: SubgraphContext, input: CompatCondition): Promise<{ filter: Record<string, unknown>; condition: NestedCondition }> {
  const filter: Record<string, unknown> = { ...input.filter };
  if (input.keywordIds) filter.keywordIds = await keywordsOfCompatIds(ctx, input.keywordIds);
  if (input.notKeywordIds?.length) filter.notKeywordIds = await keywordsOfCompatIds(ctx, input.notKeywordIds);
  const conditions: NestedCondition[] = [];
  const { relevance, engaged } = input;
  if (relevance) conditions.push((sql) => sql`${relevanceBucketSql(sql)} = any(${sql.array(relevance)}::int[])`);
  if (engaged !== null && engaged !== undefined) conditions.push((sql) => (engaged ? sql`m.status = 'done'` : sql`m.status <> 'done'`));
  return { filter, condition: (sql) => conditions.reduce((all, condition) => sql`${all} and ${condition(sql)}`, sql`true`) };
}

/**
 * Octolens's advanced filters: each group's conditions joined by the
 * group's operator, the groups by the filter's (AND by default). A
 * condition is a whole filter of its own, read as the list reads one
 * without its defaults.
 */
async function compatGroupsCondition(
  ctx: SubgraphContext,
  operator: (typeof compatOperators)[number],
  groups: { operator: (typeof compatOperators)[number]; conditions: CompatCondition[] }[],
): Promise<NestedCondition> {
  const { workspaceId } = requireAuth(ctx);
  const read = async (input: CompatCondition): Promise<NestedCondition> => {
    const clause = await compatClauseOf(ctx, input);
    const filter = await readMentionFilter(ctx.sql, ctx.keywordDirectory, workspaceId, clause.filter);
    return (sql) => sql`(${mentionFilterSql(sql, filter)} and ${clause.condition(sql)})`;
  };
  const resolved = await Promise.all(groups.map(async (group) => ({ operator: group.operator, conditions: await Promise.all(group.conditions.map(read)) })));
  return (sql) =>
    joined(
      sql,
      operator,
      resolved.map((group) =>
        joined(
          sql,
          group.operator,
          group.conditions.map((condition) => condition(sql)),
        ),
      ),
    );
}

/**
 * The list filter (spec 4.3) and scope a compatibility filter stands for:
 * its integer keyword ids as ours (ids naming no keyword of the workspace
 * match nothing, or leave nothing out), its integer view id as our
 * `viewId` (`not_found` when it names none), relevant mentions unless
 * `includeAll`, and the relevance buckets and engaged flag, which only this
 * API has, as a condition of its own. Snoozing is an inbox matter: these
 * lists show snoozed mentions too.
 */
async function compatListOf(ctx: SubgraphContext, rawFilter: unknown): Promise<{ filter: Record<string, unknown>; scope: MentionListScope }> {
  const input = parseInput(compatMentionFilterInput, rawFilter ?? {});
  const { filter, condition } = await compatClauseOf(ctx, input);
  if (input.viewId !== null && input.viewId !== undefined) filter.viewId = await objectOfCompatId(ctx, 'view', input.viewId, 'View');
  const groups = input.groups?.length ? await compatGroupsCondition(ctx, input.operator ?? 'AND', input.groups) : undefined;
  return {
    filter,
    scope: {
      defaults: input.includeAll ? {} : { relevant: true },
      condition: (sql) => (groups ? sql`${condition(sql)} and ${groups(sql)}` : condition(sql)),
    },
  };
}

/** The keywords of the workspace integer ids name, those deleted since left out. */
async function keywordsOfCompatIds(ctx: SubgraphContext, compatIds: readonly number[]): Promise<string[]> {
  const ids = await objectsOfCompatIds(ctx, 'keyword', compatIds);
  const gone = new Set(await ctx.keywordDirectory.idsOutsideWorkspace(ctx.sql, requireAuth(ctx).workspaceId, ids));
  return ids.filter((id) => !gone.has(id));
}

/** The integer ids of the keywords these filter values name (an id or a list of ids each). */
function compatKeywordIdsOf(ctx: SubgraphContext, values: unknown[]): Promise<number[]> {
  const ids = values.flatMap((value) => (Array.isArray(value) ? value : value === undefined ? [] : [value])).map(String);
  return Promise.all(ids.map((id) => compatIdOf(ctx, 'keyword', id)));
}

const compatIdText = /^[1-9]\d{0,8}$/;

const feedbackSources = ['WEB', 'EMAIL', 'API', 'SLACK'] as const;

const compatFeedbackInput = z.strictObject({
  mentionId: z.string().min(1),
  relevant: z.boolean(),
  reason: z.string().max(1_000, 'at most 1000 characters').nullish(),
  source: z.enum(feedbackSources).nullish(),
});

/**
 * The mention a compatibility path or body names: by the integer id the
 * list gave it, or by its `mm_…` id (Octolens's `sourceId`), since
 * Octolens's clients take either.
 */
async function mentionOfWorkspace(ctx: SubgraphContext, ref: string): Promise<MentionRow> {
  const id = compatIdText.test(ref) ? await objectOfCompatId(ctx, 'mention', Number(ref), 'Mention') : ref;
  const mention = await findMention(ctx.sql, requireAuth(ctx).workspaceId, id);
  if (!mention) throw notFound('Mention');
  return mention;
}

/**
 * The mentions side of the Octolens-compatible API (spec 4.8): integer ids,
 * relevance buckets and writes, the engaged flag (a mention marked done),
 * relevance feedback, and the list and export with its page sizes.
 */
export function addCompatMentionSchema(
  builder: PothosBuilder,
  {
    Mention,
    MentionPage,
    MentionFilter,
    MentionView,
  }: {
    Mention: PothosObjectRef<MentionRow>;
    MentionPage: PothosObjectRef<{ nodes: MentionRow[]; nextCursor: string | null }>;
    MentionFilter: PothosInputRef<Record<string, unknown>>;
    MentionView: PothosObjectRef<MentionViewRow>;
  },
) {
  const CompatFeedback = builder
    .objectRef<{ mention: MentionRow; relevant: boolean }>('CompatFeedback')
    .implement({
      description: "A relevance verdict as the compatibility API's feedback record shows it",
      fields: (t) => ({
        compatId: t.int({ description: 'Integer id of the record, one per mention', resolve: (f, _args, ctx) => compatIdOf(ctx, 'feedback', f.mention.id) }),
        relevant: t.exposeBoolean('relevant'),
        originalRelevanceScore: t.int({
          nullable: true,
          description: "The classifier's own relevance bucket, the verdict aside (0 for 70 and up, 1 for 40 to 69, 2 below); null when it gave no score",
          resolve: (f) => (f.mention.relevance === null ? null : relevanceBucket({ verdictRelevant: null, relevance: f.mention.relevance })),
        }),
        workspaceId: t.id({ resolve: (f) => f.mention.workspaceId }),
        reason: t.string({ nullable: true, resolve: async (f, _args, ctx) => (await findCompatFeedbackNote(ctx.sql, f.mention.id))?.reason ?? null }),
        source: t.string({
          description: 'Where it came from; `WEB` for a verdict given elsewhere than the feedback route',
          resolve: async (f, _args, ctx) => (await findCompatFeedbackNote(ctx.sql, f.mention.id))?.source ?? 'WEB',
        }),
        createdAt: t.field({
          type: 'DateTime',
          nullable: true,
          description: 'When the feedback route recorded it; null for a verdict given elsewhere',
          resolve: async (f, _args, ctx) => (await findCompatFeedbackNote(ctx.sql, f.mention.id))?.createdAt ?? null,
        }),
      }),
    });

  builder.objectFields(Mention, (t) => ({
    compatId: t.int({
      description: 'Integer id of the compatibility API, given when the mention is first shown and never changed',
      resolve: (m, _args, ctx) => compatIdOf(ctx, 'mention', m.id),
    }),
    compatRelevanceScore: t.int({
      description: "Octolens's relevance bucket: 0 for 70 and up, 1 for 40 to 69, 2 below or unscored; a verdict counts as 100 or 0",
      resolve: relevanceBucket,
    }),
    compatAuthorFollowers: t.int({
      nullable: true,
      description: "The author's followers when the platform gave a count; null when it did not (the record's `author.followers` shows 0)",
      resolve: (m) => m.authorFollowers,
    }),
    compatFeedback: t.field({
      type: CompatFeedback,
      nullable: true,
      description: 'The relevance verdict as a feedback record; null without one',
      resolve: (m) => (m.verdictRelevant === null ? null : { mention: m, relevant: m.verdictRelevant }),
    }),
  }));

  builder.objectFields(MentionView, (t) => ({
    compatId: t.int({
      description: 'Integer id of the compatibility API, given when the view is first shown and never changed',
      resolve: (view, _args, ctx) => compatIdOf(ctx, 'view', view.id),
    }),
    compatKeywordIds: t.intList({
      description: "The integer ids of the keywords the view's `keywordId` and `keywordIds` name",
      resolve: (view, _args, ctx) => compatKeywordIdsOf(ctx, [view.filter.keywordId, view.filter.keywordIds]),
    }),
    compatNotKeywordIds: t.intList({
      description: "The integer ids of the keywords the view's `notKeywordIds` name",
      resolve: (view, _args, ctx) => compatKeywordIdsOf(ctx, [view.filter.notKeywordIds]),
    }),
  }));

  const CompatMentionCondition = builder.inputType('CompatMentionCondition', {
    description: 'One condition of an advanced filter group: the integer keyword ids, relevance buckets, engaged flag and the list’s own filters, ANDed',
    fields: (t) => ({
      keywordIds: t.intList(),
      notKeywordIds: t.intList(),
      relevance: t.intList(),
      engaged: t.boolean(),
      filter: t.field({ type: MentionFilter }),
    }),
  });

  const CompatMentionFilterGroup = builder.inputType('CompatMentionFilterGroup', {
    description: 'Conditions joined by `operator`',
    fields: (t) => ({
      operator: t.string({ required: true, description: '`AND` or `OR`' }),
      conditions: t.field({ type: [CompatMentionCondition], required: true }),
    }),
  });

  const CompatMentionFilter = builder.inputType('CompatMentionFilter', {
    description: "The compatibility API's mention filters: its integer keyword ids, relevance buckets and engaged flag, and the list's own filters",
    fields: (t) => ({
      includeAll: t.boolean({ description: 'True: every mention; otherwise relevant ones only' }),
      keywordIds: t.intList({ description: `Integer keyword ids, at most ${compatMaxKeywordIds}` }),
      notKeywordIds: t.intList({ description: `Integer keyword ids to leave out, at most ${compatMaxKeywordIds}` }),
      relevance: t.intList({ description: 'Relevance buckets (0 for 70 and up, 1 for 40 to 69, 2 below or unscored; a verdict counts as 100 or 0)' }),
      engaged: t.boolean({ description: 'True: mentions marked done; false: the rest' }),
      viewId: t.int({ description: "A saved view's integer id: its filters apply too" }),
      filter: t.field({ type: MentionFilter, description: 'Every other filter, as `mentions` takes it' }),
      operator: t.string({ description: '`AND` (default) or `OR`: how `groups` join' }),
      groups: t.field({ type: [CompatMentionFilterGroup], description: "Octolens's advanced filters, on top of the others" }),
    }),
  });

  builder.queryField('compatMentions', (t) =>
    t.field({
      type: MentionPage,
      description: 'Mentions, newest post first (by `timestamp`, as Octolens lists them), relevant ones unless `includeAll`; 20 a page by default, 100 at most',
      args: { first: t.arg.int(), after: t.arg.string(), filter: t.arg({ type: CompatMentionFilter }) },
      resolve: async (_root, args, ctx) => {
        const { filter, scope } = await compatListOf(ctx, args.filter);
        // Octolens lists posts by their timestamp, newest first, whatever a view's own sort.
        return listMentions(ctx.sql, ctx.keywordDirectory, requireAuth(ctx).workspaceId, { filter, sort: 'published', first: args.first ?? compatDefaultPage, after: args.after }, scope);
      },
    }),
  );

  builder.queryField('compatMentionExport', (t) =>
    t.field({
      type: [Mention],
      description: `The ${compatExportLimit} newest posts passing the filter (or \`first\` of them), newest first, relevant ones unless \`includeAll\`; after a list page's cursor when \`after\` is one`,
      args: {
        filter: t.arg({ type: CompatMentionFilter }),
        first: t.arg.int({ description: `1 to ${compatExportLimit} (default)` }),
        after: t.arg.string({ description: "A `compatMentions` page's `nextCursor`: the export starts after that page" }),
      },
      resolve: async (_root, args, ctx) => {
        const first = args.first ?? compatExportLimit;
        if (!Number.isInteger(first) || first < 1 || first > compatExportLimit) {
          throw domainError('validation_error', `limit: must be 1 to ${compatExportLimit}`, { field: 'limit' });
        }
        const { filter, scope } = await compatListOf(ctx, args.filter);
        return newestMentions(ctx.sql, ctx.keywordDirectory, requireAuth(ctx).workspaceId, filter, scope, first, args.after);
      },
    }),
  );

  builder.queryField('compatMention', (t) =>
    t.field({
      type: Mention,
      description: 'One mention by its integer id or its `mm_…` id',
      args: { id: t.arg.id({ required: true }) },
      resolve: (_root, args, ctx) => mentionOfWorkspace(ctx, String(args.id)),
    }),
  );

  builder.mutationField('compatSetMentionSentiment', (t) =>
    t.field({
      type: Mention,
      description: 'A corrected sentiment (`positive`, `neutral` or `negative`); null restores the classifier’s',
      args: { id: t.arg.id({ required: true }), sentiment: t.arg.string() },
      resolve: async (_root, args, ctx) => {
        const mention = await mentionOfWorkspace(ctx, String(args.id));
        return patchMention(ctx.sql, requireAuth(ctx).workspaceId, mention.id, { sentiment: args.sentiment ?? null });
      },
    }),
  );

  builder.mutationField('compatSetMentionRelevance', (t) =>
    t.field({
      type: Mention,
      description: 'A relevance write: 0 or 1 set the score to 100, 2 marks the mention not relevant, 3 restores the classifier’s verdict',
      args: { id: t.arg.id({ required: true }), relevance: t.arg.int({ required: true }) },
      resolve: async (_root, args, ctx) => {
        const write = args.relevance;
        if (write !== 0 && write !== 1 && write !== 2 && write !== 3) {
          throw domainError('validation_error', 'relevance: must be 0, 1, 2 or 3', { field: 'relevance' });
        }
        const mention = await mentionOfWorkspace(ctx, String(args.id));
        return writeCompatRelevance(ctx.sql, requireAuth(ctx).workspaceId, mention.id, write);
      },
    }),
  );

  builder.mutationField('compatToggleMentionEngaged', (t) =>
    t.field({
      type: Mention,
      description: 'Flips the engaged flag: an engaged mention is one marked done, and un-engaging opens it again',
      args: { id: t.arg.id({ required: true }) },
      resolve: async (_root, args, ctx) => {
        const mention = await mentionOfWorkspace(ctx, String(args.id));
        return toggleMentionDone(ctx.sql, requireAuth(ctx).workspaceId, mention.id);
      },
    }),
  );

  const CompatFeedbackInput = builder.inputType('CompatFeedbackInput', {
    fields: (t) => ({
      mentionId: t.id({ required: true }),
      relevant: t.boolean({ required: true }),
      reason: t.string(),
      source: t.string({ description: '`WEB`, `EMAIL`, `API` (default) or `SLACK`' }),
    }),
  });

  builder.mutationField('compatSubmitFeedback', (t) =>
    t.field({
      type: Mention,
      description: 'Records a relevance verdict with its reason; a second one replaces the first',
      args: { input: t.arg({ type: CompatFeedbackInput, required: true }) },
      resolve: async (_root, args, ctx) => {
        const input = parseInput(compatFeedbackInput, args.input);
        const { id } = await mentionOfWorkspace(ctx, input.mentionId);
        const mention = await patchMention(ctx.sql, requireAuth(ctx).workspaceId, id, { relevant: input.relevant });
        await saveCompatFeedbackNote(ctx.sql, mention.id, { reason: input.reason ?? null, source: input.source ?? 'API' });
        return mention;
      },
    }),
  );

  builder.mutationField('compatRemoveFeedback', (t) =>
    t.boolean({
      description: "Withdraws a mention's relevance verdict; true when there was one",
      args: { mentionId: t.arg.id({ required: true }) },
      resolve: async (_root, args, ctx) => {
        const mention = await mentionOfWorkspace(ctx, String(args.mentionId));
        await updateMentions(ctx.sql, mention.workspaceId, [mention.id], { verdictRelevant: null });
        await deleteCompatFeedbackNote(ctx.sql, mention.id);
        return mention.verdictRelevant !== null;
      },
    }),
  );
}
