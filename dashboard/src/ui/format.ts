/**
 * How figures read on every page: money from integer cents (spec 1.10),
 * counts, dates and times in the reader's locale and time zone (a time of day
 * names its zone, since a few things are kept in UTC: digest hours, billing
 * periods, analytics buckets, which say so where they show).
 */
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

const localDateTime = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' });

/** "Nov 28, 2026, 3:40 PM PST": in the reader's zone, named. */
export function dateTime(iso: string): string {
  return localDateTime.format(new Date(iso));
}

const utcWeekdays = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/**
 * A digest's UTC hour (and weekday) in the reader's own time, by its next
 * run: "10:00 AM PST", "Sunday 6:00 PM PDT"; undefined where the reader's
 * time is UTC then, which says nothing more. The schedule itself stays in
 * UTC, as the API keeps it.
 */
export function utcScheduleHere(hour: number, weekday?: string | null, now = new Date()): string | undefined {
  const at = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), hour));
  const day = weekday ? utcWeekdays.indexOf(weekday) : -1;
  if (day >= 0) at.setUTCDate(at.getUTCDate() + ((day - at.getUTCDay() + 7) % 7));
  if (at.getTimezoneOffset() === 0) return undefined;
  return at.toLocaleString(undefined, { ...(day >= 0 ? { weekday: 'long' } : {}), hour: 'numeric', minute: '2-digit', timeZoneName: 'short' });
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
