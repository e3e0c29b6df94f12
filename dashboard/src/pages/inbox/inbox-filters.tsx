import type { InboxChoicesQuery, InboxMentionFragment, InboxMentionsQueryVariables, MentionFilter, MentionPatchInput, MentionSort } from '../../graphql/graphql';
import type { KeywordChoice } from '../../api/keyword-choices';
import { CommitField, SelectField } from '../../ui/fields';
import { intents, sentiments } from '../../../../vocabulary/classification-values.ts';
import { platformNames } from '../../../../vocabulary/platform-names.ts';

/**
 * The inbox's filters live in the URL (`/inbox?keywords=kw_1&platforms=reddit&status=done&sort=priority`),
 * so a view can be bookmarked, shared and restored with the back button. Every filter of the mention list
 * (spec 4.3) has a parameter: its GraphQL name, but `keywords` for `keywordIds` and `alert` for `alertId`.
 * Lists are comma-separated; an absent parameter is the inbox's default: open, relevant, awake mentions,
 * newest first. `view` names the saved view the filters were taken from.
 */
export interface InboxFilters {
  /** Exactly what the list is asked for. */
  filter: ListFilter;
  sort: MentionSort;
  viewId: string | undefined;
}

/** The filters a saved view can hold: every one of the list's but `viewId` (a view names no other view). */
export type ListFilter = Omit<MentionFilter, 'viewId'>;

/** `day`: a UTC date, `YYYY-MM-DD`, as a date input gives it (the list also takes a time, which a bookmark may hold). */
type Kind = 'list' | 'text' | 'flag' | 'count' | 'day';
type GenericField = Exclude<keyof ListFilter, 'status' | 'relevant' | 'snoozed'>;

/** Each generic filter's kind, in the order of the URL's parameters; the type makes it name every filter. */
const kinds: { [field in GenericField]: Kind } = {
  keywordIds: 'list',
  keywordId: 'text',
  notKeywordIds: 'list',
  platforms: 'list',
  platform: 'text',
  notPlatforms: 'list',
  alertId: 'text',
  assigneeId: 'text',
  q: 'text',
  sentiment: 'text',
  sentiments: 'list',
  notSentiments: 'list',
  intent: 'text',
  intents: 'list',
  notIntents: 'list',
  minRelevance: 'count',
  automated: 'flag',
  isReply: 'flag',
  personId: 'text',
  includeMuted: 'flag',
  excludeAuthors: 'list',
  minFollowers: 'count',
  maxFollowers: 'count',
  tags: 'list',
  notTags: 'list',
  linkHosts: 'list',
  notLinkHosts: 'list',
  languages: 'list',
  notLanguages: 'list',
  since: 'day',
  until: 'day',
};
const genericFields = Object.keys(kinds) as GenericField[];
const parameterNames: Partial<Record<GenericField, string>> = { keywordIds: 'keywords', alertId: 'alert' };
const parameter = (field: GenericField) => parameterNames[field] ?? field;

const statuses = ['open', 'done', 'ignored', 'all'] as const;
export type StatusChoice = (typeof statuses)[number];
const list = (value: string | undefined) => (value ? value.split(',').map((item) => item.trim()).filter(Boolean) : []);

function readParameter(kind: Kind, value: string | undefined): unknown {
  if (value === undefined || value === '') return undefined;
  if (kind === 'list') return list(value).length ? list(value) : undefined;
  if (kind === 'flag') return value === 'true' ? true : value === 'false' ? false : undefined;
  if (kind === 'count') return /^\d+$/.test(value) ? Number(value) : undefined;
  return value;
}

export function filtersFromQuery(query: Record<string, string>): InboxFilters {
  const filter: ListFilter = {
    status: (statuses as readonly string[]).includes(query.status) ? (query.status === 'all' ? undefined : query.status) : 'open',
    relevant: query.relevant !== 'false',
    snoozed: query.snoozed === 'true',
  };
  for (const field of genericFields) {
    const value = readParameter(kinds[field], query[parameter(field)]);
    if (value !== undefined) (filter as Record<string, unknown>)[field] = value;
  }
  return { filter, sort: query.sort === 'priority' ? 'priority' : 'newest', viewId: query.view || undefined };
}

export function filtersToSearch({ filter, sort, viewId }: InboxFilters): string {
  const params = new URLSearchParams();
  if (viewId) params.set('view', viewId);
  const write = (field: GenericField) => {
    const value = filter[field];
    if (value === undefined || value === null || (Array.isArray(value) && !value.length)) return;
    params.set(parameter(field), Array.isArray(value) ? value.join(',') : String(value));
  };
  (['keywordIds', 'keywordId', 'notKeywordIds', 'platforms', 'platform', 'notPlatforms'] as const).forEach(write);
  if (filter.status !== 'open') params.set('status', filter.status ?? 'all');
  if (filter.relevant === false) params.set('relevant', 'false');
  if (filter.snoozed === true) params.set('snoozed', 'true');
  genericFields.filter((field) => !params.has(parameter(field))).forEach(write);
  if (sort !== 'newest') params.set('sort', sort);
  const search = params.toString().replace(/%2C/g, ',');
  return search ? `?${search}` : '';
}

/**
 * A saved view's filters and sort as the inbox shows them: what the view
 * leaves out is the list's own default (any status, relevant, awake), which
 * the URL then says where it differs from the inbox's.
 */
export function viewFilters(view: { id: string; filter: Record<string, unknown>; sort: MentionSort }): InboxFilters {
  const filter: ListFilter = { status: undefined, relevant: true, snoozed: false };
  for (const [field, value] of Object.entries(view.filter)) {
    if (value !== null && field !== '__typename') (filter as Record<string, unknown>)[field] = value;
  }
  return { filter, sort: view.sort, viewId: view.id };
}

/** Whether two states of the inbox ask for the same mentions in the same order (the view they came from aside). */
export const sameFilters = (a: InboxFilters, b: InboxFilters) => filtersToSearch({ ...a, viewId: undefined }) === filtersToSearch({ ...b, viewId: undefined });

/** The filter as a saved view stores it: every parameter given, none of the inbox's absent ones. */
export function storedFilter(filter: ListFilter): ListFilter {
  return Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== undefined && !(Array.isArray(value) && !value.length))) as ListFilter;
}

export function queryVariables({ filter, sort }: InboxFilters): InboxMentionsQueryVariables {
  return { first: 50, filter, sort };
}

/**
 * Whether a mention that just arrived belongs in the list as filtered.
 * The filters the page can judge from the card are judged here; relevance
 * once it is scored. With any other filter set (an alert rule's, a
 * follower count, a text search…) only the server can say, so arrivals
 * wait for a refresh.
 */
const judgedHere = new Set(['keywordIds', 'platforms', 'status', 'relevant', 'snoozed']);
export function arrivalFits(mention: InboxMentionFragment, { filter }: InboxFilters): boolean {
  if (Object.entries(filter).some(([field, value]) => value !== undefined && !judgedHere.has(field))) return false;
  if (filter.snoozed) return false;
  if (filter.keywordIds?.length && !filter.keywordIds.includes(mention.keyword.id)) return false;
  if (filter.platforms?.length && !filter.platforms.includes(mention.post.platform)) return false;
  if (filter.status && mention.status !== filter.status) return false;
  return mention.classification?.relevance == null || mention.relevant === filter.relevant;
}

/**
 * Whether a mention stays listed after a triage answer: a status change, a
 * relevance verdict, a snooze or an assignment can take it out of the
 * filtered view, as the server's list would.
 */
export function staysListed(mention: InboxMentionFragment, { filter }: InboxFilters): boolean {
  if (filter.status && mention.status !== filter.status) return false;
  // An unscored mention without a verdict is listed as it arrived (arrivalFits) until its score says.
  const judged = mention.classification?.relevance != null || mention.classification?.feedback?.relevant != null;
  if (judged && filter.relevant !== undefined && filter.relevant !== null && mention.relevant !== filter.relevant) return false;
  const snoozed = !!mention.triage.snoozedUntil && Date.parse(mention.triage.snoozedUntil) > Date.now();
  if (filter.snoozed !== undefined && filter.snoozed !== null && snoozed !== filter.snoozed) return false;
  if (filter.assigneeId && mention.triage.assignee !== filter.assigneeId) return false;
  return true;
}

/** Whether a triage patch will take the mention out of the filtered view, judged before the answer comes (the keyboard moves on at once). */
export function takesOut(mention: InboxMentionFragment, patch: MentionPatchInput, filters: InboxFilters): boolean {
  const { relevant } = filters.filter;
  if (typeof patch.relevant === 'boolean' && relevant !== undefined && relevant !== null && patch.relevant !== relevant) return true;
  return !staysListed({ ...mention, status: patch.status ?? mention.status }, filters);
}

/** Newer first by match time, then by id, as the server breaks ties (its ids ascend in publication order within one poll). */
const newerFirst = (a: { createdAt: string; id: string }, b: { createdAt: string; id: string }) =>
  Date.parse(b.createdAt) - Date.parse(a.createdAt) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/**
 * The list's order, the server's (newest match first, or by priority):
 * mentions that arrive live take their place in it, whatever order they are
 * announced in; the mentions of one poll are announced together, and put
 * first as they came they listed the oldest post on top of "Newest first".
 */
export function sortMentions<T extends { priority: number; createdAt: string; id: string }>(mentions: T[], sort: MentionSort): T[] {
  return [...mentions].sort((a, b) => (sort === 'priority' ? b.priority - a.priority : 0) || newerFirst(a, b));
}

const flagOptions = (yes: string, no: string) => [['', 'Either'], ['true', yes], ['false', no]] as const;

/** The filters beyond the bar's, each with its label: lists are typed comma-separated. */
const moreFields: { field: GenericField; label: string; hint?: string; options?: readonly (readonly [string, string])[] }[] = [
  { field: 'sentiments', label: 'Sentiments', hint: sentiments.join(', ') },
  { field: 'notSentiments', label: 'Not these sentiments' },
  { field: 'intents', label: 'Intents', hint: intents.join(', ') },
  { field: 'notIntents', label: 'Not these intents' },
  { field: 'minRelevance', label: 'Relevance at least' },
  { field: 'minFollowers', label: 'Followers at least' },
  { field: 'maxFollowers', label: 'Followers at most' },
  { field: 'isReply', label: 'Replies', options: flagOptions('Replies and comments only', 'Top-level posts only') },
  { field: 'automated', label: 'Machine-made posts', options: flagOptions('Only machine-made', 'Leave them out') },
  { field: 'includeMuted', label: 'Muted people', options: [['', 'Leave them out'], ['true', 'Include them']] },
  { field: 'languages', label: 'Languages', hint: 'ISO 639-1 codes, e.g. en, de' },
  { field: 'notLanguages', label: 'Not these languages' },
  { field: 'excludeAuthors', label: 'Not these authors', hint: 'Names, @handles or profile URLs' },
  { field: 'tags', label: 'Author tags' },
  { field: 'notTags', label: 'Not these author tags' },
  { field: 'linkHosts', label: 'Linking to hosts' },
  { field: 'notLinkHosts', label: 'Not linking to hosts' },
  { field: 'notPlatforms', label: 'Not these platforms' },
  { field: 'since', label: 'Published since (UTC)', hint: 'From the start of the day' },
  { field: 'until', label: 'Published until (UTC)', hint: 'Through the end of the day' },
  { field: 'personId', label: 'Person id' },
];

const plainDay = (value: string) => value === '' || /^\d{4}-\d\d-\d\d$/.test(value);

/** A field's input type: a day's a date picker, unless the URL holds a time for it, which only text can show. */
function inputType(field: GenericField, value: string): 'number' | 'date' | 'text' {
  if (kinds[field] === 'count') return 'number';
  return kinds[field] === 'day' && plainDay(value) ? 'date' : 'text';
}

const shown = (value: unknown) => (value === undefined || value === null ? '' : Array.isArray(value) ? value.join(', ') : String(value));

export function InboxFilterBar({
  filters,
  choices,
  keywords,
  onChange,
}: {
  filters: InboxFilters;
  choices: InboxChoicesQuery | undefined;
  keywords: KeywordChoice[] | undefined;
  onChange(filters: InboxFilters): void;
}) {
  const { filter } = filters;
  const set = (change: Partial<ListFilter>) => onChange({ ...filters, filter: { ...filter, ...change } });
  const setField = (field: GenericField, typed: string) => set({ [field]: readParameter(kinds[field], kinds[field] === 'list' ? list(typed).join(',') : typed.trim()) });
  const keywordOptions = [['', 'All keywords'], ...(keywords ?? []).map((keyword) => [keyword.id, keyword.term] as const)] as const;
  const alertOptions = [['', 'Any'], ...(choices?.alertRules ?? []).map((rule) => [rule.id, rule.name] as const)] as const;
  const memberOptions = [['', 'Anyone or nobody'], ...(choices?.members ?? []).map((member) => [member.id, member.name] as const)] as const;
  const extra = moreFields.filter(({ field }) => shown(filter[field]) !== '').length;
  return (
    <form class="filters" role="search" aria-label="Filter mentions" onSubmit={(event) => event.preventDefault()}>
      <CommitField label="Search" value={shown(filter.q)} placeholder="Text or author" onCommit={(typed) => setField('q', typed)} />
      <SelectField label="Keyword" value={String(filter.keywordIds?.[0] ?? '')} options={keywordOptions} onChange={(id) => set({ keywordIds: id ? [id] : undefined })} />
      <SelectField
        label="Platform"
        value={filter.platforms?.[0] ?? ''}
        options={[['', 'All platforms'], ...Object.entries(platformNames)] as [string, string][]}
        onChange={(platform) => set({ platforms: platform ? [platform] : undefined })}
      />
      <SelectField
        label="Status"
        value={(filter.status ?? 'all') as StatusChoice}
        options={[['open', 'Open'], ['done', 'Done'], ['ignored', 'Ignored'], ['all', 'Any status']] as const}
        onChange={(status) => set({ status: status === 'all' ? undefined : status })}
      />
      <SelectField
        label="Relevance"
        value={filter.relevant === false ? 'false' : 'true'}
        options={[['true', 'Relevant'], ['false', 'Not relevant or unscored']] as const}
        onChange={(relevant) => set({ relevant: relevant === 'true' })}
      />
      <SelectField
        label="Snoozed"
        value={filter.snoozed ? 'true' : 'false'}
        options={[['false', 'Awake'], ['true', 'Snoozed']] as const}
        onChange={(snoozed) => set({ snoozed: snoozed === 'true' })}
      />
      <SelectField label="Assignee" value={String(filter.assigneeId ?? '')} options={memberOptions} onChange={(assigneeId) => set({ assigneeId: assigneeId || undefined })} />
      <SelectField label="Alert rule" value={String(filter.alertId ?? '')} options={alertOptions} onChange={(alertId) => set({ alertId: alertId || undefined })} />
      <SelectField label="Sort" value={filters.sort} options={[['newest', 'Newest first'], ['priority', 'Priority']] as const} onChange={(sort) => onChange({ ...filters, sort })} />
      <details class="more-filters" open={extra > 0}>
        <summary>More filters{extra ? ` (${extra} set)` : ''}</summary>
        <div class="more-filters-fields">
          {moreFields.map(({ field, label, hint, options }) =>
            options ? (
              <SelectField key={field} label={label} value={shown(filter[field])} options={options} onChange={(typed) => setField(field, typed)} />
            ) : (
              <CommitField
                key={field}
                label={label}
                hint={hint ?? (kinds[field] === 'list' ? 'Comma-separated' : undefined)}
                type={inputType(field, shown(filter[field]))}
                min={kinds[field] === 'count' ? 0 : undefined}
                value={shown(filter[field])}
                onCommit={(typed) => setField(field, typed)}
              />
            ),
          )}
        </div>
      </details>
    </form>
  );
}
