import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso/router';
import { execute } from '../../api/graphql-client';
import { useAction, useQuery } from '../../api/use-query';
import { graphql } from '../../graphql';
import type { KeywordKind, KeywordListQuery } from '../../graphql/graphql';
import { SelectField, TextField } from '../../ui/fields';
import { count, money, percent } from '../../ui/format';
import { ErrorNotice, Loading } from '../../ui/notice';
import { PageHeader, Section } from '../../ui/page';
import { HealthChip, kindOptions, noiseShare } from './keyword-labels';
import { DataTable } from '../../ui/data-table';
import { ActionForm } from '../../ui/action-form';
import { GroupsSection } from './groups-section';

const KeywordListDocument = graphql(`
  query KeywordList($after: String) {
    keywords(first: 100, after: $after) {
      nodes {
        ...KeywordRunState
        cap { mentions per used }
        group { id name }
      }
      nextCursor
    }
    groups { id name isDefault description keywordCount }
  }
`);

const CreateKeywordDocument = graphql(`
  mutation CreateKeyword($input: CreateKeywordInput!) {
    createKeyword(input: $input) { id }
  }
`);

/** Every keyword with its health, noise share, cap and cost this month; a new one starts collecting at once (spec 4.2). */
export default function KeywordsPage() {
  const list = useQuery(KeywordListDocument, {});
  const { route } = useLocation();
  const [term, setTerm] = useState('');
  const [kind, setKind] = useState<KeywordKind>('brand');
  const [groupId, setGroupId] = useState('');
  // Pages after the first, read on request; a new answer to the first page starts the list again.
  const [later, setLater] = useState<KeywordListQuery['keywords']>();
  useEffect(() => setLater(undefined), [list.data]);
  const nextCursor = later ? later.nextCursor : list.data?.keywords.nextCursor;
  const showMore = useAction(async () => {
    const { keywords } = await execute(KeywordListDocument, { after: nextCursor });
    setLater((shown) => ({ nodes: [...(shown?.nodes ?? []), ...keywords.nodes], nextCursor: keywords.nextCursor }));
  });
  const keywords = [...(list.data?.keywords.nodes ?? []), ...(later?.nodes ?? [])];
  const create = useAction(async () => {
    const { createKeyword } = await execute(CreateKeywordDocument, { input: { term, kind, groupId: groupId || undefined } });
    route(`/keywords/${createKeyword.id}`);
  });

  return (
    <>
      <PageHeader title="Keywords" />
      <ErrorNotice error={list.error} />
      {!list.data ? (
        <Loading label="Loading keywords" />
      ) : keywords.length === 0 ? (
        <p class="empty">No keywords yet: add the first one below.</p>
      ) : (
        <DataTable label="Keywords" columns={['Keyword', 'Group', 'Health', { label: 'Noise (14 days)', number: true }, { label: 'This month', number: true }, { label: 'Cap', number: true }, { label: 'Cost this month', number: true }]}>
          {keywords.map((keyword) => {
            const noise = noiseShare(keyword.stats.noise);
            return (
              <tr key={keyword.id}>
                <th scope="row">
                  <a href={`/keywords/${keyword.id}`}>{keyword.term}</a>
                  <div class="muted">{keyword.kind}</div>
                </th>
                <td>{keyword.group.name}</td>
                <td>
                  <HealthChip keyword={keyword} />
                </td>
                <td class="number">{noise === null ? '—' : `${percent(noise)} of ${count(keyword.stats.noise.scored)}`}</td>
                <td class="number">{count(keyword.stats.thisMonth)}</td>
                <td class="number">{keyword.cap ? `${count(keyword.cap.used)} / ${count(keyword.cap.mentions)} a ${keyword.cap.per}` : 'None'}</td>
                <td class="number">{money(keyword.stats.cost.totalCents)}</td>
              </tr>
            );
          })}
        </DataTable>
      )}
      {nextCursor && (
        <button type="button" class="secondary load-more" disabled={showMore.busy} onClick={() => void showMore.run()}>
          {showMore.busy ? 'Loading…' : 'Show more keywords'}
        </button>
      )}
      <ErrorNotice error={showMore.error} />
      <Section title="Add a keyword">
        <ActionForm onSubmit={() => void create.run()}>
          <div class="grid-2">
            <TextField label="Term" required value={term} onInput={setTerm} maxLength={82} hint='2 to 80 characters; in "double quotes" for an exact phrase' />
            <SelectField label="Kind" value={kind} options={kindOptions} onChange={setKind} />
            <SelectField
              label="Group"
              value={groupId}
              options={[['', 'Default group'], ...(list.data?.groups ?? []).filter((group) => !group.isDefault).map((group) => [group.id, group.name] as [string, string])]}
              onChange={setGroupId}
            />
          </div>
          <ErrorNotice error={create.error} />
          <button type="submit" disabled={create.busy}>
            {create.busy ? 'Adding…' : 'Add keyword'}
          </button>
          <p class="hint">It starts collecting at once, with a look-back over the last 30 days, at $5 a month charged daily.</p>
        </ActionForm>
      </Section>
      {list.data && <GroupsSection groups={list.data.groups} onChanged={() => void list.refetch()} />}
    </>
  );
}
