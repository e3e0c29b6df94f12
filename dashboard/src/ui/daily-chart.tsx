import { LeftAxis, niceTop } from './chart-axis';
import { count, money, counted } from './format';
import { DataTable } from './data-table';

export interface ChartDay {
  day: string;
  spentCents: number;
  matches: number;
}

const width = 720;
const height = 220;
const pad = { top: 16, right: 60, bottom: 32, left: 76 };

/**
 * Daily spend as bars (left axis, dollars) and matches as a line (right
 * axis), drawn as SVG with no chart library; the same figures follow in a
 * table for screen readers and for copying.
 */
export function DailyChart({ days, title }: { days: ChartDay[]; title: string }) {
  const spendTop = niceTop(Math.max(...days.map((day) => day.spentCents)));
  const matchTop = niceTop(Math.max(...days.map((day) => day.matches)));
  const plotWidth = width - pad.left - pad.right;
  const plotHeight = height - pad.top - pad.bottom;
  const slot = plotWidth / days.length;
  const x = (index: number) => pad.left + index * slot;
  const ySpend = (cents: number) => pad.top + plotHeight - (cents / spendTop) * plotHeight;
  const yMatches = (matches: number) => pad.top + plotHeight - (matches / matchTop) * plotHeight;
  const line = days.map((day, index) => `${index ? 'L' : 'M'}${(x(index) + slot / 2).toFixed(1)},${yMatches(day.matches).toFixed(1)}`).join(' ');
  const totalSpent = days.reduce((sum, day) => sum + day.spentCents, 0);
  const totalMatches = days.reduce((sum, day) => sum + day.matches, 0);
  const label = `${title}: ${money(totalSpent)} spent and ${counted(totalMatches, 'match', 'matches')} over ${counted(days.length, 'day')}`;
  return (
    <figure class="daily-chart">
      <svg class="chart" viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label}>
        <LeftAxis plot={{ left: pad.left, right: width - pad.right, top: pad.top, bottom: pad.top + plotHeight }} topLabel={money(spendTop)} zeroLabel="$0" />
        <text x={width - pad.right + 6} y={pad.top + 4}>
          {count(matchTop)}
        </text>
        <text x={width - pad.right + 6} y={pad.top + plotHeight}>
          0
        </text>
        {days.map((day, index) => (
          <rect key={day.day} class="bar" x={x(index) + slot * 0.15} width={slot * 0.7} y={ySpend(day.spentCents)} height={pad.top + plotHeight - ySpend(day.spentCents)}>
            <title>
              {day.day}: {money(day.spentCents)}, {counted(day.matches, 'match', 'matches')}
            </title>
          </rect>
        ))}
        <path class="line" d={line} />
        {[0, Math.floor(days.length / 2), days.length - 1].map((index) => (
          <text key={index} x={x(index) + slot / 2} y={height - 8} text-anchor="middle">
            {days[index].day.slice(5)}
          </text>
        ))}
      </svg>
      <figcaption class="legend">
        <span>
          <span class="swatch swatch-spend" />
          Spend a day
        </span>
        <span>
          <span class="swatch swatch-matches" />
          Matches a day
        </span>
      </figcaption>
      <details>
        <summary>Show the figures</summary>
        <DataTable label={title} columns={['Day (UTC)', { label: 'Spent', number: true }, { label: 'Matches', number: true }]}>
          {days.map((day) => (
            <tr key={day.day}>
              <th scope="row">{day.day}</th>
              <td class="number">{money(day.spentCents)}</td>
              <td class="number">{count(day.matches)}</td>
            </tr>
          ))}
        </DataTable>
      </details>
    </figure>
  );
}
