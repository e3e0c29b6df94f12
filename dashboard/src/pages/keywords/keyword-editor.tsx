import { useEffect, useState } from 'preact/hooks';
import { useAction } from '../../api/use-query';
import type { CapPeriod, KeywordKind, KeywordPatchInput, KeywordSettingsFragment, Platform, RepositoryEvent, RequiredMode } from '../../graphql/graphql';
import { Checkbox, CheckboxGroup, LinesField, SelectField, TextArea, TextField } from '../../ui/fields';
import { ErrorNotice, Notice } from '../../ui/notice';
import { counted } from '../../ui/format';
import { Section } from '../../ui/page';
import { searchPlatforms } from '../../../../vocabulary/normalized-post.ts';
import { platformNames } from '../../../../vocabulary/platform-names.ts';
import { kindOptions } from './keyword-labels';
import { ActionForm } from '../../ui/action-form';

const repositoryEvents: [RepositoryEvent, string][] = [
  ['new', 'New repositories'],
  ['traction', 'Traction (10 stars within 30 days)'],
  ['stars', 'Star milestones'],
  ['growth', 'Fast growth'],
];
const reviewPlatforms = { appstore: 'App Store', googleplay: 'Google Play', trustpilot: 'Trustpilot', googlemaps: 'Google Maps' } as const;

/** The editor's state: the keyword's writable settings in the shape of the PATCH body (spec 4.2). */
interface KeywordForm {
  term: string;
  kind: KeywordKind;
  muted: boolean;
  groupId: string;
  platforms: Platform[] | null;
  context: string;
  matching: {
    requiredTerms: string[];
    requiredMode: RequiredMode;
    excludedTerms: string[];
    excludedAuthors: string[];
    caseSensitive: boolean;
    exactPhrase: boolean;
    subreddits: { only: string[]; excluded: string[] };
    repositories: { events: RepositoryEvent[]; minStars: string; minWeeklyStars: string };
  };
  cap: { enabled: boolean; mentions: string; per: CapPeriod };
  comments: { enabled: boolean; maxPerPost: string };
  reviewSources: { platform: keyof typeof reviewPlatforms; id: string; url: string; countries: string; language: string }[];
  newReviewUrl: string;
  feeds: string[];
}

function formOf(keyword: KeywordSettingsFragment): KeywordForm {
  const { matching } = keyword;
  return {
    term: keyword.term,
    kind: keyword.kind,
    muted: keyword.muted,
    groupId: keyword.group.id,
    platforms: keyword.platforms ?? null,
    context: keyword.context ?? '',
    matching: {
      requiredTerms: matching.requiredTerms,
      requiredMode: matching.requiredMode,
      excludedTerms: matching.excludedTerms,
      excludedAuthors: matching.excludedAuthors,
      caseSensitive: matching.caseSensitive,
      exactPhrase: matching.exactPhrase,
      subreddits: { only: matching.subreddits.only, excluded: matching.subreddits.excluded },
      repositories: {
        events: matching.repositories.events,
        minStars: matching.repositories.minStars?.toString() ?? '',
        minWeeklyStars: matching.repositories.minWeeklyStars?.toString() ?? '',
      },
    },
    // With the welcome credit on, the user's own cap is `own` (spec 2.1.1); the welcome cap is the service's.
    cap: keyword.cap?.welcome
      ? { enabled: keyword.cap.own != null, mentions: keyword.cap.own?.toString() ?? '', per: keyword.cap.ownPer ?? 'month' }
      : { enabled: !!keyword.cap, mentions: keyword.cap?.mentions.toString() ?? '', per: keyword.cap?.per ?? 'month' },
    comments: { enabled: keyword.comments.enabled, maxPerPost: keyword.comments.maxPerPost.toString() },
    reviewSources: keyword.reviewSources.map((source) => ({
      platform: source.platform,
      id: source.id,
      url: source.url,
      countries: source.countries.join(', '),
      language: source.language ?? '',
    })),
    newReviewUrl: '',
    feeds: keyword.feeds.map((feed) => feed.url),
  };
}

const optionalInt = (value: string) => (value.trim() === '' ? null : Number(value));
const codes = (value: string) => value.split(/[\s,]+/).map((code) => code.trim().toLowerCase()).filter(Boolean);

/** The PATCH body of each setting, as the API takes it. */
function patchOf(form: KeywordForm): Required<Omit<KeywordPatchInput, 'cap'>> & { cap: KeywordPatchInput['cap'] | null } {
  const reviewSources = form.reviewSources.map((source) => ({
    platform: source.platform,
    id: source.id,
    ...(source.platform === 'appstore' || source.platform === 'googleplay' ? { countries: codes(source.countries) } : {}),
    ...(source.platform === 'googleplay' && source.language.trim() ? { language: source.language.trim() } : {}),
  }));
  return {
    term: form.term.trim(),
    kind: form.kind,
    muted: form.muted,
    groupId: form.groupId,
    platforms: form.platforms,
    context: form.context.trim() || null,
    matching: {
      ...form.matching,
      repositories: {
        events: form.matching.repositories.events,
        minStars: optionalInt(form.matching.repositories.minStars),
        minWeeklyStars: optionalInt(form.matching.repositories.minWeeklyStars),
      },
    },
    cap: form.cap.enabled ? { mentions: Number(form.cap.mentions), per: form.cap.per } : null,
    comments: { enabled: form.comments.enabled, maxPerPost: Number(form.comments.maxPerPost) },
    reviewSources: form.newReviewUrl.trim() ? [...reviewSources, { url: form.newReviewUrl.trim() }] : reviewSources,
    feeds: form.feeds.map((url) => ({ url })),
  };
}

/**
 * Only the settings that changed are sent: a PATCH of matching rules,
 * platforms or context restarts the keyword's health judgement (spec 2.1.4),
 * so saving a rename must not touch them.
 */
export function changedSettings(before: KeywordForm, after: KeywordForm): KeywordPatchInput {
  const old = patchOf(before);
  const next = patchOf(after);
  const changes: Record<string, unknown> = {};
  for (const key of Object.keys(next) as (keyof typeof next)[]) {
    if (JSON.stringify(old[key]) !== JSON.stringify(next[key])) changes[key] = next[key];
  }
  return changes as KeywordPatchInput;
}

export function KeywordEditor({
  keyword,
  groups,
  onSave,
}: {
  keyword: KeywordSettingsFragment;
  groups: { id: string; name: string }[];
  onSave(patch: KeywordPatchInput): Promise<void>;
}) {
  const [form, setForm] = useState(() => formOf(keyword));
  useEffect(() => setForm(formOf(keyword)), [keyword]);
  const changes = changedSettings(formOf(keyword), form);
  const save = useAction(async () => {
    await onSave(changes);
    return 'saved';
  });
  const set = (change: Partial<KeywordForm>) => {
    save.reset();
    setForm((current) => ({ ...current, ...change }));
  };
  const setMatching = (change: Partial<KeywordForm['matching']>) => set({ matching: { ...form.matching, ...change } });
  const changedCount = Object.keys(changes).length;

  return (
    <ActionForm class="keyword-editor" onSubmit={() => changedCount > 0 && void save.run()}>
      <Section title="Keyword">
        <div class="grid-2">
          <TextField label="Term" required value={form.term} onInput={(term) => set({ term })} hint='Renaming tracks the new term from now on, without a look-back. "Double quotes" make it an exact phrase.' />
          <SelectField label="Kind" value={form.kind} options={kindOptions} onChange={(kind) => set({ kind })} />
          <SelectField label="Group" value={form.groupId} options={groups.map((group) => [group.id, group.name] as [string, string])} onChange={(groupId) => set({ groupId })} />
        </div>
        <Checkbox label="Muted (not polled or matched)" checked={form.muted} onChange={(muted) => set({ muted })} hint="Unmuting needs a balance that covers another day." />
        <TextArea
          label="Context for the classifier"
          value={form.context}
          maxLength={300}
          onInput={(context) => set({ context })}
          hint="At most 300 characters: the sense of the term you track, read on top of the company profile."
        />
      </Section>

      <Section title="Where to look">
        <Checkbox label="Every search platform" checked={form.platforms === null} onChange={(all) => set({ platforms: all ? null : [...searchPlatforms] })} />
        {form.platforms !== null && (
          <CheckboxGroup
            legend="Platforms (none: reviews and feeds only)"
            options={searchPlatforms.map((platform) => [platform, platformNames[platform]] as [Platform, string])}
            value={form.platforms}
            onChange={(platforms) => set({ platforms })}
          />
        )}
        <LinesField label="Only these subreddits" value={form.matching.subreddits.only} onChange={(only) => setMatching({ subreddits: { ...form.matching.subreddits, only } })} hint="One per line, r/name or name; when any are listed, only posts from them are taken." />
        <LinesField label="Never these subreddits" value={form.matching.subreddits.excluded} onChange={(excluded) => setMatching({ subreddits: { ...form.matching.subreddits, excluded } })} />
        <CheckboxGroup legend="Code repository events" options={repositoryEvents} value={form.matching.repositories.events} onChange={(events) => setMatching({ repositories: { ...form.matching.repositories, events } })} />
        <div class="grid-2">
          <TextField label="Minimum stars" type="number" min={0} max={1_000_000} value={form.matching.repositories.minStars} onInput={(minStars) => setMatching({ repositories: { ...form.matching.repositories, minStars } })} hint="Blank: none" />
          <TextField
            label="Minimum stars a week"
            type="number"
            min={25}
            max={1_000_000}
            value={form.matching.repositories.minWeeklyStars}
            onInput={(minWeeklyStars) => setMatching({ repositories: { ...form.matching.repositories, minWeeklyStars } })}
            hint="25 or more; blank: none"
          />
        </div>
        <LinesField label="RSS or Atom feeds" value={form.feeds} onChange={(feeds) => set({ feeds })} hint="One address per line (a feed or a page that advertises one), at most 20; a new feed brings its newest 10 matching items of 30 days." />
        <fieldset>
          <legend>Review sources</legend>
          {form.reviewSources.map((source, index) => (
            <div class="grid-2 review-source" key={`${source.platform}:${source.id}`}>
              <p>
                <strong>{reviewPlatforms[source.platform]}</strong> <a href={source.url}>{source.id}</a>
              </p>
              {(source.platform === 'appstore' || source.platform === 'googleplay') && (
                <TextField
                  label={`Countries for ${source.id}`}
                  value={source.countries}
                  onInput={(countries) => set({ reviewSources: form.reviewSources.map((item, at) => (at === index ? { ...item, countries } : item)) })}
                  hint="Two-letter codes, comma-separated"
                />
              )}
              {source.platform === 'googleplay' && (
                <TextField
                  label={`Language for ${source.id}`}
                  value={source.language}
                  onInput={(language) => set({ reviewSources: form.reviewSources.map((item, at) => (at === index ? { ...item, language } : item)) })}
                />
              )}
              <div>
                <button type="button" class="danger" onClick={() => set({ reviewSources: form.reviewSources.filter((_, at) => at !== index) })}>
                  Remove {source.id}
                </button>
              </div>
            </div>
          ))}
          <TextField label="Add a review page" type="url" value={form.newReviewUrl} onInput={(newReviewUrl) => set({ newReviewUrl })} hint="An App Store, Google Play, Trustpilot or Google Maps link; at most 10 sources." />
        </fieldset>
      </Section>

      <Section title="Matching rules">
        <LinesField label="Required terms" value={form.matching.requiredTerms} onChange={(requiredTerms) => setMatching({ requiredTerms })} />
        <SelectField
          label="Required terms must appear"
          value={form.matching.requiredMode}
          options={[['any', 'Any of them'], ['all', 'All of them']] as [RequiredMode, string][]}
          onChange={(requiredMode) => setMatching({ requiredMode })}
        />
        <LinesField label="Excluded terms" value={form.matching.excludedTerms} onChange={(excludedTerms) => setMatching({ excludedTerms })} hint="One per line; a * at the start or end is a wildcard." />
        <LinesField label="Excluded authors" value={form.matching.excludedAuthors} onChange={(excludedAuthors) => setMatching({ excludedAuthors })} hint="Profile links, @handles, u/names or display names, one per line." />
        <Checkbox label="Case-sensitive" checked={form.matching.caseSensitive} onChange={(caseSensitive) => setMatching({ caseSensitive })} />
        <Checkbox label="Exact phrase only" checked={form.matching.exactPhrase} onChange={(exactPhrase) => setMatching({ exactPhrase })} hint="Off: a multi-word term also matches its words close together, kept only when scored relevant." />
      </Section>

      <Section title="Cap and comments">
        <Checkbox label="Cap the charged mentions" checked={form.cap.enabled} onChange={(enabled) => set({ cap: { ...form.cap, enabled } })} />
        {form.cap.enabled && (
          <div class="grid-2">
            <TextField label="Mentions per period" type="number" min={1} max={1_000_000} required value={form.cap.mentions} onInput={(mentions) => set({ cap: { ...form.cap, mentions } })} />
            <SelectField
              label="Period (UTC)"
              value={form.cap.per}
              options={[['day', 'Day'], ['week', 'Week'], ['month', 'Month']] as [CapPeriod, string][]}
              onChange={(per) => set({ cap: { ...form.cap, per } })}
            />
          </div>
        )}
        {keyword.cap?.welcome && <p class="hint">On the welcome credit the keyword collects at most {keyword.cap.mentions} mentions a month; your cap applies from the first top-up.</p>}
        <Checkbox label="Read comments under relevant mentions" checked={form.comments.enabled} onChange={(enabled) => set({ comments: { ...form.comments, enabled } })} hint="$0.008 per delivered comment" />
        <TextField label="Newest comments per thread" type="number" min={1} max={100} value={form.comments.maxPerPost} onInput={(maxPerPost) => set({ comments: { ...form.comments, maxPerPost } })} />
      </Section>

      <div class="form-actions sticky-actions">
        {/* Not disabled when there is nothing to save (only while saving), so that it keeps the keyboard after a save. */}
        <button type="submit" disabled={save.busy} aria-disabled={changedCount === 0}>
          {save.busy ? 'Saving…' : changedCount ? `Save ${counted(changedCount, 'change')}` : 'No changes'}
        </button>
        <button type="button" class="secondary" disabled={changedCount === 0} onClick={() => setForm(formOf(keyword))}>
          Discard
        </button>
        {save.outcome && <Notice tone="success">Saved.</Notice>}
      </div>
      <ErrorNotice error={save.error} title="Not saved" />
    </ActionForm>
  );
}
