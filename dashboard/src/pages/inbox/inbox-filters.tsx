import type { InboxChoicesQuery, InboxMentionFragment, InboxMentionsQueryVariables } from '../../graphql/graphql';
import { SelectField } from '../../ui/fields';
import { platformNames } from '../../../../vocabulary/platform-names.ts';

/**
 * The inbox's filters live in the URL (`/inbox?keywords=kw_1&platforms=reddit&status=open&relevant=true&sort=priority`),
 * so a view can be bookmarked, shared and restored with the back button.
 * Lists are comma-separated; an absent parameter is the default.
 */
export interface InboxFilters {
  keywordIds: string[];
  platforms: string[];
  status: 'open' | 'done' | 'ignored' | 'all';
  relevant: boolean;
  alertId: string | undefined;
  sort: 'newest' | 'priority';
}

const statuses = ['open', 'done', 'ignored', 'all'] as const;
const list = (value: string | undefined) => (value ? value.split(',').filter(Boolean) : []);

export function filtersFromQuery(query: Record<string, string>): InboxFilters {
  return {
    keywordIds: list(query.keywords),
    platforms: list(query.platforms),
    status: (statuses as readonly string[]).includes(query.status) ? (query.status as InboxFilters['status']) : 'open',
    relevant: query.relevant !== 'false',
    alertId: query.alert || undefined,
    sort: query.sort === 'priority' ? 'priority' : 'newest',
  };
}

export function filtersToSearch(filters: InboxFilters): string {
  const params = new URLSearchParams();
  if (filters.keywordIds.length) params.set('keywords', filters.keywordIds.join(','));
  if (filters.platforms.length) params.set('platforms', filters.platforms.join(','));
  if (filters.status !== 'open') params.set('status', filters.status);
  if (!filters.relevant) params.set('relevant', 'false');
  if (filters.alertId) params.set('alert', filters.alertId);
  if (filters.sort !== 'newest') params.set('sort', filters.sort);
  const search = params.toString().replace(/%2C/g, ',');
  return search ? `?${search}` : '';
}

export function queryVariables(filters: InboxFilters): InboxMentionsQueryVariables {
  return {
    first: 50,
    filter: {
      keywordIds: filters.keywordIds.length ? filters.keywordIds : undefined,
      platforms: filters.platforms.length ? filters.platforms : undefined,
      status: filters.status === 'all' ? undefined : filters.status,
      relevant: filters.relevant,
      alertId: filters.alertId,
    },
    sort: filters.sort,
  };
}

/**
 * Whether a mention that just arrived belongs in the list as filtered.
 * Relevance is judged once it is scored; an alert rule's filter only by the
 * server, so with one set, arrivals wait for a refresh.
 */
export function arrivalFits(mention: InboxMentionFragment, filters: InboxFilters): boolean {
  if (filters.alertId) return false;
  if (filters.keywordIds.length && !filters.keywordIds.includes(mention.keyword.id)) return false;
  if (filters.platforms.length && !filters.platforms.includes(mention.post.platform)) return false;
  if (filters.status !== 'all' && mention.status !== filters.status) return false;
  return mention.classification?.relevance == null || mention.relevant === filters.relevant;
}

/**
 * The list's order. The server pages in the order asked for; sorting by
 * priority here again keeps that order (the sort is stable) and puts a
 * mention that arrived live where its priority belongs.
 */
export function sortMentions<T extends { priority: number }>(mentions: T[], sort: InboxFilters['sort']): T[] {
  return sort === 'priority' ? [...mentions].sort((a, b) => b.priority - a.priority) : mentions;
}

export function InboxFilterBar({ filters, choices, onChange }: { filters: InboxFilters; choices: InboxChoicesQuery | undefined; onChange(filters: InboxFilters): void }) {
  const set = (change: Partial<InboxFilters>) => onChange({ ...filters, ...change });
  const keywordOptions = [['', 'All keywords'], ...(choices?.keywords.nodes ?? []).map((keyword) => [keyword.id, keyword.term] as const)] as const;
  const alertOptions = [['', 'Any'], ...(choices?.alertRules ?? []).map((rule) => [rule.id, rule.name] as const)] as const;
  return (
    <form class="filters" role="search" aria-label="Filter mentions" onSubmit={(event) => event.preventDefault()}>
      <SelectField label="Keyword" value={filters.keywordIds[0] ?? ''} options={keywordOptions} onChange={(id) => set({ keywordIds: id ? [id] : [] })} />
      <SelectField
        label="Platform"
        value={filters.platforms[0] ?? ''}
        options={[['', 'All platforms'], ...Object.entries(platformNames)] as [string, string][]}
        onChange={(platform) => set({ platforms: platform ? [platform] : [] })}
      />
      <SelectField
        label="Status"
        value={filters.status}
        options={[['open', 'Open'], ['done', 'Done'], ['ignored', 'Ignored'], ['all', 'Any status']] as const}
        onChange={(status) => set({ status })}
      />
      <SelectField
        label="Relevance"
        value={filters.relevant ? 'true' : 'false'}
        options={[['true', 'Relevant'], ['false', 'Not relevant or unscored']] as const}
        onChange={(relevant) => set({ relevant: relevant === 'true' })}
      />
      <SelectField label="Alert rule" value={filters.alertId ?? ''} options={alertOptions} onChange={(alertId) => set({ alertId: alertId || undefined })} />
      <SelectField
        label="Sort"
        value={filters.sort}
        options={[['newest', 'Newest first'], ['priority', 'Priority']] as const}
        onChange={(sort) => set({ sort })}
      />
    </form>
  );
}
