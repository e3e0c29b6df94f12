import { useEffect, useRef } from 'preact/hooks';
import type { MentionPatchInput } from '../../graphql/graphql';

/** What a picker is asked for: whom to assign, or until when to snooze, one mention or a selection. */
export interface PickerRequest {
  kind: 'assign' | 'snooze';
  ids: string[];
  /** Who the mentions are, as the dialog's title says it: "the mention by ada", "3 mentions". */
  subject: string;
}

const hour = 3_600_000;

/** The snooze choices, from now: the mention stays out of the list until then (spec 4.3). */
function snoozeChoices(now: Date): [string, Date][] {
  const tomorrow = new Date(now);
  tomorrow.setDate(now.getDate() + 1);
  tomorrow.setHours(9, 0, 0, 0);
  const monday = new Date(now);
  monday.setDate(now.getDate() + ((8 - now.getDay()) % 7 || 7));
  monday.setHours(9, 0, 0, 0);
  return [
    ['For an hour', new Date(now.getTime() + hour)],
    ['For four hours', new Date(now.getTime() + 4 * hour)],
    ['Until tomorrow 9:00', tomorrow],
    ['Until Monday 9:00', monday],
  ];
}

/**
 * A modal list of choices for the assign and snooze shortcuts and buttons:
 * the first choice has the focus, arrows or Tab move, Enter picks, Escape
 * closes without a change and gives the focus back.
 */
export function TriagePicker({
  request,
  members,
  onPick,
  onClose,
}: {
  request: PickerRequest;
  members: { id: string; name: string }[];
  onPick(patch: MentionPatchInput): void;
  onClose(): void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  const choices: [string, MentionPatchInput][] =
    request.kind === 'assign'
      ? [...members.map((member): [string, MentionPatchInput] => [member.name, { assigneeId: member.id }]), ['Nobody', { assigneeId: null }]]
      : [...snoozeChoices(new Date()).map(([label, until]): [string, MentionPatchInput] => [label, { snoozedUntil: until.toISOString() }]), ['Wake it now', { snoozedUntil: null }]];
  const title = request.kind === 'assign' ? `Assign ${request.subject} to` : `Snooze ${request.subject}`;
  const move = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const buttons = [...(dialog.current?.querySelectorAll<HTMLButtonElement>('.picker-choices button') ?? [])];
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    buttons[(at + (event.key === 'ArrowDown' ? 1 : buttons.length - 1)) % buttons.length]?.focus();
    event.preventDefault();
  };
  return (
    <dialog ref={dialog} class="picker" aria-labelledby="picker-title" onClose={onClose} onKeyDown={move}>
      <h2 id="picker-title">{title}</h2>
      <ul class="picker-choices">
        {choices.map(([label, patch], index) => (
          <li key={label}>
            <button type="button" class="secondary" autoFocus={index === 0} onClick={() => onPick(patch)}>
              {label}
            </button>
          </li>
        ))}
      </ul>
      <button type="button" class="secondary" onClick={() => dialog.current?.close()}>
        Cancel
      </button>
    </dialog>
  );
}
