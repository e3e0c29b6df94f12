import type { Queryable, Sql } from '../../runtime/database.ts';
import { domainError, notFound } from '../domain-error.ts';
import type { PothosBuilder, PothosTypes } from '../pothos-builder.ts';
import { requireAuth } from '../require-auth.ts';
import { parseInput } from '../validate-input.ts';
import { type AlertFilter, createAlertRuleInput, settleAlertRule, updateAlertRuleInput, weekdays } from './alert-rule-input.ts';
import type { KeywordDirectory } from '../keyword-directory.ts';
import { WeekdayScalar } from './weekday-scalar.ts';
import { type AlertRuleRow, deleteAlertRule, findAlertRule, insertAlertRule, listAlertRules, updateAlertRule } from './alert-rule-store.ts';

/**
 * A rule filters by keywords of its own workspace only (spec 5.3): an id of
 * another workspace's keyword, or of none, is `not_found` on the field, as
 * a `groupId` of another workspace is when creating a keyword. It runs in
 * the rule's write, before the rule is locked, and holds the keywords the
 * request names until it commits: a keyword deleted meanwhile would
 * otherwise be written into the rule after its delete had made every rule
 * forget it (spec 4.2). Ids the rule already had need no hold: a delete
 * forgets them in the rule's row, after this write if it came first.
 */
const filterKeywordsCheck =
  (keywords: KeywordDirectory, workspaceId: string, keywordIds: readonly string[]) =>
  async (tx: Queryable): Promise<void> => {
    const unknown = await keywords.idsOutsideWorkspace(tx, workspaceId, keywordIds, { hold: true });
    if (unknown.length) throw domainError('not_found', `filter.keywordIds: ${unknown[0]} names no keyword of this workspace`, { field: 'filter.keywordIds' });
  };

/** Creates a rule from a POST /v1/alerts body, every default applied. */
export async function createAlertRule(sql: Sql, keywords: KeywordDirectory, workspaceId: string, rawInput: unknown, now: Date): Promise<AlertRuleRow> {
  const rule = settleAlertRule(parseInput(createAlertRuleInput, rawInput));
  return insertAlertRule(sql, workspaceId, rule, now, filterKeywordsCheck(keywords, workspaceId, rule.filter.keywordIds ?? []));
}

export function addAlertRuleType(builder: PothosBuilder) {
  const AlertFilterType = builder.objectRef<AlertFilter>('AlertFilter').implement({
    description: 'Which relevant open mentions a rule sends; a null key does not filter',
    fields: (t) => ({
      sentiments: t.stringList({ nullable: true, description: 'Any of `positive`, `negative`, `neutral`', resolve: (f) => f.sentiments ?? null }),
      intents: t.stringList({ nullable: true, description: 'Any of `buy_intent`, `question`, `complaint`, `praise`, `comparison`', resolve: (f) => f.intents ?? null }),
      minRelevance: t.int({ nullable: true, description: 'At least this score, 0 to 100', resolve: (f) => f.minRelevance ?? null }),
      languages: t.stringList({ nullable: true, description: 'ISO 639-1 codes', resolve: (f) => f.languages ?? null }),
      automated: t.boolean({ nullable: true, description: 'true: machine-made posts only; false: the rest', resolve: (f) => f.automated ?? null }),
      linkHosts: t.stringList({ nullable: true, description: 'Posts linking to one of these hosts or a subdomain of one', resolve: (f) => f.linkHosts ?? null }),
      keywordIds: t.stringList({ nullable: true, description: 'Mentions of these keywords only', resolve: (f) => f.keywordIds ?? null }),
      platforms: t.stringList({ nullable: true, resolve: (f) => f.platforms ?? null }),
      mutedAuthors: t.stringList({ nullable: true, description: 'Authors whose mentions the rule never sends', resolve: (f) => f.mutedAuthors ?? null }),
    }),
  });

  const AlertSchedule = builder.objectRef<AlertRuleRow>('AlertSchedule').implement({
    fields: (t) => ({
      hour: t.int({ description: 'UTC', resolve: (r) => r.scheduleHour! }),
      weekday: t.string({ nullable: true, description: 'Weekly rules only', resolve: (r) => (r.scheduleWeekday === null ? null : weekdays[r.scheduleWeekday]) }),
    }),
  });

  const AlertRule = builder.objectRef<AlertRuleRow>('AlertRule').implement({
    description: 'Sends matching mentions to channels, instantly or as an hourly, daily or weekly digest (spec 2.9)',
    fields: (t) => ({
      id: t.exposeID('id', { description: 'Format `feed_...`' }),
      name: t.exposeString('name'),
      mode: t.exposeString('mode', { description: '`instant`, `hourly`, `daily` or `weekly`; an hourly digest cannot go to an e-mail channel' }),
      event: t.exposeString('event', {
        description: 'Lowercase name of up to 60 characters in dotted segments; default `mention.matched` for instant rules and `digest` for digests',
      }),
      filter: t.field({ type: AlertFilterType, resolve: (r) => r.filter }),
      channelIds: t.exposeIDList('channelIds', { description: 'The channels it sends to' }),
      schedule: t.field({ type: AlertSchedule, nullable: true, description: 'Daily and weekly digests only', resolve: (r) => (r.scheduleHour === null ? null : r) }),
      enabled: t.exposeBoolean('enabled'),
      lastRunAt: t.expose('lastRunAt', { type: 'DateTime', nullable: true, description: 'Digests: the end of the period the last run covered; null before the first run, which covers the hour, day or week before it' }),
      createdAt: t.expose('createdAt', { type: 'DateTime' }),
    }),
  });

  const AlertFilterInput = builder.inputType('AlertFilterInput', {
    fields: (t) => ({
      sentiments: t.stringList(),
      intents: t.stringList(),
      minRelevance: t.int(),
      languages: t.stringList(),
      automated: t.boolean(),
      linkHosts: t.stringList(),
      keywordIds: t.stringList(),
      platforms: t.stringList(),
      mutedAuthors: t.stringList(),
    }),
  });
  builder.addScalarType('Weekday', WeekdayScalar);
  const AlertScheduleInput = builder.inputType('AlertScheduleInput', {
    fields: (t) => ({ hour: t.int(), weekday: t.field({ type: 'Weekday', description: '`monday` … `sunday`, or 0 to 7 (0 and 7 Sunday, 1 Monday)' }) }),
  });
  const ruleInputFields = (t: PothosSchemaTypes.InputFieldBuilder<PothosSchemaTypes.ExtendDefaultTypes<PothosTypes>, 'InputObject'>) => ({
    name: t.string(),
    mode: t.string(),
    event: t.string(),
    filter: t.field({ type: AlertFilterInput }),
    channelIds: t.idList(),
    schedule: t.field({ type: AlertScheduleInput }),
    enabled: t.boolean(),
  });
  const CreateAlertRuleInput = builder.inputType('CreateAlertRuleInput', { fields: ruleInputFields });
  const UpdateAlertRuleInput = builder.inputType('UpdateAlertRuleInput', { description: 'Omitted fields stay; lists and the filter are replaced whole', fields: ruleInputFields });

  builder.queryField('alertRules', (t) =>
    t.field({
      type: [AlertRule],
      description: "The workspace's alert rules, oldest first",
      resolve: (_root, _args, ctx) => listAlertRules(ctx.sql, requireAuth(ctx).workspaceId),
    }),
  );

  builder.queryField('alertRule', (t) =>
    t.field({
      type: AlertRule,
      args: { id: t.arg.id({ required: true }) },
      resolve: async (_root, args, ctx) => (await findAlertRule(ctx.sql, requireAuth(ctx).workspaceId, String(args.id))) ?? Promise.reject(notFound('Alert rule')),
    }),
  );

  builder.mutationField('createAlertRule', (t) =>
    t.field({
      type: AlertRule,
      args: { input: t.arg({ type: CreateAlertRuleInput, required: true }) },
      resolve: (_root, args, ctx) => createAlertRule(ctx.sql, ctx.keywordDirectory, requireAuth(ctx).workspaceId, args.input, ctx.clock.now()),
    }),
  );

  builder.mutationField('updateAlertRule', (t) =>
    t.field({
      type: AlertRule,
      args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateAlertRuleInput, required: true }) },
      resolve: async (_root, args, ctx) => {
        const workspaceId = requireAuth(ctx).workspaceId;
        const valid = parseInput(updateAlertRuleInput, args.input);
        const updated = await updateAlertRule(
          ctx.sql,
          workspaceId,
          String(args.id),
          (current) => settleAlertRule(valid, current),
          valid.channelIds !== undefined,
          filterKeywordsCheck(ctx.keywordDirectory, workspaceId, valid.filter?.keywordIds ?? []),
        );
        if (!updated) throw notFound('Alert rule');
        return updated;
      },
    }),
  );

  builder.mutationField('deleteAlertRule', (t) =>
    t.field({
      type: 'Boolean',
      args: { id: t.arg.id({ required: true }) },
      resolve: async (_root, args, ctx) => {
        if (!(await deleteAlertRule(ctx.sql, requireAuth(ctx).workspaceId, String(args.id)))) throw notFound('Alert rule');
        return true;
      },
    }),
  );
}
