/** How figures read on every page: money from integer cents (spec 1.10), counts, dates in the reader's locale. */
const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const counts = new Intl.NumberFormat('en-US');
const percents = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 0 });

export const money = (cents: number): string => dollars.format(cents / 100);
export const count = (value: number): string => counts.format(value);
export const percent = (share: number): string => percents.format(share);

const plurals = new Intl.PluralRules('en-US');

/** A count with its noun in the right number: "1 attempt", "2 attempts"; `many` for nouns not made plural by an s. */
export function counted(value: number, one: string, many = `${one}s`): string {
  return `${count(value)} ${plurals.select(value) === 'one' ? one : many}`;
}

export function dateTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function date(iso: string): string {
  return new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });
}

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const steps: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 31_536_000],
  ['month', 2_592_000],
  ['week', 604_800],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
];

/** "3 hours ago", "in 2 days". */
export function ago(iso: string, now = Date.now()): string {
  const seconds = (new Date(iso).getTime() - now) / 1000;
  for (const [unit, size] of steps) if (Math.abs(seconds) >= size) return relative.format(Math.round(seconds / size), unit);
  return 'just now';
}
