import type { KeywordPageQuery } from '../../graphql/graphql';
import { DataTable } from '../../ui/data-table';
import { ago, count, dateTime } from '../../ui/format';
import { Notice } from '../../ui/notice';
import { useNow } from '../../ui/relative-time';
import { Section } from '../../ui/page';
import { platformName } from '../../../../vocabulary/platform-names.ts';

type Polling = KeywordPageQuery['keyword']['polling'][number];

/** When a platform was last read or last failed: "Nov 28, 2026, 3:40 PM (2 hours ago)", the part in brackets kept current. */
function When({ iso }: { iso: string }) {
  const now = useNow();
  return (
    <time dateTime={iso}>
      {dateTime(iso)} ({ago(iso, now)})
    </time>
  );
}

/**
 * Each platform polled for the keyword (spec 2.1 `polling`): when it was last
 * read, and why its last poll failed, so a platform that finds nothing because
 * it cannot be read says so instead of looking quiet.
 */
export function PollingSection({ polling }: { polling: Polling[] }) {
  const failing = polling.filter((entry) => entry.lastError);
  return (
    <Section title="Polling" id="polling">
      {polling.length === 0 ? (
        <p class="empty">No platform is polled for this keyword: it hears only live feeds.</p>
      ) : (
        <>
          {failing.length > 0 && (
            <Notice tone="warning">
              The last poll of {failing.map((entry) => platformName(entry.platform)).join(', ')} failed: nothing new is found there until a poll succeeds.
            </Notice>
          )}
          <DataTable label="Polling by platform" columns={['Platform', 'Last read', { label: 'Empty polls in a row', number: true }, 'Last poll failed']}>
            {polling.map((entry) => (
              <tr key={entry.platform}>
                <th scope="row">{platformName(entry.platform)}</th>
                <td class="wrap">{entry.lastPolledAt ? <When iso={entry.lastPolledAt} /> : 'Not yet'}</td>
                <td class="number">{count(entry.emptyPolls)}</td>
                <td class="wrap">
                  {entry.lastError ? (
                    <>
                      {entry.lastErrorAt && <div><When iso={entry.lastErrorAt} /></div>}
                      <div class="muted">{entry.lastError}</div>
                    </>
                  ) : (
                    '—'
                  )}
                </td>
              </tr>
            ))}
          </DataTable>
        </>
      )}
    </Section>
  );
}
