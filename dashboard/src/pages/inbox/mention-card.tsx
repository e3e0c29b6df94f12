import { useState } from 'preact/hooks';
import type { InboxMentionFragment, MentionPatchInput } from '../../graphql/graphql';
import { counted, dateTime } from '../../ui/format';
import { RelativeTime } from '../../ui/relative-time';
import { MentionNote } from './mention-note';
import { PersonCard, stageLabels } from './person-card';
import { ThreadComments } from './thread-comments';
import { platformName } from '../../../../vocabulary/platform-names.ts';

const sentiments = ['positive', 'neutral', 'negative'] as const;

/** One mention with its triage controls; `current` is the one the keyboard acts on. */
export function MentionCard({
  mention,
  current,
  selected,
  fresh,
  busy,
  assigneeName,
  onTriage,
  onPick,
  onSelect,
  onFocus,
}: {
  mention: InboxMentionFragment;
  current: boolean;
  selected: boolean;
  fresh: boolean;
  busy: boolean;
  assigneeName: string | undefined;
  onTriage(patch: MentionPatchInput): void;
  onPick(kind: 'assign' | 'snooze'): void;
  onSelect(selected: boolean): void;
  onFocus(): void;
}) {
  const classification = mention.classification;
  const verdict = classification?.feedback?.relevant;
  const correctedSentiment = classification?.feedback?.sentiment;
  const headingId = `mention-${mention.id}-title`;
  // The person is read only once their card is opened.
  const [personOpen, setPersonOpen] = useState(false);
  const [threadOpen, setThreadOpen] = useState(false);
  const snoozedUntil = mention.triage.snoozedUntil && Date.parse(mention.triage.snoozedUntil) > Date.now() ? mention.triage.snoozedUntil : undefined;
  return (
    <article
      class={`mention${current ? ' current' : ''}${fresh ? ' fresh' : ''}`}
      id={`mention-${mention.id}`}
      tabIndex={-1}
      aria-labelledby={headingId}
      aria-busy={busy}
      data-status={mention.status}
      onFocusIn={onFocus}
    >
      <div class="mention-head">
        <input type="checkbox" checked={selected} aria-label={`Select the mention by ${mention.author.name}`} onChange={(event) => onSelect(event.currentTarget.checked)} />
        {/* Level 2: the page's h1 is the inbox, and nothing stands between. */}
        <h2 id={headingId}>
          <span class="platform">{platformName(mention.post.platform)}</span> · {mention.author.name}
          {mention.author.handle && mention.author.handle !== mention.author.name && <span class="muted"> @{mention.author.handle}</span>}
        </h2>
        <span class="keyword-chip">{mention.keyword.term}</span>
        {fresh && <span class="chip chip-new">New</span>}
      </div>
      <p class="mention-meta">
        <RelativeTime iso={mention.post.publishedAt} />
        {mention.author.followers > 0 && <> · {counted(mention.author.followers, 'follower')}</>}
        {mention.post.replyTo && <> · reply</>}
        {' · '}
        {classification?.relevance == null ? (
          <span class="chip">{classification?.failed ? 'Scoring failed' : 'Scoring…'}</span>
        ) : (
          <span class={`chip ${mention.relevant ? 'chip-good' : ''}`}>Relevance {classification.relevance}</span>
        )}
        {classification?.sentiment && <span class={`chip sentiment-${classification.sentiment}`}>{classification.sentiment}{correctedSentiment ? ' (corrected)' : ''}</span>}
        {classification?.intents.map((intent) => (
          <span key={intent} class="chip">
            {intent.replace('_', ' ')}
          </span>
        ))}
        {mention.status !== 'open' && <span class="chip chip-status">{mention.status}</span>}
        {mention.triage.assignee && <span class="chip">Assigned to {assigneeName ?? 'a former member'}</span>}
        {snoozedUntil && <span class="chip">Snoozed until {dateTime(snoozedUntil)}</span>}
      </p>
      <p class="mention-text">{mention.post.text}</p>
      <div class="mention-actions" role="group" aria-label="Triage">
        <a href={mention.post.url} target="_blank" rel="noopener noreferrer">
          Open post<span class="visually-hidden"> (new tab)</span>
        </a>
        {mention.status === 'open' ? (
          <>
            <button type="button" disabled={busy} onClick={() => onTriage({ status: 'done' })} aria-keyshortcuts="d">
              Done
            </button>
            <button type="button" class="secondary" disabled={busy} onClick={() => onTriage({ status: 'ignored' })} aria-keyshortcuts="i">
              Ignore
            </button>
          </>
        ) : (
          <button type="button" class="secondary" disabled={busy} onClick={() => onTriage({ status: 'open' })} aria-keyshortcuts="o">
            Reopen
          </button>
        )}
        <button type="button" class="secondary" disabled={busy} aria-pressed={verdict === true} onClick={() => onTriage({ relevant: verdict === true ? null : true })} aria-keyshortcuts="y">
          Relevant
        </button>
        <button type="button" class="secondary" disabled={busy} aria-pressed={verdict === false} onClick={() => onTriage({ relevant: verdict === false ? null : false })} aria-keyshortcuts="n">
          Not relevant
        </button>
        <button type="button" class="secondary" disabled={busy} onClick={() => onPick('assign')} aria-keyshortcuts="a" aria-haspopup="dialog">
          Assign…
        </button>
        <button type="button" class="secondary" disabled={busy} onClick={() => onPick('snooze')} aria-keyshortcuts="s" aria-haspopup="dialog">
          Snooze…
        </button>
        <label class="inline-select">
          <span>Sentiment</span>
          <select
            value={correctedSentiment ?? ''}
            disabled={busy}
            onChange={(event) => onTriage({ sentiment: event.currentTarget.value || null })}
          >
            <option value="">{classification?.feedback ? `As scored (${classification.feedback.original.sentiment ?? 'none'})` : 'As scored'}</option>
            {sentiments.map((sentiment) => (
              <option key={sentiment} value={sentiment}>
                {sentiment}
              </option>
            ))}
          </select>
        </label>
      </div>
      <MentionNote note={mention.triage.note ?? null} busy={busy} onSave={(note) => onTriage({ note })} />
      <details class="person" onToggle={(event) => setThreadOpen(event.currentTarget.open)}>
        <summary>Comments in the thread</summary>
        {threadOpen && <ThreadComments mentionId={mention.id} />}
      </details>
      <details class="person" onToggle={(event) => setPersonOpen(event.currentTarget.open)}>
        <summary>
          Outreach with {mention.author.name}: {stageLabels[mention.person.outreach.stage as keyof typeof stageLabels] ?? mention.person.outreach.stage}
        </summary>
        {personOpen && <PersonCard personId={mention.person.id} />}
      </details>
    </article>
  );
}
