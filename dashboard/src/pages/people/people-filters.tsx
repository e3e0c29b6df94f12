import type { PeopleFilterInput, PeopleQueryVariables } from '../../graphql/graphql';
import { CommitField, SelectField } from '../../ui/fields';
import { stageLabels } from '../inbox/person-card';

/**
 * The people list's filters (spec 4.7) live in the URL, as the inbox's do:
 * `/people?q=dana&stage=replied&owner=none&automated=false&linkHosts=acme.com&segment=seg_…`.
 * `owner` is a member's user id or `none` for unowned people; `linkHosts` is
 * comma-separated; an absent parameter does not filter.
 */
export interface PeopleFilters {
  q: string;
  stage: string;
  owner: string;
  automated: '' | 'true' | 'false';
  linkHosts: string;
  segment: string;
}

const parameters = ['q', 'stage', 'owner', 'automated', 'linkHosts', 'segment'] as const;

export function filtersFromQuery(query: Record<string, string>): PeopleFilters {
  return {
    q: query.q ?? '',
    stage: query.stage && query.stage in stageLabels ? query.stage : '',
    owner: query.owner ?? '',
    automated: query.automated === 'true' || query.automated === 'false' ? query.automated : '',
    linkHosts: query.linkHosts ?? '',
    segment: query.segment ?? '',
  };
}

export function filtersToSearch(filters: PeopleFilters): string {
  const params = new URLSearchParams();
  for (const name of parameters) if (filters[name]) params.set(name, filters[name]);
  const search = params.toString().replace(/%2C/g, ',');
  return search ? `?${search}` : '';
}

const hosts = (typed: string) => typed.split(',').map((host) => host.trim()).filter(Boolean);

export function queryVariables(filters: PeopleFilters): PeopleQueryVariables {
  const filter: PeopleFilterInput = {};
  if (filters.q) filter.q = filters.q;
  if (filters.stage) filter.stages = [filters.stage];
  if (filters.owner) filter.ownerIds = [filters.owner];
  if (filters.automated) filter.automated = filters.automated === 'true';
  if (hosts(filters.linkHosts).length) filter.linkHosts = hosts(filters.linkHosts);
  return { first: 50, filter, segmentId: filters.segment || undefined };
}

export function PeopleFilterBar({
  filters,
  members,
  segments,
  onChange,
}: {
  filters: PeopleFilters;
  members: readonly { id: string; name: string }[];
  segments: readonly { id: string; name: string }[];
  onChange(filters: PeopleFilters): void;
}) {
  const set = (change: Partial<PeopleFilters>) => onChange({ ...filters, ...change });
  return (
    <form class="filters" role="search" aria-label="Filter people" onSubmit={(event) => event.preventDefault()}>
      <CommitField label="Search" value={filters.q} placeholder="Name or handle" onCommit={(q) => set({ q: q.trim() })} />
      <SelectField
        label="Outreach stage"
        value={filters.stage}
        options={[['', 'Any stage'], ...Object.entries(stageLabels)] as [string, string][]}
        onChange={(stage) => set({ stage })}
      />
      <SelectField
        label="Owner"
        value={filters.owner}
        options={[['', 'Anyone or nobody'], ['none', 'Nobody'], ...members.map((member) => [member.id, member.name] as [string, string])]}
        onChange={(owner) => set({ owner })}
      />
      <SelectField
        label="Machine-made"
        value={filters.automated}
        options={[['', 'Either'], ['true', 'Only machine-made'], ['false', 'Leave them out']] as const}
        onChange={(automated) => set({ automated })}
      />
      <CommitField label="Profile links to" value={filters.linkHosts} placeholder="acme.com" hint="Hosts, comma-separated" onCommit={(typed) => set({ linkHosts: hosts(typed).join(',') })} />
      {segments.length > 0 && (
        <SelectField
          label="Segment"
          value={filters.segment}
          options={[['', 'No segment'], ...segments.map((segment) => [segment.id, segment.name] as [string, string])]}
          onChange={(segment) => set({ segment })}
        />
      )}
    </form>
  );
}
