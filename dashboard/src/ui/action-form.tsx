import type { ComponentChildren } from 'preact';

/** A form whose submission runs `onSubmit` in the page instead of loading another one. */
export function ActionForm({ onSubmit, class: className, children }: { onSubmit(): void; class?: string; children: ComponentChildren }) {
  return (
    <form
      class={className}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      {children}
    </form>
  );
}
