import type { ComponentChildren } from 'preact';

/**
 * A wide table scrolls sideways inside its own box on a narrow screen, not
 * the page; the box takes keyboard focus so it can be scrolled without a mouse.
 */
export function TableScroll({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <div class="table-scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
