import type { BenchEnvironment } from './bench-environment.ts';

/** One row of a benchmark's table: numbers are printed rounded, strings as they are. */
export interface BenchRow {
  label: string;
  values: (number | string)[];
}

export interface BenchReport {
  /** How it was measured: tool, concurrency, durations. */
  description: string;
  columns: string[];
  rows: BenchRow[];
  /** The benchmark's aim and whether this run met it. */
  verdict?: string;
}

/** A benchmark `npm run bench` runs: it sets up what it measures on the shared environment and reports a table. */
export interface Benchmark {
  name: string;
  run(environment: BenchEnvironment): Promise<BenchReport>;
}

function cell(value: number | string): string {
  if (typeof value === 'string') return value;
  return value >= 100 ? Math.round(value).toString() : value.toFixed(1);
}

/** The report as a Markdown table, ready to paste into PERFORMANCE.md. */
export function formatReport(name: string, report: BenchReport): string {
  const header = ['', ...report.columns];
  const lines = [
    `### ${name}`,
    '',
    report.description,
    '',
    `| ${header.join(' | ')} |`,
    `|${header.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`,
    ...report.rows.map((row) => `| ${[row.label, ...row.values.map(cell)].join(' | ')} |`),
  ];
  if (report.verdict) lines.push('', report.verdict);
  return lines.join('\n');
}
