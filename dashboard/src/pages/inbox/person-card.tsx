import { useEffect, useState } from 'preact/hooks';
import { execute } from '../../api/graphql-client';
import { useAction, useQuery } from '../../api/use-query';
import { graphql } from '../../graphql';
import { ActionForm } from '../../ui/action-form';
import { SelectField, TextArea } from '../../ui/fields';
import { count, dateTime, counted } from '../../ui/format';
import { ErrorNotice, Loading } from '../../ui/notice';
import { platformName } from '../../../../vocabulary/platform-names.ts';

const PersonCardDocument = graphql(`
  query PersonCard($id: ID!) {
    person(id: $id) {
      id
      name
      muted
      accounts { id platform handle url }
      mentions { total relevant }
      outreach { owner stage lastContactAt }
      activities(first: 20) { nodes { id channel note occurredAt madeBy { userId apiKeyId } } }
    }
    members { id name }
  }
`);

const UpdateOutreachDocument = graphql(`
  mutation UpdateOutreach($id: ID!, $input: PersonPatchInput!) {
    updatePerson(id: $id, input: $input) { id outreach { owner stage lastContactAt } }
  }
`);

const LogContactDocument = graphql(`
  mutation LogContact($personId: ID!, $input: PersonActivityInput!) {
    logPersonActivity(personId: $personId, input: $input) { id }
  }
`);

/** Outreach stages (spec 2.11.3) in the order a contact moves through them. */
export const stageLabels = {
  not_contacted: 'Not contacted',
  contacted: 'Contacted',
  replied: 'Replied',
  in_talks: 'In talks',
  customer: 'Customer',
  not_a_fit: 'Not a fit',
} as const;
type Stage = keyof typeof stageLabels;

const channelLabels = {
  email: 'E-mail',
  x: 'X',
  linkedin: 'LinkedIn',
  reddit: 'Reddit',
  bluesky: 'Bluesky',
  github: 'GitHub',
  slack: 'Slack',
  discord: 'Discord',
  call: 'Call',
  meeting: 'Meeting',
  other: 'Other',
} as const;
type Channel = keyof typeof channelLabels;

const nobody = '';

/** A person's accounts, each a link to its profile: "Hacker News @dana · Reddit @dana_r". */
export function AccountLinks({ accounts }: { accounts: readonly { id: string; platform: string; handle: string; url: string }[] }) {
  return (
    <>
      {accounts.map((account, index) => (
        <span key={account.id}>
          {index > 0 && ' · '}
          <a href={account.url} target="_blank" rel="noopener noreferrer">
            {platformName(account.platform)} @{account.handle}
            <span class="visually-hidden"> (new tab)</span>
          </a>
        </span>
      ))}
    </>
  );
}

/**
 * The author of a mention as a person (their accounts merged across
 * platforms): outreach stage and owner, changed as soon as they are chosen,
 * the contacts logged with them, and a form to log another. Logging the
 * first contact claims an unowned person for the signed-in user and moves
 * them to contacted (spec 3.5.2), so the card is read again after it;
 * `onOutreach` hears each outreach the card comes to show.
 */
export function PersonCard({ personId, onOutreach }: { personId: string; onOutreach?(outreach: { owner?: string | null; stage: string; lastContactAt?: string | null }): void }) {
  const card = useQuery(PersonCardDocument, { id: personId });
  // A list showing the person's outreach (the people page) follows what the card changed.
  const outreach = card.data?.person.outreach;
  useEffect(() => {
    if (outreach) onOutreach?.(outreach);
  }, [outreach]);
  const [channel, setChannel] = useState<Channel>('email');
  const [note, setNote] = useState('');
  const change = useAction(async (input: { stage?: Stage; ownerId?: string | null }) => {
    const { updatePerson } = await execute(UpdateOutreachDocument, { id: personId, input });
    card.setData((data) => ({ ...data, person: { ...data.person, outreach: updatePerson.outreach } }));
  });
  const log = useAction(async () => {
    await execute(LogContactDocument, { personId, input: { channel, note: note.trim() || undefined } });
    setNote('');
    await card.refetch();
  });

  if (!card.data) return card.error ? <ErrorNotice error={card.error} /> : <Loading label="Loading the person" />;
  const { person, members } = card.data;
  const memberName = (userId: string | null | undefined) => members.find((member) => member.id === userId)?.name;
  const stage = person.outreach.stage as Stage;
  return (
    <div class="person-card">
      <p class="muted">
        <AccountLinks accounts={person.accounts} />
        {' · '}
        {counted(person.mentions.total, 'mention')} here, {count(person.mentions.relevant)} relevant
        {person.muted && <span class="chip chip-warn">Muted</span>}
      </p>
      <div class="person-outreach">
        <SelectField
          label="Outreach stage"
          value={stage}
          options={Object.entries(stageLabels) as [Stage, string][]}
          onChange={(value) => void change.run({ stage: value })}
        />
        <SelectField
          label="Owner"
          value={person.outreach.owner ?? nobody}
          options={[[nobody, 'Nobody'], ...members.map((member) => [member.id, member.name] as [string, string])]}
          onChange={(value) => void change.run({ ownerId: value === nobody ? null : value })}
        />
      </div>
      <ErrorNotice error={change.error} title="Not saved" />
      <h3>Contacts</h3>
      {person.activities.nodes.length === 0 ? (
        <p class="empty">No contact logged yet.</p>
      ) : (
        <ol class="activity-log">
          {person.activities.nodes.map((activity) => (
            <li key={activity.id}>
              <time dateTime={activity.occurredAt}>{dateTime(activity.occurredAt)}</time> · {channelLabels[activity.channel as Channel] ?? activity.channel}
              {' · '}
              <span class="muted">{memberName(activity.madeBy.userId) ?? (activity.madeBy.apiKeyId ? 'an API key' : 'a former member')}</span>
              {activity.note && <p>{activity.note}</p>}
            </li>
          ))}
        </ol>
      )}
      <ActionForm class="log-contact" onSubmit={() => void log.run()}>
        <SelectField label="Channel" value={channel} options={Object.entries(channelLabels) as [Channel, string][]} onChange={setChannel} />
        <TextArea label="Note" value={note} onInput={setNote} rows={2} maxLength={1000} />
        <div class="form-actions">
          <button type="submit" disabled={log.busy}>
            {log.busy ? 'Logging…' : 'Log contact'}
          </button>
        </div>
        <ErrorNotice error={log.error} title="Not logged" />
      </ActionForm>
    </div>
  );
}
