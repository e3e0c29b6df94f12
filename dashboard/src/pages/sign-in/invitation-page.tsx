import { useState } from 'preact/hooks';
import { acceptInvitation, declineInvitation } from '../../api/sign-in-routes';
import { useAction, useQuery } from '../../api/use-query';
import { graphql } from '../../graphql';
import { dateTime } from '../../ui/format';
import { ErrorNotice, Loading, Notice } from '../../ui/notice';
import { PageHeader } from '../../ui/page';

const ReceivedInvitationDocument = graphql(`
  query ReceivedInvitation($token: String!) {
    receivedInvitation(token: $token) { id email role state expiresAt workspace { id name } invitedBy { name email } }
  }
`);

/**
 * Where an invitation mail's link lands (spec 3.5.1): the invitee sees who
 * invites them to what, then accepts (and is signed in to that workspace)
 * or declines. The token is the credential, so no sign-in comes first.
 */
export function InvitationPage({ token, onAccepted }: { token: string; onAccepted(): Promise<void> }) {
  const invitation = useQuery(ReceivedInvitationDocument, { token });
  const [declined, setDeclined] = useState(false);
  const accept = useAction(async () => {
    await acceptInvitation(token);
    await onAccepted();
  });
  const decline = useAction(async () => {
    await declineInvitation(token);
    setDeclined(true);
  });
  const received = invitation.data?.receivedInvitation;
  return (
    <main class="sign-in" id="main">
      <div class="card sign-in-card">
        <p class="brand">Earshot</p>
        <PageHeader title={received ? `Join ${received.workspace.name}` : 'Invitation'} />
        {invitation.error && (
          <>
            <ErrorNotice error={invitation.error} />
            <p>Ask whoever invited you for a new invitation.</p>
          </>
        )}
        {!invitation.error && !received && <Loading label="Opening the invitation" />}
        {received && (
          <>
            <p>
              {received.invitedBy ? `${received.invitedBy.name} (${received.invitedBy.email})` : 'A teammate'} invites <strong>{received.email}</strong> to the workspace{' '}
              <strong>{received.workspace.name}</strong> as {received.role === 'member' ? 'a member' : `an ${received.role}`}.
            </p>
            {declined ? (
              <Notice tone="success">You declined the invitation. You can close this page.</Notice>
            ) : received.state === 'pending' ? (
              <>
                <p class="hint">The invitation expires {dateTime(received.expiresAt)}.</p>
                <ErrorNotice error={accept.error ?? decline.error} />
                <div class="form-actions">
                  <button type="button" disabled={accept.busy || decline.busy} onClick={() => void accept.run()}>
                    {accept.busy ? 'Joining…' : 'Accept and join'}
                  </button>
                  <button type="button" class="secondary" disabled={accept.busy || decline.busy} onClick={() => void decline.run()}>
                    Decline
                  </button>
                </div>
              </>
            ) : (
              <Notice tone="warning">This invitation is {received.state}: it can no longer be answered.</Notice>
            )}
          </>
        )}
      </div>
    </main>
  );
}
