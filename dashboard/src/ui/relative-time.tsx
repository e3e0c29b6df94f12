import { useEffect, useState } from 'preact/hooks';
import { ago, dateTime } from './format';

/** How often relative times are said again: "just now" becomes "1 minute ago" within this of the minute passing. */
const tickMs = 30_000;

/** One timer for every relative time on the page, running only while one is shown. */
const listeners = new Set<(now: number) => void>();
let timer: ReturnType<typeof setInterval> | undefined;

function listen(listener: (now: number) => void): () => void {
  listeners.add(listener);
  timer ??= setInterval(() => {
    const now = Date.now();
    for (const each of listeners) each(now);
  }, tickMs);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/** The time now, renewed every `tickMs` while the component is shown, so that what it says of a time keeps true without reading anything again. */
export function useNow(): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => listen(setNow), []);
  return now;
}

/** "5 minutes ago", kept current; the date and time in the reader's zone on hover. */
export function RelativeTime({ iso }: { iso: string }) {
  const now = useNow();
  return (
    <time dateTime={iso} title={dateTime(iso)}>
      {ago(iso, now)}
    </time>
  );
}
