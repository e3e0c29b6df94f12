import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { useActionOnce } from '../api/use-query';
import { ErrorNotice, Loading } from './notice';
import { PageHeader } from './page';

/**
 * Where a link from an e-mail or from Slack lands, signed in or not: the
 * page, not the link, makes the call (once), so a mail scanner that opens
 * every link spends nothing; then it shows the outcome or the failure.
 */
export function LinkLanding<R>({ title, checking, run, children }: { title: string; checking: string; run(): Promise<R>; children(result: R): ComponentChildren }) {
  const [result, setResult] = useState<{ value: R }>();
  const action = useActionOnce(async () => setResult({ value: await run() }));
  return (
    <main class="sign-in" id="main">
      <div class="card sign-in-card">
        <p class="brand">Earshot</p>
        <PageHeader title={title} />
        {result ? children(result.value) : action.error ? <ErrorNotice error={action.error} /> : <Loading label={checking} />}
        <p>
          <a href="/alerts">Go to alerts and channels</a>
        </p>
      </div>
    </main>
  );
}
