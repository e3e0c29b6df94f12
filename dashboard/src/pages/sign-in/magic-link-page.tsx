import { signInWithLink } from '../../api/sign-in-routes';
import { useActionOnce } from '../../api/use-query';
import { ErrorNotice, Loading } from '../../ui/notice';
import { PageHeader } from '../../ui/page';

/**
 * Where an e-mailed sign-in link lands. The page, not the link, spends the
 * token, so a mail scanner that opens every link cannot use it up.
 */
export function MagicLinkPage({ token, onSignedIn }: { token: string; onSignedIn(): Promise<void> }) {
  const signIn = useActionOnce(async () => {
    await signInWithLink(token);
    await onSignedIn();
  });
  return (
    <main class="sign-in" id="main">
      <div class="card sign-in-card">
        <p class="brand">Earshot</p>
        <PageHeader title="Signing you in" />
        {signIn.error ? (
          <>
            <ErrorNotice error={signIn.error} />
            <p>
              <a href="/sign-in">Ask for a new link</a>
            </p>
          </>
        ) : (
          <Loading label="Checking the link" />
        )}
      </div>
    </main>
  );
}
