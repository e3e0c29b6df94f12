import { z } from 'zod';
import { intents, sentiments } from '../../vocabulary/classification-values.ts';
import { platforms } from '../../vocabulary/normalized-post.ts';
import { accountEventNames } from '../billing/index.ts';
import { anyCasePattern } from '../any-case-pattern.ts';
import { domainError } from '../domain-error.ts';
import { isoLanguage, linkHost } from './mention-filter.ts';

export const alertModes = ['instant', 'hourly', 'daily', 'weekly'] as const;
export type AlertMode = (typeof alertModes)[number];
export const weekdays = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;

const list = <Item extends z.ZodType>(item: Item, max: number) => z.array(item).max(max).transform((values) => [...new Set(values)] as z.output<Item>[]);

/** Which mentions a rule sends (spec 2.9); a key left out does not filter. Relevant open mentions only, always. */
export const alertFilterInput = z.strictObject({
  sentiments: list(z.enum(sentiments), sentiments.length).optional(),
  intents: list(z.enum(intents), intents.length).optional().meta({ description: 'A mention with any of these intents passes' }),
  minRelevance: z.number().int().min(0).max(100).optional(),
  languages: list(isoLanguage, 50).optional(),
  automated: z.boolean().optional().meta({ description: 'true: only machine-made posts; false: only human ones' }),
  linkHosts: list(linkHost, 50).optional().meta({ description: 'Posts linking to one of these hosts or their subdomains (`www.` ignored)' }),
  keywordIds: list(z.string().min(1).max(100), 100).optional(),
  platforms: list(z.enum(platforms), platforms.length).optional(),
  mutedAuthors: list(z.string().trim().min(1).max(200), 500).optional().meta({ description: 'Author ids (`aut_…`) or handles never sent' }),
});
export type AlertFilter = z.output<typeof alertFilterInput>;

/**
 * The hour a daily or weekly digest goes out when the rule names none: the
 * spec asks a schedule only of weekly rules (their weekday), so a digest
 * rule made with its mode alone runs, at a working morning hour, as the
 * digests of comparable products do.
 */
export const defaultDigestHour = 9;

/**
 * A weekly rule's day, as its name in any case (`monday`) or as a number,
 * where ISO 8601 (1 Monday … 7 Sunday) and JavaScript (0 Sunday … 6 Saturday)
 * agree: the spec names the field but not its form. Stored and shown as the
 * lowercase name.
 */
const weekdayProblem = `must be one of ${weekdays.join(', ')}, or a whole number 0 to 7 (0 and 7 Sunday, 1 Monday)`;
const weekday = z
  .union([z.string(), z.number()], { error: weekdayProblem })
  .transform((value, ctx) => {
    const day =
      typeof value === 'string'
        ? weekdays.find((name) => name === value.trim().toLowerCase())
        : Number.isInteger(value) && value >= 0 && value <= 7
          ? weekdays[value % 7]
          : undefined;
    if (!day) ctx.addIssue({ code: 'custom', message: weekdayProblem });
    return day ?? z.NEVER;
  })
  .meta({
    description: 'Weekly rules: the day it is sent, `monday` … `sunday` (any case), or 0 to 7 (0 and 7 Sunday, 1 Monday)',
    anyOf: [{ type: 'string', pattern: anyCasePattern(weekdays) }, { type: 'integer', minimum: 0, maximum: 7 }],
  });

const schedule = z.strictObject({
  hour: z
    .number()
    .int()
    .min(0)
    .max(23)
    .optional()
    .meta({ description: `Hour of the day, UTC, at which a daily or weekly digest is sent; default ${defaultDigestHour}` }),
  weekday: weekday.optional(),
});

const eventName = z
  .string()
  .max(60, 'must be at most 60 characters long')
  .regex(/^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$/, 'must be lowercase dotted segments such as mention.matched');

const ruleFields = {
  name: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters long'),
  mode: z.enum(alertModes),
  event: eventName,
  filter: alertFilterInput,
  channelIds: list(z.string().min(1).max(100), 20),
  schedule: schedule.nullable(),
  enabled: z.boolean(),
};

export const createAlertRuleInput = z.strictObject({
  ...ruleFields,
  mode: ruleFields.mode.optional(),
  event: ruleFields.event.optional(),
  filter: ruleFields.filter.optional(),
  channelIds: ruleFields.channelIds.optional(),
  schedule: ruleFields.schedule.optional(),
  enabled: ruleFields.enabled.optional(),
});

export const updateAlertRuleInput = z.strictObject({
  name: ruleFields.name.optional(),
  mode: ruleFields.mode.optional(),
  event: ruleFields.event.optional(),
  filter: ruleFields.filter.optional().meta({ description: 'The whole new filter' }),
  channelIds: ruleFields.channelIds.optional().meta({ description: 'The whole new list' }),
  schedule: ruleFields.schedule.optional(),
  enabled: ruleFields.enabled.optional(),
});

/** The preset events of spec 6.2: the mode and filter an event name brings when the rule does not say otherwise. */
const alertPresets: Record<string, { mode: AlertMode; filter: AlertFilter }> = {
  'mention.matched': { mode: 'instant', filter: {} },
  'mention.high_relevance': { mode: 'instant', filter: { minRelevance: 80 } },
  'mention.negative': { mode: 'instant', filter: { sentiments: ['negative'] } },
  'mention.positive': { mode: 'instant', filter: { sentiments: ['positive'] } },
  'mention.buy_intent': { mode: 'instant', filter: { intents: ['buy_intent'] } },
  'mention.question': { mode: 'instant', filter: { intents: ['question'] } },
  'mention.complaint': { mode: 'instant', filter: { intents: ['complaint'] } },
  'mention.comparison': { mode: 'instant', filter: { intents: ['comparison'] } },
  digest: { mode: 'daily', filter: {} },
};

/**
 * Event names a rule may not take, as spec 6.1 pairs each event with its
 * `data`: `test` carries `{ message }` and an account event its own body, so
 * a rule sending mentions or digests under one of them would be misread by
 * every receiver that branches on `event`.
 */
const serviceEvents = new Set<string>(['test', ...accountEventNames]);

/**
 * The preset an event name brings, if any: looked up among the table's own
 * names only, since `constructor` is a well-formed custom event name that
 * an indexed read answers with `Object`.
 */
const presetOf = (event: string) => (Object.hasOwn(alertPresets, event) ? alertPresets[event] : undefined);

const sendsDigests = (mode: AlertMode) => mode !== 'instant';

/**
 * Whether an event name says its data is digests (true), one mention (false),
 * or neither (undefined), by its first segment: every name under `mention`
 * (spec 6.2's mention events) or `digest`, presets or not, so a receiver
 * that tells the two apart by that segment never gets a digest as a mention.
 */
function eventSendsDigests(event: string): boolean | undefined {
  const namespace = event.split('.')[0];
  return namespace === 'digest' ? true : namespace === 'mention' ? false : undefined;
}

/** The mode a rule takes when a change names `event` but no mode: `current`, unless the event's name says the other kind. */
function modeForEvent(event: string | undefined, current: AlertMode): AlertMode {
  const digests = event === undefined ? undefined : eventSendsDigests(event);
  if (digests === undefined || digests === sendsDigests(current)) return current;
  return digests ? 'daily' : 'instant';
}

/** The refusal of an event a rule of `mode` cannot send under, or undefined when it can. */
function eventProblem(event: string, mode: AlertMode): string | undefined {
  if (serviceEvents.has(event)) return `event: ${event} names the service's own requests (a test send or an account event), not a rule's`;
  const digests = eventSendsDigests(event);
  if (digests !== undefined && digests !== sendsDigests(mode)) {
    return sendsDigests(mode)
      ? `event: ${event} is an instant event, whose data is one mention; a ${mode} rule sends digests`
      : `event: ${event} is a digest event; an instant rule sends one mention at a time`;
  }
  return undefined;
}

/** A rule as stored, every default applied. */
export interface SettledAlertRule {
  name: string;
  mode: AlertMode;
  event: string;
  filter: AlertFilter;
  channelIds: string[];
  scheduleHour: number | null;
  scheduleWeekday: number | null;
  enabled: boolean;
}

/**
 * The filter a rule keeps when a patch names another event and no filter:
 * the keys its old event's preset brought go with that event, so a
 * `mention.negative` rule moved to `mention.positive` does not keep sending
 * negative mentions under the new name (spec 6.2 pairs each preset event
 * with its filter).
 */
function presetKeysDropped(before: SettledAlertRule, event: string | undefined): AlertFilter {
  const old = event !== undefined && event !== before.event ? presetOf(before.event) : undefined;
  if (!old) return before.filter;
  return Object.fromEntries(Object.entries(before.filter).filter(([key]) => !(key in old.filter))) as AlertFilter;
}

/**
 * A whole rule from a create (or a patch over the rule `before`): the
 * event's preset gives the mode and the filter keys left out (an event
 * under `mention` or `digest` the kind of mode), the mode the default event; a daily or weekly digest runs at `defaultDigestHour` unless
 * it says otherwise, and a weekly one must name its weekday
 * (`schedule_required`). An hourly digest runs at the start of every hour
 * (UTC) and takes no schedule.
 */
export function settleAlertRule(input: z.output<typeof updateAlertRuleInput>, before?: SettledAlertRule): SettledAlertRule {
  const preset = input.event ? presetOf(input.event) : undefined;
  const mode = input.mode ?? (input.event && preset ? preset.mode : modeForEvent(input.event, before?.mode ?? 'instant'));
  const event = input.event ?? (before && before.mode === mode ? before.event : mode === 'instant' ? 'mention.matched' : 'digest');
  const filter =
    !before || input.filter !== undefined || input.event !== undefined ? { ...(preset?.filter ?? {}), ...(input.filter ?? (before ? presetKeysDropped(before, input.event) : {})) } : before.filter;
  const schedule = input.schedule === undefined ? (before ? { hour: before.scheduleHour, weekday: before.scheduleWeekday } : null) : input.schedule && { hour: input.schedule.hour, weekday: input.schedule.weekday ? weekdays.indexOf(input.schedule.weekday) : null };
  const refused = input.event === undefined ? undefined : eventProblem(event, mode);
  if (refused) throw domainError('validation_error', refused, { field: 'event' });
  if (mode === 'hourly' && input.schedule) {
    throw domainError('validation_error', 'schedule: an hourly rule runs at the start of every hour (UTC) and takes no schedule', { field: 'schedule' });
  }
  if (mode === 'weekly' && (schedule?.weekday === null || schedule?.weekday === undefined)) {
    throw domainError('schedule_required', 'A weekly rule needs schedule.weekday', { field: 'schedule.weekday' });
  }
  return {
    name: input.name ?? before!.name,
    mode,
    event,
    filter,
    channelIds: input.channelIds ?? before?.channelIds ?? [],
    scheduleHour: mode === 'daily' || mode === 'weekly' ? (schedule?.hour ?? defaultDigestHour) : null,
    scheduleWeekday: mode === 'weekly' ? schedule!.weekday! : null,
    enabled: input.enabled ?? before?.enabled ?? true,
  };
}
