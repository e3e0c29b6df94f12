import { execute } from '../../api/graphql-client';
import { graphql } from '../../graphql';
import { LinkLanding } from '../../ui/link-landing';
import { Notice } from '../../ui/notice';

const CompleteSlackInstallDocument = graphql(`
  mutation CompleteSlackInstall($state: String!, $code: String, $error: String) {
    completeSlackInstall(state: $state, code: $code, error: $error) { connected teamName }
  }
`);

/** Where Slack sends the installer back (`/v1/slack/oauth/callback?code=…&state=…`, sent here when opened in a browser). */
export function SlackConnectedPage({ query }: { query: Record<string, string> }) {
  const run = async () => (await execute(CompleteSlackInstallDocument, { state: query.state ?? '', code: query.code ?? null, error: query.error ?? null })).completeSlackInstall;
  return (
    <LinkLanding title="Connecting Slack" checking="Finishing the install with Slack" run={run}>
      {(install) => (
        <Notice tone="success">
          Earshot is connected to the Slack workspace {install.teamName}. Choose where notifications go under Slack on the alerts page.
        </Notice>
      )}
    </LinkLanding>
  );
}
