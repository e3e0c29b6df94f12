import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso/router';
import { useQuery } from '../../api/use-query';
import { graphql } from '../../graphql';
import type { AnalyticsPageQuery } from '../../graphql/graphql';
import { DataTable } from '../../ui/data-table';
import { SelectField, TextField } from '../../ui/fields';
import { Figures } from '../../ui/figures';
import { count, counted } from '../../ui/format';
import { ErrorNotice, Loading } from '../../ui/notice';
import { PageHeader } from '../../ui/page';
import { platformName } from '../../../../vocabulary/platform-names.ts';
import { type ChartSeries, StackedChart } from './stacked-chart';

const AnalyticsPageDocument = graphql(`
  query AnalyticsPage($by: String!, $bucket: String, $since: DateTime, $until: DateTime, $relevant: Boolean) {
    mentionAnalytics(by: $by, bucket: $bucket, since: $since, until: $until, relevant: $relevant) {
      by
      bucket
      since
      until
      total
      totals { start count }
      series { key keyword { term } total points { count } }
    }
  }
`);

const dimensions = [
  ['sentiment', 'Sentiment'],
  ['language', 'Language'],
  ['platform', 'Platform'],
  ['keyword', 'Keyword'],
  ['intent', 'Intent'],
] as const;
const buckets = [
  ['hour', 'Hour'],
  ['day', 'Day'],
  ['week', 'Week (from Monday)'],
  ['month', 'Month'],
] as const;
const scopes = [
  ['relevant', 'Relevant'],
  ['other', 'Not relevant or unscored'],
  ['all', 'All'],
] as const;
type Dimension = (typeof dimensions)[number][0];
type Bucket = (typeof buckets)[number][0];
type Scope = (typeof scopes)[number][0];

/**
 * What the page counts, kept in the URL (`/analytics?by=platform&bucket=week&from=2026-03-01&to=2026-03-31`)
 * so a view can be bookmarked and the back button restores it; an absent
 * parameter is the default, and without dates the server's default range
 * for the bucket (a day of hours, 30 days, 12 weeks, 12 months).
 */
interface View {
  by: Dimension;
  bucket: Bucket;
  scope: Scope;
  from: string;
  to: string;
}

const oneOf = <T extends string>(options: readonly (readonly [T, string])[], value: string | undefined, fallback: T): T =>
  options.some(([option]) => option === value) ? (value as T) : fallback;
const isDate = (value: string | undefined) => /^\d{4}-\d\d-\d\d$/.test(value ?? '');

function viewFromQuery(query: Record<string, string>): View {
  return {
    by: oneOf(dimensions, query.by, 'sentiment'),
    bucket: oneOf(buckets, query.bucket, 'day'),
    scope: oneOf(scopes, query.mentions, 'relevant'),
    from: isDate(query.from) ? query.from : '',
    to: isDate(query.to) ? query.to : '',
  };
}

function viewToSearch(view: View): string {
  const params = new URLSearchParams();
  if (view.by !== 'sentiment') params.set('by', view.by);
  if (view.bucket !== 'day') params.set('bucket', view.bucket);
  if (view.scope !== 'relevant') params.set('mentions', view.scope);
  if (view.from) params.set('from', view.from);
  if (view.to) params.set('to', view.to);
  const search = params.toString();
  return search ? `?${search}` : '';
}

const sentimentColors: Record<string, string> = { positive: '#15803d', neutral: '#6b7280', negative: '#b91c1c', unknown: '#d1d5db' };
const palette = ['#1d4ed8', '#c2410c', '#15803d', '#a21caf', '#0e7490', '#1f2937'];
const otherColor = '#9ca3af';
/** Series drawn apart; the smaller ones are drawn together as one, and listed apart in the table. */
const drawnSeries = palette.length;

type Series = AnalyticsPageQuery['mentionAnalytics']['series'][number];

function seriesLabel(by: Dimension, series: Series): string {
  if (series.key === 'unknown') return by === 'language' ? 'Language unknown' : 'Not scored';
  if (series.key === 'none') return 'No intent';
  if (by === 'platform') return platformName(series.key);
  if (by === 'keyword') return series.keyword?.term ?? 'A deleted keyword';
  if (by === 'intent') return series.key.replace('_', ' ');
  return by === 'language' ? series.key.toUpperCase() : series.key;
}

/** A bucket's start (UTC) as the chart and the table name it. */
function bucketLabel(bucket: Bucket, start: string): string {
  const [day, time] = start.split('T');
  if (bucket === 'month') return day.slice(0, 7);
  if (bucket === 'hour') return `${day.slice(5)} ${time.slice(0, 5)}`;
  return bucket === 'week' ? `week of ${day}` : day;
}

function chartSeries(by: Dimension, series: Series[]): ChartSeries[] {
  const drawn = series.length > drawnSeries + 1 ? series.slice(0, drawnSeries) : series;
  const rest = series.slice(drawn.length);
  const shown: ChartSeries[] = drawn.map((each, index) => ({
    key: each.key,
    label: seriesLabel(by, each),
    color: by === 'sentiment' ? (sentimentColors[each.key] ?? otherColor) : palette[index % palette.length],
    counts: each.points.map((point) => point.count),
  }));
  if (rest.length) {
    shown.push({
      key: 'other',
      label: `${counted(rest.length, 'other')}`,
      color: otherColor,
      counts: rest[0].points.map((_, index) => rest.reduce((sum, each) => sum + each.points[index].count, 0)),
    });
  }
  return shown;
}

/**
 * Mentions counted over time (issue 14 point 5): by sentiment, language,
 * platform, keyword or intent, per UTC hour, day, week or month, a
 * corrected sentiment counted as corrected. A stacked bar chart drawn by
 * hand and, on request, the same figures as a table.
 */
export default function AnalyticsPage() {
  const { query, route } = useLocation();
  const view = viewFromQuery(query);
  const answer = useQuery(AnalyticsPageDocument, {
    by: view.by,
    bucket: view.bucket,
    since: view.from ? `${view.from}T00:00:00Z` : undefined,
    until: view.to ? `${view.to}T23:59:59.999Z` : undefined,
    relevant: view.scope === 'all' ? null : view.scope === 'relevant',
  });
  const [tableOpen, setTableOpen] = useState(false);
  const show = (change: Partial<View>) => route(`/analytics${viewToSearch({ ...view, ...change })}`);
  const report = answer.data?.mentionAnalytics;
  const byLabel = dimensions.find(([value]) => value === view.by)![1].toLowerCase();
  const series = report ? chartSeries(view.by, report.series) : [];
  const starts = report?.totals.map((point) => point.start) ?? [];
  const label = (start: string) => bucketLabel(view.bucket, start);

  return (
    <div class="analytics">
      <PageHeader title="Analytics" />
      <div class="filters" role="group" aria-label="What to count">
        <SelectField label="Count by" value={view.by} options={dimensions} onChange={(by) => show({ by })} />
        <SelectField label="Per" value={view.bucket} options={buckets} onChange={(bucket) => show({ bucket })} />
        <SelectField label="Mentions" value={view.scope} options={scopes} onChange={(scope) => show({ scope })} />
        <TextField label="From (UTC)" type="date" value={view.from} onInput={(from) => show({ from })} />
        <TextField label="To (UTC)" type="date" value={view.to} onInput={(to) => show({ to })} />
      </div>
      <ErrorNotice error={answer.error} />
      {!report ? (
        !answer.error && <Loading label="Counting mentions" />
      ) : (
        <>
          <Figures
            figures={[
              ['Mentions', count(report.total)],
              [`Largest ${byLabel}`, report.series[0] ? `${seriesLabel(view.by, report.series[0])} (${count(report.series[0].total)})` : '–'],
              ['Buckets', count(starts.length)],
            ]}
          />
          <section class="card" aria-labelledby="analytics-chart-heading">
            <h2 id="analytics-chart-heading">
              Mentions by {byLabel}, {label(starts[0])} to {label(starts[starts.length - 1])} (UTC)
            </h2>
            {report.total === 0 ? (
              <p class="empty">No mentions in this range.</p>
            ) : (
              <>
                <StackedChart
                  buckets={starts}
                  bucketLabel={label}
                  series={series}
                  summary={`${counted(report.total, 'mention')} by ${byLabel}: ${series.map((each) => `${each.label} ${count(each.counts.reduce((sum, n) => sum + n, 0))}`).join(', ')}`}
                />
                <ul class="legend" aria-label="Series">
                  {series.map((each) => (
                    <li key={each.key}>
                      <span class="swatch" style={{ background: each.color }} />
                      {each.label} ({count(each.counts.reduce((sum, n) => sum + n, 0))})
                    </li>
                  ))}
                </ul>
              </>
            )}
            <details onToggle={(event) => setTableOpen(event.currentTarget.open)}>
              <summary>Show the figures</summary>
              {tableOpen && (
                <DataTable
                  label={`Mentions by ${byLabel} per ${view.bucket}`}
                  columns={[`${view.bucket[0].toUpperCase()}${view.bucket.slice(1)} (UTC)`, ...report.series.map((each) => ({ label: seriesLabel(view.by, each), number: true as const })), { label: 'Total', number: true }]}
                >
                  {report.totals.map((point, index) => (
                    <tr key={point.start}>
                      <th scope="row">{label(point.start)}</th>
                      {report.series.map((each) => (
                        <td key={each.key} class="number">
                          {count(each.points[index].count)}
                        </td>
                      ))}
                      <td class="number">{count(point.count)}</td>
                    </tr>
                  ))}
                </DataTable>
              )}
            </details>
          </section>
        </>
      )}
    </div>
  );
}
