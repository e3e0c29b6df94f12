/** A round number at or above `value` for the top of a chart's axis. */
export function niceTop(value: number): number {
  if (value <= 0) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 2.5, 5, 10].map((step) => step * magnitude).find((top) => top >= value)!;
}

/** The plot's box inside a chart's SVG, in its viewBox units. */
export interface PlotBox {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** The base line of a chart and its left axis, labelled at the top and at zero. */
export function LeftAxis({ plot, topLabel, zeroLabel }: { plot: PlotBox; topLabel: string; zeroLabel: string }) {
  return (
    <>
      <line class="axis" x1={plot.left} x2={plot.right} y1={plot.bottom} y2={plot.bottom} />
      <text x={plot.left - 6} y={plot.top + 4} text-anchor="end">
        {topLabel}
      </text>
      <text x={plot.left - 6} y={plot.bottom} text-anchor="end">
        {zeroLabel}
      </text>
    </>
  );
}
