import type { ComponentChildren } from 'preact';
import { ApiError } from '../api/api-error';
import { errorSentence } from '../api/error-sentences';

/** A failure in words, announced to screen readers as it appears; its code stays in `data-code`, for support, out of the text. */
export function ErrorNotice({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  return (
    <div class="notice notice-error" role="alert" data-code={error instanceof ApiError ? error.code : undefined}>
      {title && <strong>{title}: </strong>}
      {errorSentence(error)}
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
