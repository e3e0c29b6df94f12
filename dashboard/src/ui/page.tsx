import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { ErrorNotice, Loading } from './notice';

/**
 * The page title that last lost focus to nothing (no other element took it),
 * as a title does when the page replaces it (its loading heading by its real
 * one once the data came): the new title then takes the focus on, instead of
 * it falling to the document and a screen reader losing its place.
 */
let titleLeft: HTMLElement | undefined;

/** A page's heading and actions; the document title follows it. */
export function PageHeader({ title, children }: { title: string; children?: ComponentChildren }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Earshot`;
  }, [title]);
  useEffect(() => {
    const left = titleLeft;
    titleLeft = undefined;
    if (left && !left.isConnected && (document.activeElement === null || document.activeElement === document.body)) heading.current?.focus();
  }, []);
  return (
    <header class="page-header">
      <h1 id="page-title" tabIndex={-1} ref={heading} onBlur={(event) => (titleLeft = event.relatedTarget === null ? event.currentTarget : undefined)}>
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
