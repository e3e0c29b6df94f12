import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso/router';
import { execute } from '../../api/graphql-client';
import { useAction, useQuery } from '../../api/use-query';
import { graphql } from '../../graphql';
import type { PeopleQuery } from '../../graphql/graphql';
import { count, counted } from '../../ui/format';
import { ErrorNotice, Loading } from '../../ui/notice';
import { PageHeader } from '../../ui/page';
import { RelativeTime } from '../../ui/relative-time';
import { AccountLinks, PersonCard, stageLabels } from '../inbox/person-card';
import { filtersFromQuery, filtersToSearch, PeopleFilterBar, queryVariables } from './people-filters';

const PeopleDocument = graphql(`
  query People($first: Int, $after: String, $filter: PeopleFilterInput, $segmentId: ID) {
    people(first: $first, after: $after, filter: $filter, segmentId: $segmentId) {
      nodes {
        id
        name
        handle
        muted
        automated
        accounts { id platform handle url }
        mentions { total relevant }
        lastMention { id post { publishedAt } }
        outreach { owner stage lastContactAt }
      }
      nextCursor
    }
  }
`);

const PeopleChoicesDocument = graphql(`
  query PeopleChoices {
    members { id name }
    segments { id name }
  }
`);

type Person = PeopleQuery['people']['nodes'][number];

/**
 * The workspace's people (authors merged across their accounts, spec 2.11.3),
 * newest first, filtered as `people` is (spec 4.7) and by a saved segment:
 * each with their accounts, mention counts, outreach and a link to their
 * mentions; their person card (stage, owner, contacts) opens in place.
 */
export default function PeoplePage() {
  const { query, route } = useLocation();
  const filters = filtersFromQuery(query);
  const variables = queryVariables(filters);
  const list = useQuery(PeopleDocument, variables);
  const choices = useQuery(PeopleChoicesDocument, {});
  // Pages after the first, read on request; a new answer to the first page starts the list again.
  const [later, setLater] = useState<PeopleQuery['people']>();
  useEffect(() => setLater(undefined), [list.data]);
  const nextCursor = later ? later.nextCursor : list.data?.people.nextCursor;
  const showMore = useAction(async () => {
    const { people } = await execute(PeopleDocument, { ...variables, after: nextCursor });
    setLater((shown) => ({ nodes: [...(shown?.nodes ?? []), ...people.nodes], nextCursor: people.nextCursor }));
  });
  const [outreach, setOutreach] = useState<Record<string, Person['outreach']>>({});
  const people = [...(list.data?.people.nodes ?? []), ...(later?.nodes ?? [])];
  const members = choices.data?.members ?? [];
  const filtered = filtersToSearch(filters) !== '';

  return (
    <>
      <PageHeader title="People" />
      <PeopleFilterBar filters={filters} members={members} segments={choices.data?.segments ?? []} onChange={(next) => route(`/people${filtersToSearch(next)}`)} />
      <ErrorNotice error={list.error ?? choices.error ?? showMore.error} />
      {!list.data ? (
        <Loading label="Loading people" />
      ) : people.length === 0 ? (
        <p class="empty">{filtered ? 'No people match these filters.' : 'No people yet: the authors of your mentions appear here as they are found.'}</p>
      ) : (
        <div class="mention-list" aria-label="People">
          {people.map((person) => (
            <PersonRow
              key={person.id}
              person={{ ...person, outreach: outreach[person.id] ?? person.outreach }}
              ownerName={members.find((member) => member.id === (outreach[person.id] ?? person.outreach).owner)?.name}
              onOutreach={(changed) => setOutreach((all) => ({ ...all, [person.id]: changed }))}
            />
          ))}
        </div>
      )}
      {nextCursor && (
        <button type="button" class="secondary load-more" disabled={showMore.busy} onClick={() => void showMore.run()}>
          {showMore.busy ? 'Loading…' : 'Show more people'}
        </button>
      )}
    </>
  );
}

function PersonRow({ person, ownerName, onOutreach }: { person: Person; ownerName: string | undefined; onOutreach(outreach: Person['outreach']): void }) {
  const [open, setOpen] = useState(false);
  const headingId = `person-${person.id}-title`;
  const stage = stageLabels[person.outreach.stage as keyof typeof stageLabels] ?? person.outreach.stage;
  return (
    <article class="mention" id={`person-${person.id}`} aria-labelledby={headingId}>
      <div class="mention-head">
        <h2 id={headingId}>
          {person.name}
          {person.handle && person.handle !== person.name && <span class="muted"> @{person.handle}</span>}
        </h2>
        <span class="chip chip-status">{stage}</span>
        {person.muted && <span class="chip chip-warn">Muted</span>}
        {person.automated && <span class="chip">Machine-made</span>}
      </div>
      <p class="mention-meta">
        <AccountLinks accounts={person.accounts} />
      </p>
      <p class="mention-meta">
        {counted(person.mentions.total, 'mention')}, {count(person.mentions.relevant)} relevant
        {person.lastMention && (
          <>
            {' · last '}
            <RelativeTime iso={person.lastMention.post.publishedAt} />
          </>
        )}
        {' · '}
        {person.outreach.owner ? `Owned by ${ownerName ?? 'a former member'}` : 'No owner'}
        {' · '}
        {person.outreach.lastContactAt ? (
          <>
            last contact <RelativeTime iso={person.outreach.lastContactAt} />
          </>
        ) : (
          'never contacted'
        )}
      </p>
      <p class="mention-meta">
        <a href={`/inbox?status=all&personId=${encodeURIComponent(person.id)}`}>
          Their relevant mentions<span class="visually-hidden"> by {person.name}</span>
        </a>
      </p>
      <details class="person" onToggle={(event) => setOpen(event.currentTarget.open)}>
        <summary>
          Outreach with {person.name}: {stage}
        </summary>
        {open && <PersonCard personId={person.id} onOutreach={onOutreach} />}
      </details>
    </article>
  );
}
