import { useState } from 'preact/hooks';
import { execute } from '../../api/graphql-client';
import { useAction } from '../../api/use-query';
import { graphql } from '../../graphql';
import type { MemberRole, TeamPageQuery } from '../../graphql/graphql';
import { ActionForm } from '../../ui/action-form';
import { DataTable } from '../../ui/data-table';
import { SelectField, TextField } from '../../ui/fields';
import { date } from '../../ui/format';
import { ErrorNotice, Notice } from '../../ui/notice';
import { Section } from '../../ui/page';
import { memberRoles } from './member-roles';

const InviteMemberDocument = graphql(`
  mutation InviteMember($input: InviteMemberInput!) {
    inviteMember(input: $input) { id email }
  }
`);

const WithdrawInvitationDocument = graphql(`
  mutation WithdrawInvitation($id: ID!) {
    withdrawInvitation(id: $id) { id }
  }
`);

/** Pending invitations (spec 3.5.1, 4.5): sent by e-mail, withdrawn before they are answered; owners and admins act, everyone sees. */
export function InvitationsSection({ invitations, canManage, isOwner, onChanged }: { invitations: TeamPageQuery['invitations']; canManage: boolean; isOwner: boolean; onChanged(): void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<MemberRole>('member');
  const invite = useAction(async () => {
    const { inviteMember } = await execute(InviteMemberDocument, { input: { email, role } });
    setEmail('');
    onChanged();
    return inviteMember.email;
  });
  const withdraw = useAction(async (id: string, address: string) => {
    if (!confirm(`Withdraw the invitation to ${address}? Its link stops working.`)) return;
    await execute(WithdrawInvitationDocument, { id });
    onChanged();
  });
  return (
    <Section title="Invitations">
      {invitations.length === 0 ? (
        <p class="hint">No invitation is waiting for an answer.</p>
      ) : (
        <DataTable label="Pending invitations" columns={['Address', 'Role', 'Invited by', 'Expires', 'Withdraw']}>
          {invitations.map((invitation) => (
            <tr key={invitation.id}>
              <th scope="row">{invitation.email}</th>
              <td>{invitation.role}</td>
              <td>{invitation.invitedBy?.name ?? '—'}</td>
              <td>{date(invitation.expiresAt)}</td>
              <td>
                {canManage && (
                  <button type="button" class="danger" disabled={withdraw.busy} onClick={() => void withdraw.run(invitation.id, invitation.email)}>
                    Withdraw<span class="visually-hidden"> the invitation to {invitation.email}</span>
                  </button>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <ErrorNotice error={withdraw.error} />
      {canManage && (
        <ActionForm onSubmit={() => void invite.run()}>
          <div class="grid-2">
            <TextField label="E-mail address to invite" type="email" required value={email} onInput={setEmail} />
            <SelectField label="Role on joining" value={role} options={isOwner ? memberRoles : memberRoles.filter(([value]) => value !== 'owner')} onChange={setRole} hint="Only an owner may invite an owner" />
          </div>
          <ErrorNotice error={invite.error} />
          {invite.outcome && <Notice tone="success">Invitation sent to {invite.outcome}. The link in it works for 7 days.</Notice>}
          <button type="submit" disabled={invite.busy}>
            {invite.busy ? 'Sending…' : 'Send invitation'}
          </button>
        </ActionForm>
      )}
    </Section>
  );
}
