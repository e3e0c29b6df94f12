import { execute } from '../../api/graphql-client';
import { graphql } from '../../graphql';
import { LinkLanding } from '../../ui/link-landing';
import { Notice } from '../../ui/notice';

const ConfirmEmailChannelDocument = graphql(`
  mutation ConfirmEmailChannel($token: String!) {
    confirmEmailChannel(token: $token) { confirmed channelId address }
  }
`);

/** The confirmation e-mail's link (`/v1/channels/email/confirm?token=…`, sent here when opened in a browser). */
export function EmailConfirmationPage({ token }: { token: string }) {
  return (
    <LinkLanding title="Confirming the e-mail channel" checking="Checking the link" run={async () => (await execute(ConfirmEmailChannelDocument, { token })).confirmEmailChannel}>
      {(confirmation) => <Notice tone="success">{confirmation.address} is confirmed: alerts sent to this channel reach it from now on.</Notice>}
    </LinkLanding>
  );
}
