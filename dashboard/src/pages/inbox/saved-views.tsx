import { useEffect, useRef, useState } from 'preact/hooks';
import { execute } from '../../api/graphql-client';
import { useAction, useQuery } from '../../api/use-query';
import { graphql } from '../../graphql';
import type { SavedViewFragment } from '../../graphql/graphql';
import { ActionForm } from '../../ui/action-form';
import { SelectField, TextField } from '../../ui/fields';
import { ErrorNotice } from '../../ui/notice';
import { type InboxFilters, sameFilters, storedFilter, viewFilters } from './inbox-filters';

/** What the inbox reads of a view: every filter it can hold, so choosing it restores all of them. */
export const SavedViewFields = graphql(`
  fragment SavedView on MentionView {
    id
    name
    sort
    filter {
      keywordId keywordIds notKeywordIds platform platforms notPlatforms status relevant sentiment sentiments notSentiments
      intent intents notIntents automated personId includeMuted assigneeId snoozed excludeAuthors minRelevance minFollowers
      maxFollowers isReply alertId tags notTags linkHosts notLinkHosts languages notLanguages q since until
    }
  }
`);

const SavedViewsDocument = graphql(`
  query SavedViews {
    mentionViews { ...SavedView }
  }
`);

const CreateViewDocument = graphql(`
  mutation CreateView($input: CreateMentionViewInput!) {
    createMentionView(input: $input) { ...SavedView }
  }
`);

const UpdateViewDocument = graphql(`
  mutation UpdateView($id: ID!, $input: MentionViewPatchInput!) {
    updateMentionView(id: $id, input: $input) { ...SavedView }
  }
`);

const DeleteViewDocument = graphql(`
  mutation DeleteView($id: ID!) {
    deleteMentionView(id: $id)
  }
`);

const asFilters = (view: SavedViewFragment) => viewFilters({ id: view.id, filter: view.filter, sort: view.sort });

/**
 * The workspace's saved views (spec 4.3): choosing one puts its filters in
 * the URL, where they can be changed further; the current filters can be
 * saved as a new view or into the chosen one, which can be renamed or deleted.
 */
export function SavedViews({ filters, onApply }: { filters: InboxFilters; onApply(filters: InboxFilters): void }) {
  const views = useQuery(SavedViewsDocument, {});
  const [naming, setNaming] = useState<'new' | 'rename'>();
  const [name, setName] = useState('');
  const group = useRef<HTMLDivElement>(null);
  // The name field takes the keyboard when it opens; the view selector takes it back when it closes, as the field under it is gone.
  const opened = useRef(false);
  useEffect(() => {
    if (naming) group.current?.querySelector<HTMLInputElement>('.saved-view-name input')?.focus();
    else if (opened.current) group.current?.querySelector<HTMLSelectElement>('select')?.focus();
    opened.current = !!naming;
  }, [naming]);
  const current = views.data?.mentionViews.find((view) => view.id === filters.viewId);
  const changed = current ? !sameFilters(asFilters(current), filters) : false;

  const save = useAction(async () => {
    const input = { filter: storedFilter(filters.filter), sort: filters.sort };
    if (naming === 'rename' && current) {
      await execute(UpdateViewDocument, { id: current.id, input: { name } });
    } else {
      const { createMentionView } = await execute(CreateViewDocument, { input: { name, ...input } });
      onApply({ ...filters, viewId: createMentionView.id });
    }
    setNaming(undefined);
    await views.refetch();
  });
  const update = useAction(async () => {
    if (!current) return;
    await execute(UpdateViewDocument, { id: current.id, input: { filter: storedFilter(filters.filter), sort: filters.sort } });
    await views.refetch();
  });
  const remove = useAction(async () => {
    if (!current) return;
    await execute(DeleteViewDocument, { id: current.id });
    onApply({ ...filters, viewId: undefined });
    await views.refetch();
  });

  const startNaming = (mode: 'new' | 'rename') => {
    save.reset();
    setName(mode === 'rename' && current ? current.name : '');
    setNaming(mode);
  };
  const options = [['', 'None'], ...(views.data?.mentionViews ?? []).map((view) => [view.id, view.name] as const)] as const;

  return (
    <div class="saved-views" ref={group} role="group" aria-label="Views of the inbox">
      <SelectField
        label="Saved view"
        value={current?.id ?? ''}
        options={options}
        hint={changed ? 'Filters changed since the view was chosen' : undefined}
        onChange={(id) => {
          const view = views.data?.mentionViews.find((item) => item.id === id);
          onApply(view ? asFilters(view) : { ...filters, viewId: undefined });
        }}
      />
      <div class="saved-view-actions">
        {current && changed && (
          <button type="button" disabled={update.busy} onClick={() => void update.run()}>
            Save changes to {current.name}
          </button>
        )}
        <button type="button" class="secondary" onClick={() => startNaming('new')}>
          Save as a new view
        </button>
        {current && (
          <>
            <button type="button" class="secondary" onClick={() => startNaming('rename')}>
              Rename
            </button>
            <button type="button" class="secondary" disabled={remove.busy} onClick={() => void remove.run()}>
              Delete the view {current.name}
            </button>
          </>
        )}
      </div>
      {naming && (
        <ActionForm class="saved-view-name" onSubmit={() => void save.run()}>
          <TextField label={naming === 'new' ? 'Name of the new view' : `New name for ${current?.name ?? 'the view'}`} value={name} required maxLength={100} onInput={setName} />
          <button type="submit" disabled={save.busy}>
            {naming === 'new' ? 'Save the view' : 'Rename the view'}
          </button>
          <button type="button" class="secondary" onClick={() => setNaming(undefined)}>
            Cancel
          </button>
        </ActionForm>
      )}
      <ErrorNotice error={views.error ?? save.error ?? update.error ?? remove.error} />
    </div>
  );
}
