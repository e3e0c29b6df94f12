import type { ComponentChildren } from 'preact';

/** A column heading; `number` columns align right. */
export type Column = string | { label: string; number: true };

/**
 * A table of rows under a caption and column headings. A wide one scrolls
 * sideways inside its own box on a narrow screen, not the page; the box takes
 * keyboard focus so it can be scrolled without a mouse.
 */
export function DataTable({ label, columns, footer, children }: { label: string; columns: Column[]; footer?: ComponentChildren; children: ComponentChildren }) {
  return (
    <div class="table-scroll" role="region" aria-label={label} tabIndex={0}>
      <table>
        <caption class="visually-hidden">{label}</caption>
        <thead>
          <tr>
            {columns.map((column) =>
              typeof column === 'string' ? (
                <th key={column} scope="col">
                  {column}
                </th>
              ) : (
                <th key={column.label} scope="col" class="number">
                  {column.label}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
        {footer && <tfoot>{footer}</tfoot>}
      </table>
    </div>
  );
}
