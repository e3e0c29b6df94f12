import { useLocation } from 'preact-iso/router';
import { execute } from '../../api/graphql-client';
import { useAction, useQuery } from '../../api/use-query';
import type { KeywordPatchInput } from '../../graphql/graphql';
import { count, date, money, percent, counted } from '../../ui/format';
import { ErrorNotice, Notice } from '../../ui/notice';
import { PageHeader, PageLoading, Section } from '../../ui/page';
import { platformName } from '../../../../vocabulary/platform-names.ts';
import { KeywordEditor } from './keyword-editor';
import { DeleteKeywordDocument, KeywordPageDocument, UpdateKeywordDocument } from './keyword-fields';
import { HealthChip } from './keyword-labels';
import { type Suggestion, SuggestionCard } from './keyword-suggestions';
import { PollingSection } from './polling-section';
import { DataTable } from '../../ui/data-table';
import { Figures } from '../../ui/figures';

/** One keyword: its health report and suggestions, and an editor for every setting of spec 2.1. */
export default function KeywordPage({ id }: { id: string }) {
  const page = useQuery(KeywordPageDocument, { id });
  const { route } = useLocation();
  const remove = useAction(async () => {
    if (!confirm('Delete this keyword and its mentions? What was charged stays in the ledger.')) return;
    await execute(DeleteKeywordDocument, { id });
    route('/keywords');
  });

  const save = async (patch: KeywordPatchInput) => {
    await execute(UpdateKeywordDocument, { id, input: patch });
    await page.refetch();
  };
  const apply = useAction(async (suggestion: Suggestion) => {
    await save(suggestion.patch as KeywordPatchInput);
    return suggestion.values.join(', ');
  });

  if (!page.data) {
    return <PageLoading title="Keyword" error={page.error} label="Loading the keyword" />;
  }
  const { keyword, keywordHealth: health, keywordSuggestions: suggestions, groups } = page.data;
  const stats = health.stats;

  return (
    <>
      <PageHeader title={keyword.term}>
        <HealthChip keyword={keyword} />
        <a href={`/inbox?keywords=${keyword.id}`}>Mentions</a>
      </PageHeader>
      <ErrorNotice error={page.error} />
      <Figures
        figures={[
          ['Matches ever', count(keyword.stats.mentions)],
          ['Relevant ever', count(keyword.stats.relevant)],
          ['This month', count(keyword.stats.thisMonth)],
          ['Cost this month', money(keyword.stats.cost.totalCents)],
        ]}
      />

      <Section title={`Health over ${counted(health.window.days, 'day')}`} id="health">
        <p>
          <span class="chip">{health.status}</span> {health.reasons[0]}
        </p>
        {health.reasons.length > 1 && (
          <ul>
            {health.reasons.slice(1).map((reason) => (
              <li key={reason}>{reason}</li>
            ))}
          </ul>
        )}
        <Figures
          figures={[
            ['Matches', count(stats.matches)],
            ['Relevant', count(stats.relevant)],
            ['Filtered (billed)', count(stats.filtered)],
            ['Not scored', count(stats.unscored)],
            ['Noise share', stats.noiseShare == null ? '—' : percent(stats.noiseShare)],
            ['Share of the workspace', stats.workspaceShare == null ? '—' : percent(stats.workspaceShare)],
          ]}
        />
        {stats.judgedSince && <p class="hint">Judged on matches since the rules last changed, {date(stats.judgedSince)}.</p>}
        {stats.byPlatform.length > 0 && (
          <DataTable label="Health by platform" columns={['Platform', { label: 'Matches', number: true }, { label: 'Relevant', number: true }, { label: 'Filtered', number: true }, { label: 'Noise share', number: true }]}>
            {stats.byPlatform.map((row) => (
              <tr key={row.platform}>
                <th scope="row">{platformName(row.platform)}</th>
                <td class="number">{count(row.matches)}</td>
                <td class="number">{count(row.relevant)}</td>
                <td class="number">{count(row.filtered)}</td>
                <td class="number">{row.noiseShare == null ? '—' : percent(row.noiseShare)}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </Section>

      <PollingSection polling={keyword.polling} />

      <Section title="Suggestions" id="suggestions">
        <ErrorNotice error={apply.error} />
        {apply.outcome && <Notice tone="success">Applied: {apply.outcome}.</Notice>}
        {suggestions.length === 0 ? (
          <p class="empty">No suggestions: nothing measurable would cut this keyword's noise.</p>
        ) : (
          suggestions.map((suggestion) => (
            <SuggestionCard
              key={`${suggestion.type}:${suggestion.values.join(',')}`}
              suggestion={suggestion}
              applying={apply.busy}
              onApply={() => void apply.run(suggestion)}
            />
          ))
        )}
      </Section>

      <KeywordEditor keyword={keyword} groups={groups} onSave={save} />

      <Section title="Delete">
        <p>Deleting removes the keyword and its mentions, takes it out of every alert rule, and stops its daily charge.</p>
        <ErrorNotice error={remove.error} />
        <button type="button" class="danger" disabled={remove.busy} onClick={() => void remove.run()}>
          Delete “{keyword.term}”
        </button>
      </Section>
    </>
  );
}
