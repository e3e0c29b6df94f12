import type { ComponentChildren } from 'preact';
import { ApiError, errorMessage } from '../api/api-error';

/** A failure, announced to screen readers as it appears. */
export function ErrorNotice({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  const code = error instanceof ApiError ? error.code : undefined;
  return (
    <div class="notice notice-error" role="alert">
      {title && <strong>{title}: </strong>}
      {errorMessage(error)}
      {code && <span class="code"> ({code})</span>}
    </div>
  );
}

export function Notice({ children, tone = 'info' }: { children: ComponentChildren; tone?: 'info' | 'success' | 'warning' }) {
  return (
    <div class={`notice notice-${tone}`} role="status">
      {children}
    </div>
  );
}

export function Loading({ label = 'Loading' }: { label?: string }) {
  return (
    <p class="loading" role="status" aria-live="polite">
      {label}…
    </p>
  );
}
