import { LeftAxis, niceTop } from '../../ui/chart-axis';
import { count } from '../../ui/format';

/** One series as the chart stacks it: a name, a colour, and a count per bucket (in the buckets' order). */
export interface ChartSeries {
  key: string;
  label: string;
  color: string;
  counts: number[];
}

const width = 720;
const height = 240;
const pad = { top: 16, right: 12, bottom: 32, left: 76 };

/**
 * Counts per bucket as stacked bars, one colour per series, drawn as SVG
 * with no chart library. The picture is one image with a summary for screen
 * readers; the page gives the same figures as a table.
 */
export function StackedChart({ buckets, bucketLabel, series, summary }: { buckets: string[]; bucketLabel(start: string): string; series: ChartSeries[]; summary: string }) {
  const totals = buckets.map((_, index) => series.reduce((sum, each) => sum + each.counts[index], 0));
  const top = niceTop(Math.max(0, ...totals));
  const plotWidth = width - pad.left - pad.right;
  const plotHeight = height - pad.top - pad.bottom;
  const slot = plotWidth / Math.max(buckets.length, 1);
  const y = (value: number) => pad.top + plotHeight - (value / top) * plotHeight;
  const labelled = [...new Set([0, Math.floor((buckets.length - 1) / 2), buckets.length - 1])].filter((index) => index >= 0);
  return (
    <svg class="chart" viewBox={`0 0 ${width} ${height}`} role="img" aria-label={summary}>
      <LeftAxis plot={{ left: pad.left, right: width - pad.right, top: pad.top, bottom: pad.top + plotHeight }} topLabel={count(top)} zeroLabel="0" />
      {buckets.map((start, index) => {
        let stacked = 0;
        return (
          <g key={start}>
            <title>
              {bucketLabel(start)}: {count(totals[index])}
              {series.filter((each) => each.counts[index] > 0).map((each) => `, ${each.label} ${count(each.counts[index])}`)}
            </title>
            {series.map((each) => {
              const value = each.counts[index];
              if (value === 0) return null;
              const bar = <rect key={each.key} x={pad.left + index * slot + slot * 0.1} width={Math.max(slot * 0.8, 0.5)} y={y(stacked + value)} height={y(stacked) - y(stacked + value)} fill={each.color} />;
              stacked += value;
              return bar;
            })}
          </g>
        );
      })}
      {labelled.map((index) => {
        // The first and last labels keep inside the picture.
        const [x, anchor] = index === 0 ? [pad.left, 'start'] : index === buckets.length - 1 ? [width - pad.right, 'end'] : [pad.left + index * slot + slot / 2, 'middle'];
        return (
          <text key={index} x={x} y={height - 8} text-anchor={anchor}>
            {bucketLabel(buckets[index])}
          </text>
        );
      })}
    </svg>
  );
}
