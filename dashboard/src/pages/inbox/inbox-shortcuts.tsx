import type { MentionPatchInput } from '../../graphql/graphql';

/** The inbox's keyboard shortcuts: each key, what it does, and the triage it sends (if any). */
export const triageKeys: Record<string, { label: string; patch: MentionPatchInput }> = {
  d: { label: 'Mark done', patch: { status: 'done' } },
  i: { label: 'Ignore', patch: { status: 'ignored' } },
  o: { label: 'Reopen', patch: { status: 'open' } },
  y: { label: 'Relevant', patch: { relevant: true } },
  n: { label: 'Not relevant', patch: { relevant: false } },
  u: { label: 'Withdraw the relevance verdict', patch: { relevant: null } },
  '1': { label: 'Sentiment positive', patch: { sentiment: 'positive' } },
  '2': { label: 'Sentiment neutral', patch: { sentiment: 'neutral' } },
  '3': { label: 'Sentiment negative', patch: { sentiment: 'negative' } },
  '0': { label: 'Sentiment as scored', patch: { sentiment: null } },
};

/** Keys that open a picker for the mention the keyboard is on. */
export const pickerKeys: Record<string, { label: string; kind: 'assign' | 'snooze' }> = {
  a: { label: 'Assign to a member…', kind: 'assign' },
  s: { label: 'Snooze…', kind: 'snooze' },
};

export const movementKeys: Record<string, string> = {
  j: 'Next mention',
  k: 'Previous mention',
  x: 'Select or unselect the mention',
};

/** Whether a key press belongs to a form control (typing), not to the shortcuts. */
export function typingIn(event: KeyboardEvent): boolean {
  const target = event.target as HTMLElement | null;
  return !!target && (target.isContentEditable || ['INPUT', 'SELECT', 'TEXTAREA'].includes(target.tagName));
}

export function ShortcutList() {
  const rows = [...Object.entries(movementKeys), ...[...Object.entries(triageKeys), ...Object.entries(pickerKeys)].map(([key, { label }]) => [key, label] as const)];
  return (
    <details class="shortcuts">
      <summary>Keyboard shortcuts</summary>
      <dl>
        {rows.map(([key, label]) => (
          <div key={key}>
            <dt>
              <kbd>{key}</kbd>
            </dt>
            <dd>{label}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
