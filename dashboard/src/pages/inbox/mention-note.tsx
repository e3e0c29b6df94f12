import { useEffect, useState } from 'preact/hooks';
import { ActionForm } from '../../ui/action-form';
import { TextArea } from '../../ui/fields';

/**
 * A mention's triage note (spec 2.4 `triage.note`): what the team writes
 * about it, and the lines a chat alert's Interacted button appends (spec
 * 6.4), shown on the card and edited in place; a blank note clears it.
 */
export function MentionNote({ note, busy, onSave }: { note: string | null; busy: boolean; onSave(note: string | null): void }) {
  const [text, setText] = useState(note ?? '');
  useEffect(() => setText(note ?? ''), [note]);
  const typed = text.trim() || null;
  return (
    <>
      {note && (
        <p class="mention-note">
          <strong>Note:</strong> {note}
        </p>
      )}
      <details class="person">
        <summary>{note ? 'Edit the note' : 'Add a note'}</summary>
        <ActionForm onSubmit={() => onSave(typed)}>
          <TextArea label="Note on this mention" rows={3} maxLength={2000} value={text} onInput={setText} />
          <button type="submit" disabled={busy || typed === note}>
            Save the note
          </button>
        </ActionForm>
      </details>
    </>
  );
}
