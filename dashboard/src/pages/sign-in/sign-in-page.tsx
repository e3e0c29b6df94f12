import { useState } from 'preact/hooks';
import { sendMagicLink, signInWithPassword } from '../../api/sign-in-routes';
import { useAction } from '../../api/use-query';
import { TextField } from '../../ui/fields';
import { ErrorNotice, Notice } from '../../ui/notice';
import { PageHeader } from '../../ui/page';
import { ActionForm } from '../../ui/action-form';

/** Sign-in by password or by an e-mailed link (README "Dashboard sessions"). */
export function SignInPage({ onSignedIn, sessionEnded }: { onSignedIn(): Promise<void>; sessionEnded?: boolean }) {
  const [method, setMethod] = useState<'password' | 'link'>('password');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [linkSentTo, setLinkSentTo] = useState<string>();
  const passwordSignIn = useAction(async () => {
    await signInWithPassword(email, password);
    await onSignedIn();
  });
  const linkSignIn = useAction(async () => {
    await sendMagicLink(email);
    setLinkSentTo(email);
  });

  return (
    <main class="sign-in" id="main">
      <div class="card sign-in-card">
        <p class="brand">Earshot</p>
        <PageHeader title="Sign in" />
        {sessionEnded && <Notice tone="warning">Your session has ended. Sign in again to go on where you were.</Notice>}
        <div class="segmented" role="group" aria-label="How to sign in">
          <button type="button" aria-pressed={method === 'password'} onClick={() => setMethod('password')}>
            Password
          </button>
          <button type="button" aria-pressed={method === 'link'} onClick={() => setMethod('link')}>
            E-mail me a link
          </button>
        </div>
        {method === 'password' ? (
          <ActionForm onSubmit={() => void passwordSignIn.run()}>
            <TextField label="E-mail address" type="email" name="email" autoComplete="username" required value={email} onInput={setEmail} />
            <TextField label="Password" type="password" name="password" autoComplete="current-password" required value={password} onInput={setPassword} />
            <ErrorNotice error={passwordSignIn.error} />
            <button type="submit" disabled={passwordSignIn.busy}>
              {passwordSignIn.busy ? 'Signing in…' : 'Sign in'}
            </button>
          </ActionForm>
        ) : (
          <ActionForm onSubmit={() => void linkSignIn.run()}>
            <TextField label="E-mail address" type="email" name="email" autoComplete="username" required value={email} onInput={setEmail} />
            <ErrorNotice error={linkSignIn.error} />
            {linkSentTo && (
              <Notice tone="success">
                If {linkSentTo} has an Earshot account, a sign-in link is on its way. It works once, for 15 minutes.
              </Notice>
            )}
            <button type="submit" disabled={linkSignIn.busy}>
              {linkSignIn.busy ? 'Sending…' : 'Send the link'}
            </button>
          </ActionForm>
        )}
      </div>
    </main>
  );
}
