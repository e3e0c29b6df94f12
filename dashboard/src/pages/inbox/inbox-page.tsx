import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso/router';
import { execute } from '../../api/graphql-client';
import { useKeywordChoices } from '../../api/keyword-choices';
import { onReconnected, subscribe } from '../../api/live-updates';
import { useQuery } from '../../api/use-query';
import type { InboxMentionFragment, MentionPatchInput } from '../../graphql/graphql';
import { counted } from '../../ui/format';
import { ErrorNotice, Loading } from '../../ui/notice';
import { PageHeader } from '../../ui/page';
import { arrivalFits, filtersFromQuery, filtersToSearch, InboxFilterBar, type InboxFilters, queryVariables, sortMentions, staysListed, takesOut } from './inbox-filters';
import { pickerKeys, ShortcutList, triageKeys, typingIn } from './inbox-shortcuts';
import { MentionCard } from './mention-card';
import { BulkTriageDocument, InboxChoicesDocument, InboxMentionDocument, InboxMentionsDocument, LiveMentionsDocument, LiveMentionUpdatesDocument, TriageMentionDocument } from './mention-fields';
import { SavedViews } from './saved-views';
import { type PickerRequest, TriagePicker } from './triage-picker';

/**
 * When a mention that arrived unscored is read again for its score, if its
 * score has not come over the live connection by then (a drop, a missed
 * event): a poll of a hundred posts read each one again, a hundred requests
 * at once, when the scores come as events anyway.
 */
const rescoreDelaysMs = [8_000, 20_000, 60_000];

export default function InboxPage() {
  const { query, route } = useLocation();
  const filters = filtersFromQuery(query);
  const variables = queryVariables(filters);
  const page = useQuery(InboxMentionsDocument, variables);
  const choices = useQuery(InboxChoicesDocument, {});
  const keywordChoices = useKeywordChoices();
  const [mentions, setMentions] = useState<InboxMentionFragment[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [fresh, setFresh] = useState<Set<string>>(new Set());
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState<Set<string>>(new Set());
  const [currentId, setCurrentId] = useState<string>();
  const [announcement, setAnnouncement] = useState('');
  const [error, setError] = useState<unknown>();
  const [loadingMore, setLoadingMore] = useState(false);
  const [picker, setPicker] = useState<PickerRequest>();
  const [focusNext, setFocusNext] = useState<string>();
  const filtersRef = useRef(filters);
  filtersRef.current = filters;
  const shownRef = useRef<InboxMentionFragment[]>([]);

  useEffect(() => {
    if (!page.data) return;
    setMentions(page.data.mentions.nodes);
    setCursor(page.data.mentions.nextCursor ?? null);
    setSelected(new Set());
  }, [page.data]);

  const replace = useCallback((mention: InboxMentionFragment, keep: boolean) => {
    setMentions((list) => (keep ? list.map((item) => (item.id === mention.id ? mention : item)) : list.filter((item) => item.id !== mention.id)));
    if (keep) return;
    setSelected((set) => new Set([...set].filter((id) => id !== mention.id)));
    // A mention leaving the view hands the keyboard to the next one.
    const list = shownRef.current;
    const at = list.findIndex((item) => item.id === mention.id);
    setCurrentId((current) => (current === mention.id ? (list[at + 1] ?? list[at - 1])?.id : current));
  }, []);

  // New mentions arrive over graphql-ws while the page is open.
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);
  useEffect(() => {
    const rescore = (id: string, attempt: number) => {
      if (attempt >= rescoreDelaysMs.length) return;
      timers.current.push(
        setTimeout(async () => {
          const shown = shownRef.current.find((item) => item.id === id);
          if (!shown || shown.classification?.relevance != null || shown.classification?.failed) return;
          try {
            const { mention } = await execute(InboxMentionDocument, { id });
            if (mention.classification?.relevance == null && !mention.classification?.failed) return rescore(id, attempt + 1);
            replace(mention, arrivalFits(mention, filtersRef.current));
          } catch {
            // Gone (deleted) or unreachable: the next refresh says which.
          }
        }, rescoreDelaysMs[attempt]),
      );
    };
    const stop = subscribe(LiveMentionsDocument, ({ mentionCreated }) => {
      if (!mentionCreated || !arrivalFits(mentionCreated, filtersRef.current)) return;
      setMentions((list) => (list.some((item) => item.id === mentionCreated.id) ? list : [mentionCreated, ...list]));
      setFresh((set) => new Set(set).add(mentionCreated.id));
      setAnnouncement(`New mention on ${mentionCreated.post.platform} for ${mentionCreated.keyword.term}`);
      if (mentionCreated.classification?.relevance == null) rescore(mentionCreated.id, 0);
    });
    // A listed mention changed anywhere (scored, or triaged by a teammate) is replaced where it is, or leaves the view it no longer fits.
    const stopUpdates = subscribe(LiveMentionUpdatesDocument, ({ mentionUpdated }) => {
      const shown = mentionUpdated && shownRef.current.find((item) => item.id === mentionUpdated.id);
      if (!mentionUpdated || !shown) return;
      const scoredNow = shown.classification?.relevance == null && mentionUpdated.classification?.relevance != null;
      replace(mentionUpdated, scoredNow ? arrivalFits(mentionUpdated, filtersRef.current) : staysListed(mentionUpdated, filtersRef.current));
    });
    return () => {
      stop();
      stopUpdates();
      timers.current.forEach(clearTimeout);
    };
  }, [replace]);

  // Mentions stored while the live connection was down never arrive over it: the list is read again once it is back.
  const { refetch } = page;
  useEffect(() => onReconnected(() => void refetch()), [refetch]);

  const triage = useCallback(
    async (id: string, patch: MentionPatchInput) => {
      setBusy((set) => new Set(set).add(id));
      try {
        const { updateMention } = await execute(TriageMentionDocument, { id, input: patch });
        replace(updateMention, staysListed(updateMention, filtersRef.current));
      } catch (failure) {
        setError(failure);
      } finally {
        setBusy((set) => {
          const next = new Set(set);
          next.delete(id);
          return next;
        });
      }
    },
    [replace],
  );

  // One request for the whole selection, all or nothing (spec 4.3's bulk triage).
  const triageMany = async (ids: string[], patch: MentionPatchInput) => {
    setError(undefined);
    setBusy((set) => new Set([...set, ...ids]));
    try {
      const { updateMentions } = await execute(BulkTriageDocument, { ids, changes: patch });
      for (const mention of updateMentions) replace(mention, staysListed(mention, filtersRef.current));
      setAnnouncement(`${counted(updateMentions.length, 'mention')} updated`);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy((set) => new Set([...set].filter((id) => !ids.includes(id))));
    }
  };

  const triageSelected = (patch: MentionPatchInput) => triageMany([...selected], patch);
  const members = choices.data?.members ?? [];
  const memberName = (id: string | null | undefined) => members.find((member) => member.id === id)?.name;

  const shown = sortMentions(mentions, filters.sort);
  shownRef.current = shown;
  const currentIndex = Math.max(0, shown.findIndex((mention) => mention.id === currentId));

  const focusAt = (index: number) => {
    const mention = shown[Math.min(Math.max(index, 0), shown.length - 1)];
    if (!mention) return;
    setCurrentId(mention.id);
    document.getElementById(`mention-${mention.id}`)?.focus();
  };

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (picker || typingIn(event) || event.ctrlKey || event.metaKey || event.altKey) return;
      const mention = shown[currentIndex];
      if (event.key === 'j') focusAt(currentIndex + (currentId ? 1 : 0));
      else if (event.key === 'k') focusAt(currentIndex - 1);
      else if (event.key === 'x' && mention) toggleSelected(mention.id, !selected.has(mention.id));
      else if (pickerKeys[event.key] && mention) {
        setPicker({ kind: pickerKeys[event.key].kind, ids: [mention.id], subject: `the mention by ${mention.author.name}` });
      }
      else if (triageKeys[event.key] && mention) {
        const { patch } = triageKeys[event.key];
        void triage(mention.id, patch);
        // A mention about to leave the view hands the keyboard on at once, so the next key acts on the next mention.
        const next = shown[currentIndex + 1] ?? shown[currentIndex - 1];
        if (next && takesOut(mention, patch, filters)) setCurrentId(next.id);
      } else return;
      event.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  });

  useEffect(() => {
    if (!focusNext) return;
    setFocusNext(undefined);
    setCurrentId(focusNext);
    document.getElementById(`mention-${focusNext}`)?.focus();
  }, [focusNext]);

  // A closed picker gives the keyboard back to the mention it acted on (or the one after it).
  useEffect(() => {
    if (!picker && currentId) document.getElementById(`mention-${currentId}`)?.focus();
  }, [picker]);

  const pick = (request: PickerRequest, patch: MentionPatchInput) => {
    setPicker(undefined);
    void (request.ids.length === 1 ? triage(request.ids[0], patch) : triageMany(request.ids, patch));
  };

  const toggleSelected = (id: string, on: boolean) =>
    setSelected((set) => {
      const next = new Set(set);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const loadMore = async () => {
    if (!cursor) return;
    setLoadingMore(true);
    try {
      const { mentions: more } = await execute(InboxMentionsDocument, { ...variables, after: cursor });
      const added = more.nodes.filter((mention) => !shownRef.current.some((item) => item.id === mention.id));
      setMentions((list) => [...list, ...more.nodes.filter((mention) => !list.some((item) => item.id === mention.id))]);
      setCursor(more.nextCursor ?? null);
      // The keyboard goes on to the first mention loaded, where reading goes on (the button goes away after the last page).
      if (added[0]) setFocusNext(added[0].id);
    } catch (failure) {
      setError(failure);
    } finally {
      setLoadingMore(false);
    }
  };

  return (
    <div class="inbox">
      <PageHeader title="Inbox">
        <ShortcutList />
      </PageHeader>
      <SavedViews filters={filters} onApply={(next: InboxFilters) => route(`/inbox${filtersToSearch(next)}`)} />
      <InboxFilterBar filters={filters} choices={choices.data} keywords={keywordChoices.keywords} onChange={(next: InboxFilters) => route(`/inbox${filtersToSearch(next)}`)} />
      <p class="visually-hidden" aria-live="polite">
        {announcement}
      </p>
      <ErrorNotice error={error ?? page.error ?? keywordChoices.error} />
      <div class="bulk-bar" role="toolbar" aria-label="Selected mentions" hidden={shown.length === 0}>
        <label class="checkbox">
          <input
            type="checkbox"
            checked={shown.length > 0 && selected.size === shown.length}
            onChange={(event) => setSelected(event.currentTarget.checked ? new Set(shown.map((mention) => mention.id)) : new Set())}
          />
          <span>{selected.size ? `${selected.size} selected` : 'Select all'}</span>
        </label>
        <button type="button" disabled={!selected.size} onClick={() => void triageSelected({ status: 'done' })}>
          Done
        </button>
        <button type="button" class="secondary" disabled={!selected.size} onClick={() => void triageSelected({ status: 'ignored' })}>
          Ignore
        </button>
        <button type="button" class="secondary" disabled={!selected.size} onClick={() => void triageSelected({ relevant: true })}>
          Relevant
        </button>
        <button type="button" class="secondary" disabled={!selected.size} onClick={() => void triageSelected({ relevant: false })}>
          Not relevant
        </button>
        <button type="button" class="secondary" disabled={!selected.size} onClick={() => setPicker({ kind: 'assign', ids: [...selected], subject: counted(selected.size, 'mention') })}>
          Assign…
        </button>
        <button type="button" class="secondary" disabled={!selected.size} onClick={() => setPicker({ kind: 'snooze', ids: [...selected], subject: counted(selected.size, 'mention') })}>
          Snooze…
        </button>
      </div>
      {picker && <TriagePicker request={picker} members={members} onPick={(patch) => pick(picker, patch)} onClose={() => setPicker(undefined)} />}
      {page.loading && !page.data ? (
        <Loading label="Loading mentions" />
      ) : shown.length === 0 && keywordChoices.keywords?.length === 0 ? (
        <p class="empty">
          No keywords are tracked yet. <a href="/keywords">Add your first keyword</a> and its mentions appear here as they are found.
        </p>
      ) : shown.length === 0 ? (
        <p class="empty">No mentions match these filters. New ones appear here as they are found.</p>
      ) : (
        <div class="mention-list" aria-label="Mentions">
          {shown.map((mention) => (
            <MentionCard
              key={mention.id}
              mention={mention}
              current={mention.id === currentId}
              selected={selected.has(mention.id)}
              fresh={fresh.has(mention.id)}
              busy={busy.has(mention.id)}
              assigneeName={memberName(mention.triage.assignee)}
              onTriage={(patch) => void triage(mention.id, patch)}
              onPick={(kind) => setPicker({ kind, ids: [mention.id], subject: `the mention by ${mention.author.name}` })}
              onSelect={(on) => toggleSelected(mention.id, on)}
              onFocus={() => setCurrentId(mention.id)}
            />
          ))}
        </div>
      )}
      {cursor && (
        <button type="button" class="secondary load-more" disabled={loadingMore} onClick={() => void loadMore()}>
          {loadingMore ? 'Loading…' : 'Load more'}
        </button>
      )}
    </div>
  );
}
