import type postgres from 'postgres';
import { z } from 'zod';
import { intents, sentiments } from '../../vocabulary/classification-values.ts';
import { platforms } from '../../vocabulary/normalized-post.ts';
import type { Queryable } from '../../runtime/database.ts';
import { domainError } from '../domain-error.ts';
import { queryList } from '../query-list.ts';
import { isStorableInstant } from '../storable-instant.ts';
import { checkInput } from '../validate-input.ts';
import { relevantSql, shownRelevanceSql } from './relevance.ts';

/**
 * The filters of spec 4.3, the one definition of what each means: every
 * parameter is one entry of `mentionFilterParameters` saying how it is
 * written (REST query text, GraphQL input), what it accepts, and its
 * condition as SQL over `mentions m join posts p join authors a`. The list,
 * the CSV export, the live subscriptions (which ask PostgreSQL the same
 * condition about the mentions they are woken for) and the alert rules'
 * filters all go through it, so none can drift from another. Adding a
 * filter is adding an entry.
 */

type Fragment = postgres.PendingQuery<postgres.Row[]>;

/** A condition built elsewhere from a filter of its own (an alert rule's), ready to join a filter's. */
export type NestedCondition = (sql: Queryable) => Fragment;

/** The orders a list can take (spec 2.4 `priority`: the feed can sort by it); each ends on the id, so the order is total. */
export type MentionSort = 'newest' | 'priority';

/** A saved view as a filter uses it: its own filter, its sort, and that filter's condition. */
export interface SavedViewFilter {
  filter: MentionFilter;
  sort: MentionSort;
  condition: NestedCondition;
}

/** What resolving a parameter may look up (an alert rule's filter for `alertId`, a saved view's for `viewId`). */
export interface FilterLookups {
  /** The condition of a rule of the caller's workspace, or undefined when it has none by that id. */
  alertRuleCondition(alertId: string): Promise<NestedCondition | undefined>;
  /** A saved view of the caller's workspace, or undefined when it has none by that id. */
  savedView(viewId: string): Promise<SavedViewFilter | undefined>;
}

/** How a parameter is written: its GraphQL type and the zod schemas of its GraphQL value and of its REST query text. */
interface ParameterKind<Value> {
  graphql: 'ID' | 'String' | '[ID!]' | '[String!]' | 'Boolean' | 'Int';
  /** The GraphQL input value (JSON) to the value conditions read. */
  input: z.ZodType<Value>;
  /** The REST query text (a string, or several for a repeated parameter) to the GraphQL input value. */
  query: z.ZodType;
  list: boolean;
}

interface FilterParameter<Value, Resolved> {
  kind: ParameterKind<Value>;
  description: string;
  /** Turns the value into what the condition needs, when that takes a look-up; throws the domain error of a value naming nothing. */
  resolve?(value: Value, lookups: FilterLookups): Promise<Resolved>;
  condition(sql: Queryable, value: Resolved): Fragment;
}

const parameter = <Value, Resolved = Value>(definition: FilterParameter<Value, Resolved>) => definition;

const unique = <Item>(values: Item[]) => [...new Set(values)];

function one<Value extends string>(item: z.ZodType<Value>, graphql: 'ID' | 'String' = 'String'): ParameterKind<Value> {
  return { graphql, input: item, query: item, list: false };
}

function list<Value extends string>(item: z.ZodType<Value>, graphql: 'ID' | 'String' = 'String'): ParameterKind<Value[]> {
  return {
    graphql: graphql === 'ID' ? '[ID!]' : '[String!]',
    input: z.array(item).transform(unique),
    query: queryList(item as z.ZodType<Value, string>),
    list: true,
  };
}

const flag = (): ParameterKind<boolean> => ({
  graphql: 'Boolean',
  input: z.boolean(),
  query: z.enum(['true', 'false']).transform((value) => value === 'true'),
  list: false,
});

function count(min: number, max: number): ParameterKind<number> {
  const bounded = z.number().int().min(min).max(max);
  return {
    graphql: 'Int',
    input: bounded,
    query: z.string().regex(/^\d{1,10}$/, 'must be a whole number').transform(Number).pipe(bounded),
    list: false,
  };
}

/**
 * ISO 8601 in its extended form: a time with an offset (`2026-11-20T10:00:00Z`,
 * `T10:00+02:00`, `+0200`, `+02`) or a calendar date, which means the whole
 * UTC day (`since` from its start, `until` through its end); or milliseconds
 * since the epoch. A time without an offset is refused: whose clock it means
 * is unknown. A space before the offset is its `+`: a query string written by
 * hand (`?since=2026-11-20T10:00:00+02:00`) decodes an unencoded `+` as a space.
 */
const isoInstant = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+ -]\d{2}(?::?\d{2})?))?$/;

function instantOf(text: string, dateMeans: 'start' | 'end'): Date | undefined {
  const instant = writtenInstantOf(text, dateMeans);
  return instant && isStorableInstant(instant) ? instant : undefined;
}

function writtenInstantOf(text: string, dateMeans: 'start' | 'end'): Date | undefined {
  if (/^\d{1,15}$/.test(text)) return new Date(Number(text));
  const parts = isoInstant.exec(text);
  if (!parts) return undefined;
  const [, year, month, day, hour, minute, second = '00', fraction = '', offset] = parts;
  const dayStart = new Date(`${year}-${month}-${day}T00:00:00Z`);
  if (Number.isNaN(dayStart.getTime()) || dayStart.toISOString().slice(0, 10) !== `${year}-${month}-${day}`) return undefined;
  if (hour === undefined) return dateMeans === 'start' ? dayStart : new Date(dayStart.getTime() + 86_400_000 - 1);
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return undefined;
  const zone = offset === 'Z' ? 'Z' : `${offset.slice(0, 3).replace(' ', '+')}:${offset.slice(3).replace(':', '') || '00'}`;
  if (zone !== 'Z' && (Number(zone.slice(1, 3)) > 23 || Number(zone.slice(4)) > 59)) return undefined;
  return new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}${fraction.slice(0, 4)}${zone}`);
}

const instantMessage = 'must be an ISO 8601 timestamp with an offset such as 2026-11-20T10:00:00Z, a date such as 2026-11-20, or epoch milliseconds';

/** A query parameter's instant as text, as the list's `since` (`start`) or `until` (`end`) reads it. */
export const instantText = (dateMeans: 'start' | 'end') =>
  z
    .string()
    .refine((value) => instantOf(value, dateMeans) !== undefined, { message: instantMessage })
    .meta({ anyOf: [{ format: 'date-time' }, { format: 'date' }, { pattern: '^\\d{1,15}$' }] });

/** The same, read into its instant. */
export const instantParameter = (dateMeans: 'start' | 'end') => instantText(dateMeans).transform((value) => instantOf(value, dateMeans)!);

const instant = (dateMeans: 'start' | 'end'): ParameterKind<Date> => ({ graphql: 'String', input: instantParameter(dateMeans), query: instantText(dateMeans), list: false });

const id = z.string().min(1, 'must not be empty').max(100, 'must be at most 100 characters long');
const platform = z.enum(platforms);
const sentiment = z.enum(sentiments);
const intent = z.enum(intents);
const language = z.string().regex(/^[a-z]{2}$/, 'must be an ISO 639-1 code such as en');

/** A host as the filters compare it: lower case, without `www.` (spec 4.3: `www.` is ignored). */
export const linkHost = z
  .string()
  .trim()
  .toLowerCase()
  .transform((host) => host.replace(/^www\./, ''))
  .pipe(z.string().regex(/^[a-z0-9-]+(\.[a-z0-9-]+)*$/, 'must be a host name such as github.com'))
  .meta({ format: 'hostname' });
export const isoLanguage = language;

/** An author as people write one: a name, a handle (`@ann`, `u/ann`), a profile URL, or Earshot's own `aut_…` id. */
const authorReference = z.string().trim().min(1, 'must not be empty').max(500, 'must be at most 500 characters long');
const tag = z.string().min(1, 'must not be empty').max(100, 'must be at most 100 characters long');

const lower = (sql: Queryable, values: readonly string[]) => sql.array(values.map((value) => value.toLowerCase()));
const effectiveSentiment = (sql: Queryable) => sql`coalesce(m.verdict_sentiment, m.sentiment)`;

/** LIKE's own characters taken literally (`%`, `_` and the escape itself): `q` is a plain substring. */
const likeSubstring = (text: string) => `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;

/**
 * A profile address as people copy it, compared without its scheme, `www.` and
 * trailing slashes: `reddit.com/user/ann` and `http://www.reddit.com/user/ann/`
 * name the profile stored as `https://www.reddit.com/user/ann`.
 */
const bareAddress = (reference: string) => reference.toLowerCase().replace(/^(https?:\/\/)?(www\.)?/, '').replace(/\/+$/, '');

function authorIsOneOf(sql: Queryable, references: readonly string[]): Fragment {
  const handles = references.map((reference) => reference.toLowerCase().replace(/^(@|u\/)/, ''));
  return sql`(a.id = any(${sql.array(references as string[])}) or lower(a.handle) = any(${sql.array(handles)})
    or lower(a.name) = any(${lower(sql, references)})
    or rtrim(regexp_replace(lower(a.url), '^(https?://)?(www\\.)?', ''), '/') = any(${sql.array(references.map(bareAddress))}))`;
}

// `posts.link_domains` holds every link's host and each domain above it
// (`docs.github.com`, `github.com`, `com`), computed by the database from
// `links` (migration 023), so a host matches itself and its subdomains. Each
// mention keeps its post's (074), where its month's index finds it without a
// look-up per linking post in every month. That index holds only mentions with
// links (069): the condition says so, or PostgreSQL could not read it.
const linksToOneOf = (sql: Queryable, hosts: readonly string[]) =>
  sql`(cardinality(m.link_domains) > 0 and m.link_domains && ${sql.array(hosts as string[])}::text[])`;

/**
 * Whether the mention is by a muted person of its workspace: such mentions
 * are never delivered (spec 6.1, 6.3) and stay out of lists, exports and
 * subscriptions unless asked for (4.3 `includeMuted`).
 */
export const mutedPersonSql = (sql: Queryable) => sql`
  exists (select 1 from person_accounts pa join people pe on pe.id = pa.person_id
          where pa.workspace_id = m.workspace_id and pa.author_id = p.author_id and pe.muted)`;

// The person's accounts are few: PostgreSQL finds their posts by author (`posts_by_author`, migration 024) rather
// than testing every mention of the workspace, and the workspace in the pair keeps another workspace's person out.
const byPersonSql = (sql: Queryable, personId: string) => sql`
  (m.workspace_id, p.author_id) in (select pa.workspace_id, pa.author_id from person_accounts pa where pa.person_id = ${personId})`;

export const mentionFilterParameters = {
  keywordId: parameter({ kind: one(id, 'ID'), description: 'Only this keyword', condition: (sql, value) => sql`m.keyword_id = ${value}` }),
  keywordIds: parameter({
    kind: list(id, 'ID'),
    description: 'Any of these keywords',
    condition: (sql, values) => sql`m.keyword_id = any(${sql.array(values)})`,
  }),
  notKeywordIds: parameter({
    kind: list(id, 'ID'),
    description: 'Never these keywords',
    condition: (sql, values) => sql`not (m.keyword_id = any(${sql.array(values)}))`,
  }),
  platform: parameter({ kind: one(platform), description: 'Only this platform', condition: (sql, value) => sql`p.platform = ${value}` }),
  platforms: parameter({
    kind: list(platform),
    description: 'Any of these platforms',
    condition: (sql, values) => sql`p.platform = any(${sql.array(values)})`,
  }),
  notPlatforms: parameter({
    kind: list(platform),
    description: 'Never these platforms',
    condition: (sql, values) => sql`not (p.platform = any(${sql.array(values)}))`,
  }),
  status: parameter({
    kind: one(z.enum(['open', 'done', 'ignored'])),
    description: 'Only this status (`open`, `done`, `ignored`); left out, every status',
    condition: (sql, value) => sql`m.status = ${value}`,
  }),
  relevant: parameter({
    kind: flag(),
    description: 'true: scored relevant (or marked so); false: the rest, unclassified included',
    condition: (sql, value) => (value ? relevantSql(sql) : sql`not ${relevantSql(sql)}`),
  }),
  sentiment: parameter({
    kind: one(sentiment),
    description: 'Only this sentiment (a corrected one counts as corrected)',
    condition: (sql, value) => sql`${effectiveSentiment(sql)} = ${value}`,
  }),
  sentiments: parameter({
    kind: list(sentiment),
    description: 'Any of these sentiments',
    condition: (sql, values) => sql`${effectiveSentiment(sql)} = any(${sql.array(values)})`,
  }),
  notSentiments: parameter({
    kind: list(sentiment),
    description: 'None of these sentiments; a mention not scored yet passes',
    condition: (sql, values) => sql`coalesce(${effectiveSentiment(sql)} <> all(${sql.array(values)}), true)`,
  }),
  intent: parameter({
    kind: one(intent),
    description: 'Mentions with this intent',
    condition: (sql, value) => sql`m.intents && array[${value}]::text[]`,
  }),
  intents: parameter({
    kind: list(intent),
    description: 'Mentions with any of these intents',
    condition: (sql, values) => sql`m.intents && ${sql.array(values)}::text[]`,
  }),
  notIntents: parameter({
    kind: list(intent),
    description: 'Mentions with none of these intents; a mention not scored yet passes',
    condition: (sql, values) => sql`not coalesce(m.intents && ${sql.array(values)}::text[], false)`,
  }),
  automated: parameter({
    kind: flag(),
    description: 'true: machine-made posts only; false: the rest, mentions judged before the flag existed included',
    condition: (sql, value) => sql`coalesce(m.automated, false) = ${value}`,
  }),
  personId: parameter({
    kind: one(id, 'ID'),
    description: "Only this person's mentions, from every account merged into them; implies `includeMuted`",
    condition: (sql, value) => byPersonSql(sql, value),
  }),
  includeMuted: parameter({
    kind: flag(),
    description: 'true: mentions by muted people too; left out or false, they stay out unless `personId` names a person',
    condition: (sql, value) => (value ? sql`true` : sql`not ${mutedPersonSql(sql)}`),
  }),
  assigneeId: parameter({
    kind: one(id, 'ID'),
    description: 'Only mentions assigned to this member (a user id)',
    condition: (sql, value) => sql`m.assignee_id = ${value}`,
  }),
  snoozed: parameter({
    kind: flag(),
    description: 'true: only mentions snoozed now; false: only those awake',
    // Judged by the database's clock, the same for every process and for the snooze the PATCH set.
    condition: (sql, value) => (value ? sql`m.snoozed_until > now()` : sql`(m.snoozed_until is null or m.snoozed_until <= now())`),
  }),
  excludeAuthors: parameter({
    kind: list(authorReference),
    description: 'Never these authors: names, handles (`@ann`, `u/ann`), profile URLs or author ids',
    condition: (sql, values) => sql`not ${authorIsOneOf(sql, values)}`,
  }),
  minRelevance: parameter({
    kind: count(0, 100),
    description: 'At least this relevance score, as the mention shows it; unclassified mentions never pass',
    condition: (sql, value) => sql`${shownRelevanceSql(sql)} >= ${value}`,
  }),
  minFollowers: parameter({
    kind: count(0, 2_000_000_000),
    description: 'Authors with at least this many followers; unknown reach never passes',
    condition: (sql, value) => sql`a.followers >= ${value}`,
  }),
  maxFollowers: parameter({
    kind: count(0, 2_000_000_000),
    description: 'Authors with at most this many followers; unknown reach never passes',
    condition: (sql, value) => sql`a.followers <= ${value}`,
  }),
  isReply: parameter({
    kind: flag(),
    description: 'true: replies and comments only; false: top-level posts only',
    condition: (sql, value) => (value ? sql`p.reply_to is not null` : sql`p.reply_to is null`),
  }),
  alertId: parameter<string, NestedCondition>({
    kind: one(id, 'ID'),
    description: "That alert rule's filter on top (its relevant open mentions); an unknown id is `not_found`",
    async resolve(value, lookups) {
      const condition = await lookups.alertRuleCondition(value);
      if (!condition) throw domainError('not_found', 'Alert rule not found', { field: 'alertId' });
      return condition;
    },
    condition: (sql, nested) => nested(sql),
  }),
  viewId: parameter<string, NestedCondition>({
    kind: one(id, 'ID'),
    description:
      "A saved view's filters on top (and its sort, unless one is given); the other filters given narrow it further, and the list's defaults fill only what neither sets. An unknown id is `not_found`",
    async resolve(value, lookups) {
      const view = await lookups.savedView(value);
      if (!view) throw domainError('not_found', 'View not found', { field: 'viewId' });
      return view.condition;
    },
    condition: (sql, nested) => nested(sql),
  }),
  tags: parameter({
    kind: list(tag),
    description: "Authors carrying any of these tags (exact, case-sensitive)",
    condition: (sql, values) => sql`a.tags && ${sql.array(values)}::text[]`,
  }),
  notTags: parameter({
    kind: list(tag),
    description: 'Authors carrying none of these tags',
    condition: (sql, values) => sql`not (a.tags && ${sql.array(values)}::text[])`,
  }),
  linkHosts: parameter({
    kind: list(linkHost),
    description: 'Posts linking to one of these hosts or a subdomain of it (`www.` ignored); a post with no links never passes',
    condition: (sql, values) => linksToOneOf(sql, values),
  }),
  notLinkHosts: parameter({
    kind: list(linkHost),
    description: 'Posts linking to none of these hosts or their subdomains',
    condition: (sql, values) => sql`not ${linksToOneOf(sql, values)}`,
  }),
  languages: parameter({
    kind: list(language),
    description: 'Posts in any of these languages (ISO 639-1); an unknown language never passes',
    // One language is written as an equality, which PostgreSQL reads from `mentions_by_language` in list order (migration 052); `= any` of one value it does not.
    condition: (sql, values) => (values.length === 1 ? sql`m.language = ${values[0]}` : sql`m.language = any(${sql.array(values)})`),
  }),
  notLanguages: parameter({
    kind: list(language),
    description: 'Posts in none of these languages; an unknown language passes',
    condition: (sql, values) => sql`coalesce(m.language <> all(${sql.array(values)}), true)`,
  }),
  q: parameter({
    kind: one(z.string().min(1, 'must not be empty').max(200, 'must be at most 200 characters long')),
    description: 'A substring of the post text or the author name, case-insensitive; `%` and `_` are taken literally',
    // One condition on the post, so that PostgreSQL can start from the trigram indexes (migration 024) when
    // few posts match, or test each newest mention in turn when many do.
    condition: (sql, value) => sql`(p.text ilike ${likeSubstring(value)}
      or p.author_id = any(array(select id from authors where name ilike ${likeSubstring(value)})))`,
  }),
  since: parameter({
    kind: instant('start'),
    description: 'Published at or after (ISO 8601 or epoch milliseconds; a date alone means its start, 00:00 UTC)',
    condition: (sql, value) => sql`p.published_at >= ${value}`,
  }),
  until: parameter({
    kind: instant('end'),
    description: 'Published at or before (ISO 8601 or epoch milliseconds; a date alone means through its end, UTC)',
    condition: (sql, value) => sql`p.published_at <= ${value}`,
  }),
};

type Parameters = typeof mentionFilterParameters;
export type MentionFilterName = keyof Parameters;
type ValueOf<Name extends MentionFilterName> = Parameters[Name] extends FilterParameter<infer Value, any> ? Value : never;
type ResolvedOf<Name extends MentionFilterName> = Parameters[Name] extends FilterParameter<any, infer Resolved> ? Resolved : never;

/** A filter as parsed: each parameter given, by name. */
export type MentionFilter = { [Name in MentionFilterName]?: ValueOf<Name> };

/** A filter whose look-ups are done (`alertId` holds the rule's filter): what conditions read. */
export type ResolvedMentionFilter = { [Name in MentionFilterName]?: ResolvedOf<Name> };

const names = Object.keys(mentionFilterParameters) as MentionFilterName[];
const entries = Object.entries(mentionFilterParameters) as [MentionFilterName, FilterParameter<unknown, unknown>][];

/** Bounds of a filter's size (spec 7 `filter_too_complex`): items in one list, and in all lists together. */
export const maxFilterListItems = 100;
export const maxFilterItems = 300;

/** The GraphQL input's schema: every parameter optional; null is the same as left out. */
const mentionFilterInput = z.strictObject(
  Object.fromEntries(entries.map(([name, { kind }]) => [name, kind.input.nullish().transform((value) => value ?? undefined)])),
);

/**
 * The REST query parameters of a filter, each as its text: repeated or
 * comma-separated lists, `true`/`false`, whole numbers. Parsed to the
 * GraphQL input; the subgraph checks sizes and values again.
 */
export const mentionFilterQuery = z.object(
  Object.fromEntries(entries.map(([name, { kind, description }]) => [name, kind.query.optional().meta({ description: kind.list ? `${description}; repeatable or comma-separated` : description })])),
);

/**
 * The filter as JSON values (lists as arrays), each parameter described:
 * what a tool listing mentions takes, its JSON Schema read from the input
 * side. Checked here, then sent as the list's query parameters.
 */
export const mentionFilterJson = z.strictObject(
  Object.fromEntries(entries.map(([name, { kind, description }]) => [name, kind.input.optional().meta({ description })])),
);

const jsonOfGraphQL = { ID: z.string(), String: z.string(), '[ID!]': z.array(z.string()), '[String!]': z.array(z.string()), Boolean: z.boolean(), Int: z.number().int() };

/** A filter as stored and shown (a saved view's): each parameter given, as its JSON value (timestamps as ISO 8601). */
export const mentionFilterRecord = z.object(
  Object.fromEntries(entries.map(([name, { kind, description }]) => [name, jsonOfGraphQL[kind.graphql].optional().meta({ description })])),
);

/** Every parameter's GraphQL type and description, for the `MentionFilter` input type. */
export const mentionFilterFields = entries.map(([name, { kind, description }]) => ({ name, graphql: kind.graphql, description }));

/** A field of a filter as errors name it: the parameter, under `at` when the filter is part of a larger input (a view's `filter`). */
const fieldAt = (at: string | undefined, field: string | null) => (at ? (field ? `${at}.${field}` : at) : field);

/** Refuses a filter over the size bounds (`filter_too_complex`), before reading its values. */
function checkFilterSize(raw: unknown, at: string | undefined): void {
  if (raw === null || typeof raw !== 'object') return;
  let total = 0;
  for (const name of names) {
    const value = (raw as Record<string, unknown>)[name];
    if (!mentionFilterParameters[name].kind.list || !Array.isArray(value)) continue;
    if (value.length > maxFilterListItems) {
      throw domainError('filter_too_complex', `${fieldAt(at, name)}: at most ${maxFilterListItems} items`, { field: fieldAt(at, name) });
    }
    total += value.length;
  }
  if (total > maxFilterItems) {
    throw domainError('filter_too_complex', `The filter's lists hold ${total} items; at most ${maxFilterItems} in all`, { field: fieldAt(at, null) });
  }
}

/**
 * A GraphQL `MentionFilter` (or null) to a filter: `filter_too_complex` or
 * `validation_error` naming the parameter, under `at` when given.
 */
export function parseMentionFilter(raw: unknown, at?: string): MentionFilter {
  if (raw === null || raw === undefined) return {};
  checkFilterSize(raw, at);
  const checked = checkInput(mentionFilterInput, raw);
  if (!checked.success) {
    const { field, message } = checked.problems[0];
    throw domainError('validation_error', at ? (field ? `${at}.${message}` : `${at}: ${message}`) : message, { field: fieldAt(at, field) });
  }
  const parsed = checked.data as Record<string, unknown>;
  return Object.fromEntries(Object.entries(parsed).filter(([, value]) => value !== undefined)) as MentionFilter;
}

/** Does each parameter's look-up (an unknown `alertId` is `not_found`). */
export async function resolveMentionFilter(filter: MentionFilter, lookups: FilterLookups): Promise<ResolvedMentionFilter> {
  const resolved: Record<string, unknown> = {};
  for (const [name, definition] of entries) {
    const value = filter[name];
    if (value === undefined) continue;
    resolved[name] = definition.resolve ? await definition.resolve(value, lookups) : value;
  }
  return resolved as ResolvedMentionFilter;
}

/**
 * The filter as one SQL condition over `mentions m join posts p join authors a`.
 * Muted people's mentions stay out unless the filter asks for them
 * (`includeMuted`) or names a person (spec 4.3): the one default every use
 * shares, the list, the export, the subscriptions and the alert rules, so
 * none of them can show what another hides.
 */
export function mentionFilterSql(sql: Queryable, filter: ResolvedMentionFilter): Fragment {
  const applied: ResolvedMentionFilter = { ...filter, includeMuted: filter.includeMuted === true || filter.personId !== undefined };
  return entries.reduce<Fragment>((all, [name, definition]) => {
    const value = applied[name];
    return value === undefined ? all : sql`${all} and ${definition.condition(sql, value)}`;
  }, sql`true`);
}
