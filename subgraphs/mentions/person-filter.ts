import { z } from 'zod';
import type { Queryable } from '../../runtime/database.ts';
import { domainError } from '../domain-error.ts';
import { parseInput } from '../validate-input.ts';
import { linkHost } from './mention-filter.ts';

/** Outreach stages (spec 2.11.3). */
export const personStages = ['not_contacted', 'contacted', 'replied', 'in_talks', 'customer', 'not_a_fit'] as const;
export type PersonStage = (typeof personStages)[number];

/** `ownerIds` item standing for people nobody owns (spec 4.7). */
export const unowned = 'none';

/**
 * How large a people filter may be: the values of all its lists together.
 * Beyond it a filter is `filter_too_complex` (400), whether it is sent to
 * `GET /v1/people` or saved as a segment: every value is a condition each
 * person of the workspace is checked against.
 */
export const maxFilterValues = 50;

export const ownerId = z.string().trim().min(1).max(100);
export const personSearch = z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters');

const distinct = <Item extends z.ZodType>(item: Item) =>
  z.array(item).transform((values) => [...new Set(values)] as z.output<Item>[]);

/** The filters of the people list (spec 4.7), also what a segment saves; a key left out does not filter. */
export const peopleFilterInput = z.strictObject({
  linkHosts: distinct(linkHost).optional().meta({ description: "People whose profiles link to one of these hosts or their subdomains (`www.` ignored)" }),
  stages: distinct(z.enum(personStages)).optional().meta({ description: 'People at one of these outreach stages' }),
  ownerIds: distinct(ownerId).optional().meta({ description: 'People owned by one of these members (user ids); `none` for unowned people' }),
  automated: z.boolean().optional().meta({ description: 'true: people most of whose classified posts here are machine-made; false: the rest' }),
  q: personSearch.optional().meta({ description: 'A piece of a name or handle of one of their accounts, any case' }),
});
export type PeopleFilter = z.output<typeof peopleFilterInput>;

/** A filter checked field by field, then for its size (`filter_too_complex`). */
export function parsePeopleFilter(raw: unknown): PeopleFilter {
  const filter = parseInput(peopleFilterInput, raw ?? {});
  const values = (filter.linkHosts?.length ?? 0) + (filter.stages?.length ?? 0) + (filter.ownerIds?.length ?? 0);
  if (values > maxFilterValues) {
    throw domainError('filter_too_complex', `The filter holds ${values} values; at most ${maxFilterValues} in all its lists together`);
  }
  return filter;
}

/**
 * Whether the person aliased `pe` counts as automated: more than half of
 * their posts in its workspace that the classifier judged are machine-made
 * (spec 4.7). A post matched by two keywords is one post.
 */
export const personAutomatedSql = (sql: Queryable) => sql`
  (select count(distinct p.id) filter (where m.automated) * 2 > count(distinct p.id) filter (where m.automated is not null)
   from person_accounts pa join posts p on p.author_id = pa.author_id
   join mentions m on m.post_id = p.id and m.workspace_id = pa.workspace_id
   where pa.workspace_id = pe.workspace_id and pa.person_id = pe.id)`;

/** The filter as SQL over the person aliased `pe`; empty filters keep everyone. */
export function peopleFilterSql(sql: Queryable, filter: PeopleFilter) {
  const owners = filter.ownerIds?.filter((id) => id !== unowned) ?? [];
  return sql`
    true
    ${filter.stages?.length ? sql`and pe.stage = any(${sql.array(filter.stages)})` : sql``}
    ${filter.ownerIds?.length
      ? sql`and (pe.owner_id = any(${sql.array(owners)}) ${filter.ownerIds.includes(unowned) ? sql`or pe.owner_id is null` : sql``})`
      : sql``}
    ${filter.linkHosts?.length
      ? sql`and exists (
          select 1 from person_accounts pa join authors a on a.id = pa.author_id
          cross join lateral unnest(a.link_keys) as link(key)
          -- a link key (profile-links.ts) is its host, then the path or query
          cross join lateral (select substring(link.key from '^[^/?]+') as host) linked
          join unnest(${sql.array(filter.linkHosts)}::text[]) as wanted(host)
            on linked.host = wanted.host or linked.host like '%.' || wanted.host
          where pa.workspace_id = pe.workspace_id and pa.person_id = pe.id)`
      : sql``}
    ${filter.q
      ? sql`and exists (
          select 1 from person_accounts pa join authors a on a.id = pa.author_id
          where pa.workspace_id = pe.workspace_id and pa.person_id = pe.id
            and (strpos(lower(a.name), lower(${filter.q})) > 0 or strpos(lower(a.handle), lower(${filter.q.replace(/^@/, '')})) > 0))`
      : sql``}
    ${filter.automated !== undefined ? sql`and ${personAutomatedSql(sql)} = ${filter.automated}` : sql``}`;
}
