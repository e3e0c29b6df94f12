import { useState } from 'preact/hooks';
import { execute } from '../../api/graphql-client';
import { useAction, useQuery } from '../../api/use-query';
import { graphql } from '../../graphql';
import type { ApiKeyScope, MemberRole, TeamPageQuery } from '../../graphql/graphql';
import { useRole, useSession } from '../../session';
import { SelectField, TextField } from '../../ui/fields';
import { date } from '../../ui/format';
import { RelativeTime } from '../../ui/relative-time';
import { ErrorNotice, Notice } from '../../ui/notice';
import { PageHeader, PageLoading, Section } from '../../ui/page';
import { DataTable } from '../../ui/data-table';
import { ActionForm } from '../../ui/action-form';
import { ConnectedAppsSection } from './connected-apps-section';
import { InvitationsSection } from './invitations-section';
import { memberRoles } from './member-roles';

const TeamPageDocument = graphql(`
  query TeamPage {
    members { id email name role joinedAt }
    apiKeys { id name prefix scope createdAt lastUsedAt expiresAt }
    invitations { id email role expiresAt invitedBy { name } }
    connectedApps { id clientId clientName clientUri scope connectedAt lastUsedAt user { id email } }
  }
`);

const ChangeMemberRoleDocument = graphql(`
  mutation ChangeMemberRole($id: ID!, $role: MemberRole) {
    changeMemberRole(id: $id, role: $role) { id role }
  }
`);

const RemoveMemberDocument = graphql(`
  mutation RemoveMember($id: ID!) {
    removeMember(id: $id) { id }
  }
`);

const CreateApiKeyDocument = graphql(`
  mutation CreateApiKey($input: CreateApiKeyInput!) {
    createApiKey(input: $input) { id name key }
  }
`);

const RevokeApiKeyDocument = graphql(`
  mutation RevokeApiKey($id: ID!) {
    revokeApiKey(id: $id) { id }
  }
`);

const SetPasswordDocument = graphql(`
  mutation SetPassword($input: SetPasswordInput!) {
    setPassword(input: $input)
  }
`);

function MemberRow({ member, canManage, isMe, onChanged }: { member: TeamPageQuery['members'][number]; canManage: boolean; isMe: boolean; onChanged(): void }) {
  const change = useAction(async (role: MemberRole) => {
    await execute(ChangeMemberRoleDocument, { id: member.id, role });
    onChanged();
  });
  const remove = useAction(async () => {
    if (!confirm(`Remove ${member.email} from the workspace? Their sessions end at once.`)) return;
    await execute(RemoveMemberDocument, { id: member.id });
    onChanged();
  });
  return (
    <tr>
      <th scope="row">
        {member.name}
        {isMe && <span class="chip">you</span>}
        <div class="muted">{member.email}</div>
      </th>
      <td>
        {canManage ? (
          <label class="inline-select">
            <span class="visually-hidden">Role of {member.email}</span>
            <select value={member.role} disabled={change.busy} onChange={(event) => void change.run(event.currentTarget.value as MemberRole)}>
              {memberRoles.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </label>
        ) : (
          member.role
        )}
        <ErrorNotice error={change.error} />
      </td>
      <td>{date(member.joinedAt)}</td>
      <td>
        {canManage && !isMe && (
          <button type="button" class="danger" disabled={remove.busy} onClick={() => void remove.run()}>
            Remove<span class="visually-hidden"> {member.email}</span>
          </button>
        )}
        <ErrorNotice error={remove.error} />
      </td>
    </tr>
  );
}

function ApiKeys({ keys, onChanged }: { keys: TeamPageQuery['apiKeys']; onChanged(): void }) {
  const [name, setName] = useState('');
  const [scope, setScope] = useState<ApiKeyScope>('write');
  const [expiresOn, setExpiresOn] = useState('');
  const [created, setCreated] = useState<{ name: string; key: string }>();
  const create = useAction(async () => {
    const { createApiKey } = await execute(CreateApiKeyDocument, {
      // The day chosen is the person's own, as the list shows it: midnight UTC showed as the day before west of Greenwich.
      input: { name, scope, ...(expiresOn ? { expiresAt: new Date(`${expiresOn}T00:00:00`).toISOString() } : {}) },
    });
    setCreated({ name: createApiKey.name, key: createApiKey.key ?? '' });
    setName('');
    setScope('write');
    setExpiresOn('');
    onChanged();
  });
  const revoke = useAction(async (id: string, keyName: string) => {
    if (!confirm(`Revoke “${keyName}”? Requests with it fail at once.`)) return;
    await execute(RevokeApiKeyDocument, { id });
    onChanged();
  });
  return (
    <Section title="API keys">
      <DataTable label="API keys" columns={['Name', 'Key starts', 'Scope', 'Last used', 'Expires', 'Revoke']}>
        {keys.map((key) => (
          <tr key={key.id}>
            <th scope="row">{key.name}</th>
            <td>
              <code>{key.prefix}…</code>
            </td>
            <td>{key.scope}</td>
            <td>{key.lastUsedAt ? <RelativeTime iso={key.lastUsedAt} /> : 'never'}</td>
            <td>{key.expiresAt ? date(key.expiresAt) : 'never'}</td>
            <td>
              <button type="button" class="danger" disabled={revoke.busy} onClick={() => void revoke.run(key.id, key.name)}>
                Revoke<span class="visually-hidden"> {key.name}</span>
              </button>
            </td>
          </tr>
        ))}
      </DataTable>
      <ErrorNotice error={revoke.error} />
      <ActionForm onSubmit={() => { setCreated(undefined); void create.run(); }}>
        <div class="grid-2">
          <TextField label="Key name" required value={name} onInput={setName} />
          <SelectField label="Scope" value={scope} options={[['write', 'Read and write'], ['read', 'Read only (GET)']] as [ApiKeyScope, string][]} onChange={setScope} />
          <TextField label="Expires on (optional)" type="date" value={expiresOn} onInput={setExpiresOn} hint="It stops working as this day starts, in your time zone" />
        </div>
        <ErrorNotice error={create.error} />
        {created && (
          <Notice tone="success">
            Key “{created.name}” created. Copy it now: it is never shown again.
            <code class="secret" aria-label="The new API key">
              {created.key}
            </code>
          </Notice>
        )}
        <button type="submit" disabled={create.busy}>
          {create.busy ? 'Creating…' : 'Create key'}
        </button>
      </ActionForm>
    </Section>
  );
}

function PasswordForm({ email }: { email: string | null | undefined }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const save = useAction(async () => {
    await execute(SetPasswordDocument, { input: { currentPassword: current || undefined, newPassword: next } });
    setCurrent('');
    setNext('');
    return 'saved';
  });
  return (
    <Section title="Your password">
      <ActionForm onSubmit={() => void save.run()}>
        {/* The account the password is for, for password managers (and browsers, which ask a password form for one). */}
        <input type="email" name="username" autoComplete="username" value={email ?? ''} readOnly hidden />
        <div class="grid-2">
          <TextField label="Current password" type="password" autoComplete="current-password" value={current} onInput={setCurrent} hint="Leave blank if you sign in by e-mailed link only" />
          <TextField label="New password" type="password" autoComplete="new-password" required value={next} onInput={setNext} hint="At least 10 characters" />
        </div>
        <ErrorNotice error={save.error} />
        {save.outcome && <Notice tone="success">Password saved.</Notice>}
        <button type="submit" disabled={save.busy}>
          Set password
        </button>
      </ActionForm>
    </Section>
  );
}

/** Members and their roles, invitations, API keys, connected apps (shown once, revocable) and the signed-in user's password (spec 2.7, 4.5). */
export default function TeamPage() {
  const page = useQuery(TeamPageDocument, {});
  const session = useSession();
  const role = useRole();
  const canManage = role === 'owner' || role === 'admin';
  if (!page.data) {
    return <PageLoading title="Team" error={page.error} label="Loading the team" />;
  }
  return (
    <>
      <PageHeader title="Team" />
      <Section title="Members">
        {!canManage && <p class="hint">Only owners and admins change the team.</p>}
        <DataTable label="Members" columns={['Member', 'Role', 'Joined', 'Remove']}>
          {page.data.members.map((member) => (
            <MemberRow key={member.id} member={member} canManage={canManage} isMe={member.id === session.user?.id} onChanged={() => void page.refetch()} />
          ))}
        </DataTable>
      </Section>
      <InvitationsSection invitations={page.data.invitations} canManage={canManage} isOwner={role === 'owner'} onChanged={() => void page.refetch()} />
      <ApiKeys keys={page.data.apiKeys} onChanged={() => void page.refetch()} />
      <ConnectedAppsSection apps={page.data.connectedApps} canManage={canManage} myUserId={session.user?.id} onChanged={() => void page.refetch()} />
      <PasswordForm email={session.user?.email} />
    </>
  );
}
