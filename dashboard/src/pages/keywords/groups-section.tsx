import { useState } from 'preact/hooks';
import { execute } from '../../api/graphql-client';
import { useAction } from '../../api/use-query';
import { graphql } from '../../graphql';
import type { KeywordListQuery } from '../../graphql/graphql';
import { ActionForm } from '../../ui/action-form';
import { DataTable } from '../../ui/data-table';
import { TextArea, TextField } from '../../ui/fields';
import { count } from '../../ui/format';
import { ErrorNotice } from '../../ui/notice';
import { Section } from '../../ui/page';

const CreateGroupDocument = graphql(`
  mutation CreateGroup($input: CreateGroupInput!) {
    createGroup(input: $input) { id }
  }
`);

const UpdateGroupDocument = graphql(`
  mutation UpdateGroup($id: ID!, $input: GroupPatchInput!) {
    updateGroup(id: $id, input: $input) { id }
  }
`);

const DeleteGroupDocument = graphql(`
  mutation DeleteGroup($id: ID!) {
    deleteGroup(id: $id)
  }
`);

type Group = KeywordListQuery['groups'][number];

const descriptionHint = 'What the classifier reads for every keyword of the group, in place of the company profile; at most 1,000 characters.';

/**
 * The workspace's groups (spec 2.2): a group tracks a term once and may carry
 * a description the classifier reads for its keywords. Deleting one moves its
 * keywords to the default group, which can be renamed but neither deleted
 * nor given a description (spec 7 `default_group`, `default_group_context`).
 */
export function GroupsSection({ groups, onChanged }: { groups: Group[]; onChanged(): void }) {
  const [editing, setEditing] = useState<Group>();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const create = useAction(async () => {
    await execute(CreateGroupDocument, { input: { name, description: description.trim() || undefined } });
    setName('');
    setDescription('');
    onChanged();
  });
  const remove = useAction(async (group: Group) => {
    if (!confirm(`Delete the group “${group.name}”? Its keywords move to the default group.`)) return;
    await execute(DeleteGroupDocument, { id: group.id });
    onChanged();
  });

  return (
    <Section title="Groups">
      <DataTable label="Groups of keywords" columns={['Group', { label: 'Keywords', number: true }, 'Description for the classifier', 'Actions']}>
        {groups.map((group) => (
          <tr key={group.id}>
            <th scope="row">
              {group.name}
              {group.isDefault && <div class="muted">default</div>}
            </th>
            <td class="number">{count(group.keywordCount)}</td>
            <td>{group.isDefault ? <span class="muted">the company profile</span> : (group.description ?? '—')}</td>
            <td class="actions">
              <button type="button" class="secondary" onClick={() => setEditing(group)}>
                Edit<span class="visually-hidden"> {group.name}</span>
              </button>
              {!group.isDefault && (
                <button type="button" class="danger" disabled={remove.busy} onClick={() => void remove.run(group)}>
                  Delete<span class="visually-hidden"> {group.name}</span>
                </button>
              )}
            </td>
          </tr>
        ))}
      </DataTable>
      <ErrorNotice error={remove.error} />
      {editing && (
        <GroupEditor
          key={editing.id}
          group={editing}
          onDone={(changed) => {
            setEditing(undefined);
            if (changed) onChanged();
          }}
        />
      )}
      <h3>New group</h3>
      <ActionForm onSubmit={() => void create.run()}>
        <TextField label="Group name" required maxLength={100} value={name} onInput={setName} />
        <TextArea label="Description" rows={2} maxLength={1000} value={description} onInput={setDescription} hint={descriptionHint} />
        <ErrorNotice error={create.error} />
        <button type="submit" disabled={create.busy}>
          {create.busy ? 'Adding…' : 'Add group'}
        </button>
      </ActionForm>
    </Section>
  );
}

/** Renames a group and, but for the default group, changes its description; a blank description clears it. */
function GroupEditor({ group, onDone }: { group: Group; onDone(changed: boolean): void }) {
  const [name, setName] = useState(group.name);
  const [description, setDescription] = useState(group.description ?? '');
  const save = useAction(async () => {
    const text = description.trim() || null;
    await execute(UpdateGroupDocument, {
      id: group.id,
      input: { ...(name !== group.name ? { name } : {}), ...(!group.isDefault && text !== group.description ? { description: text } : {}) },
    });
    onDone(true);
  });
  return (
    <ActionForm onSubmit={() => void save.run()}>
      <h3>Edit “{group.name}”</h3>
      <TextField label="New name" required maxLength={100} value={name} onInput={setName} />
      {!group.isDefault && <TextArea label="Group description" rows={2} maxLength={1000} value={description} onInput={setDescription} hint={descriptionHint} />}
      <ErrorNotice error={save.error} />
      <div class="form-actions">
        <button type="submit" disabled={save.busy}>
          {save.busy ? 'Saving…' : 'Save group'}
        </button>
        <button type="button" class="secondary" onClick={() => onDone(false)}>
          Cancel
        </button>
      </div>
    </ActionForm>
  );
}
