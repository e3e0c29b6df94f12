import type { KeywordCreate, KeywordPatch } from './keyword-input.ts';
import type { KeywordRow, KeywordSettings } from './keyword-store.ts';

/** What a PATCH changes, and what the change means for the keyword's run state (spec 3.1). */
export interface PatchPlan {
  changes: Partial<KeywordSettings>;
  /** Matching rules, platforms or context changed: health judges matches from now on (2.1.4). */
  rulesChanged: boolean;
  /** Required or excluded terms, platforms or context changed: a keyword paused for noise may resume (3.1). */
  noiseResumeTrigger: boolean;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The settings of a new keyword: the input over the defaults of spec 2.1 and 4.2. */
export function settingsForNewKeyword(input: KeywordCreate, groupId: string): KeywordSettings {
  const matching = input.matching ?? {};
  return {
    groupId,
    term: input.term.term,
    kind: input.kind ?? 'brand',
    muted: input.muted ?? false,
    pausedForBalance: false,
    pausedForNoise: false,
    pausedForCap: false,
    capMentions: input.cap?.mentions ?? null,
    capPer: input.cap ? input.cap.per : null,
    commentsEnabled: input.comments?.enabled ?? false,
    commentsMaxPerPost: input.comments?.maxPerPost ?? 20,
    platforms: input.platforms === undefined ? null : input.platforms,
    context: input.context ?? null,
    requiredTerms: matching.requiredTerms ?? [],
    requiredMode: matching.requiredMode ?? 'any',
    excludedTerms: matching.excludedTerms ?? [],
    excludedAuthors: matching.excludedAuthors ?? [],
    caseSensitive: matching.caseSensitive ?? false,
    exactPhrase: input.term.exactPhrase || (matching.exactPhrase ?? false),
    subredditsOnly: matching.subreddits?.only ?? [],
    subredditsExcluded: matching.subreddits?.excluded ?? [],
    repositoryEvents: matching.repositories?.events ?? ['traction', 'stars', 'growth'],
    repositoryMinStars: matching.repositories?.minStars ?? null,
    repositoryMinWeeklyStars: matching.repositories?.minWeeklyStars ?? null,
    judgedSince: null,
    termSince: null,
  };
}

/**
 * The column changes of a PATCH (spec 4.2): omitted fields stay, lists are
 * replaced, `repositories` fields and each `subreddits` list are replaced
 * when sent, null clears. Muting and group moves are the caller's (they
 * need the wallet and the group).
 */
export function planKeywordPatch(current: KeywordRow, patch: KeywordPatch): PatchPlan {
  const changes: Partial<KeywordSettings> = {};
  const set = <K extends keyof KeywordSettings>(field: K, value: KeywordSettings[K] | undefined) => {
    if (value !== undefined && !same(current[field], value)) changes[field] = value;
  };
  const { matching } = patch;
  set('kind', patch.kind);
  set('platforms', patch.platforms);
  set('context', patch.context);
  set('requiredTerms', matching?.requiredTerms);
  set('requiredMode', matching?.requiredMode);
  set('excludedTerms', matching?.excludedTerms);
  set('excludedAuthors', matching?.excludedAuthors);
  set('caseSensitive', matching?.caseSensitive);
  // A quoted term sets exactPhrase whatever `matching` says, as on create (spec 2.1).
  set('exactPhrase', patch.term?.exactPhrase ? true : matching?.exactPhrase);
  set('subredditsOnly', matching?.subreddits?.only);
  set('subredditsExcluded', matching?.subreddits?.excluded);
  set('repositoryEvents', matching?.repositories?.events);
  set('repositoryMinStars', matching?.repositories?.minStars);
  set('repositoryMinWeeklyStars', matching?.repositories?.minWeeklyStars);
  if (patch.term) set('term', patch.term.term);
  if (patch.cap !== undefined) {
    set('capMentions', patch.cap?.mentions ?? null);
    set('capPer', patch.cap?.per ?? null);
  }
  set('commentsEnabled', patch.comments?.enabled);
  set('commentsMaxPerPost', patch.comments?.maxPerPost);

  const ruleFields: (keyof KeywordSettings)[] = [
    'platforms', 'context', 'requiredTerms', 'requiredMode', 'excludedTerms', 'excludedAuthors', 'caseSensitive',
    'exactPhrase', 'subredditsOnly', 'subredditsExcluded', 'repositoryEvents', 'repositoryMinStars', 'repositoryMinWeeklyStars',
  ];
  const noiseFields: (keyof KeywordSettings)[] = ['platforms', 'context', 'requiredTerms', 'excludedTerms'];
  return {
    changes,
    rulesChanged: ruleFields.some((field) => field in changes),
    noiseResumeTrigger: noiseFields.some((field) => field in changes),
  };
}
