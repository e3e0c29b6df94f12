import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import { ErrorNotice, Loading } from './notice';

/** A page's heading and actions; the document title follows it. */
export function PageHeader({ title, children }: { title: string; children?: ComponentChildren }) {
  useEffect(() => {
    document.title = `${title} · Earshot`;
  }, [title]);
  return (
    <header class="page-header">
      <h1 id="page-title" tabIndex={-1}>
        {title}
      </h1>
      {children && <div class="page-actions">{children}</div>}
    </header>
  );
}

export function Section({ title, children, id }: { title: string; children: ComponentChildren; id?: string }) {
  const headingId = `${id ?? title.toLowerCase().replace(/\W+/g, '-')}-heading`;
  return (
    <section class="card" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      {children}
    </section>
  );
}

/** A page whose data has not come: its heading, and the failure or a loading line. */
export function PageLoading({ title, error, label }: { title: string; error: unknown; label: string }) {
  return (
    <>
      <PageHeader title={title} />
      {error ? <ErrorNotice error={error} /> : <Loading label={label} />}
    </>
  );
}
