import type { ComponentChildren } from 'preact';

/** A row of headline figures, each a label over its value. */
export function Figures({ figures }: { figures: [label: string, value: ComponentChildren][] }) {
  return (
    <dl class="stats">
      {figures.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
