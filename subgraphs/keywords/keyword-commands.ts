import type { Sql } from '../../runtime/database.ts';
import { applyCapChange, lockWallet, walletCoversAnotherDay } from '../billing/index.ts';
import { removeKeywordFromAlertRules } from '../mentions/index.ts';
import { domainError, notFound } from '../domain-error.ts';
import { parseInput } from '../validate-input.ts';
import { ensureDefaultGroup, findGroupToJoin } from './group-store.ts';
import { type KeywordCreate, keywordCreateInput, keywordPatchInput } from './keyword-input.ts';
import { planKeywordPatch, settingsForNewKeyword } from './keyword-settings.ts';
import { forgetKeywordTermInProcess } from './keyword-term-cache.ts';
import { type CheckedFeed, checkFeeds } from './feed-check.ts';
import {
  deleteKeyword,
  findKeyword,
  findKeywordForUpdate,
  insertKeyword,
  translateKeywordWriteError,
  type KeywordRow,
  type KeywordSettings,
  listFeeds,
  listReviewSources,
  replaceFeeds,
  replaceReviewSources,
  updateKeyword,
} from './keyword-store.ts';
import { lookbackOfAdded } from './owed-lookback-store.ts';
import { lookBackOrWait, type SendLookback } from './owed-lookbacks.ts';
import { syncKeywordPolls } from './poll-schedule-store.ts';
import { reviewSourceRows, reviewStorefrontKeys } from './review-sources.ts';
import type { SourceReaders } from '../source-readers.ts';
import { type SearchPlatform, searchPlatforms } from '../../vocabulary/normalized-post.ts';

/** Another workspace's group answers as one that does not exist: 404, never 403 (workspace isolation, spec 1.8). */
export const groupNotFound = () => domainError('not_found', 'groupId: no such group in this workspace', { field: 'groupId' });

async function groupIdFor(sql: Sql, workspaceId: string, groupId: string | undefined): Promise<string> {
  if (groupId === undefined) return (await ensureDefaultGroup(sql, workspaceId)).id;
  const group = await findGroupToJoin(sql, workspaceId, groupId);
  if (!group) throw groupNotFound();
  return group.id;
}

/** What a write connected that was not there before: it gets a look-back (spec 2.3, 4.2, part 8). */
export interface NewSources {
  /** The search platforms this write added: only these look back 30 days, a platform kept is not searched again from before. */
  platforms: SearchPlatform[];
  /** The feed addresses connected by this write: only these look back, a feed kept is not read again from before it was connected. */
  feeds: string[];
  /** The storefronts (see reviewStorefrontKey) connected by this write: only these look back 30 days. */
  reviewSources: string[];
}

/** The keyword after a write. */
export interface KeywordWrite {
  keyword: KeywordRow;
}

/**
 * The look-back a write starts, or records for when the keyword runs, in the
 * write's transaction, so that it exists exactly when the write commits: a
 * process killed between a commit and a send after it would lose it for good.
 * Its regular polls come at `firstPollAt`, not beside it.
 */
export interface LookbackOfWrite {
  firstPollAt: Date;
  send: SendLookback;
}

/** The search platforms `after` watches and `before` did not; null watches every one. */
function platformsAdded(before: readonly string[] | null, after: readonly string[] | null): SearchPlatform[] {
  const watched = new Set(before ?? searchPlatforms);
  return searchPlatforms.filter((platform) => (after ?? searchPlatforms).includes(platform) && !watched.has(platform));
}

async function saveSources(
  sql: Sql,
  keywordId: string,
  feeds: CheckedFeed[] | undefined,
  input: Pick<KeywordCreate, 'reviewSources'>,
  readers: SourceReaders,
): Promise<Omit<NewSources, 'platforms'>> {
  const before = { feeds: new Set<string>(), sources: new Set<string>() };
  if (feeds || input.reviewSources) {
    for (const feed of await listFeeds(sql, [keywordId])) before.feeds.add(feed.url);
    for (const source of await listReviewSources(sql, [keywordId])) {
      for (const key of reviewStorefrontKeys(source)) before.sources.add(key);
    }
  }
  const added: Omit<NewSources, 'platforms'> = { feeds: [], reviewSources: [] };
  if (feeds) {
    await replaceFeeds(sql, keywordId, feeds);
    added.feeds = feeds.filter((feed) => !before.feeds.has(feed.url)).map((feed) => feed.url);
  }
  if (input.reviewSources) {
    const rows = reviewSourceRows(input.reviewSources, readers);
    await replaceReviewSources(sql, keywordId, rows);
    added.reviewSources = rows.flatMap(reviewStorefrontKeys).filter((key) => !before.sources.has(key));
  }
  return added;
}

/**
 * Creates a keyword in its group (the default one unless named); 409 when
 * the group tracks the term. With `start` (a keyword started through the
 * API) its poll rows are written, first due at `lookback.firstPollAt`, so
 * its `polling` shows what it watches from the start, its look-back is sent
 * with it (or recorded until it runs), and a keyword the wallet cannot cover a day
 * of on top of the running ones starts paused for balance (3.2: a keyword
 * runs only while the balance covers one more day of every running
 * keyword), to start with the others paused for balance at the top-up that
 * covers them; without `start` (seeded rows) it is not polled until
 * something schedules it.
 */
export async function createKeyword(
  sql: Sql,
  workspaceId: string,
  rawInput: unknown,
  readers: SourceReaders,
  start?: { now: Date; lookback: LookbackOfWrite; refuseShortWallet?: boolean },
): Promise<KeywordWrite> {
  const input = parseInput(keywordCreateInput, rawInput);
  const feeds = input.feeds ? await checkFeeds(input.feeds, new Map(), readers) : undefined;
  try {
    return (await sql.begin(async (tx) => {
      const settings = settingsForNewKeyword(input, await groupIdFor(tx as unknown as Sql, workspaceId, input.groupId));
      if (start && !settings.muted && !(await walletCoversAnotherDay(tx, workspaceId, 1, start.now))) {
        if (start.refuseShortWallet) throw domainError('quota_exceeded', 'The wallet cannot pay a day of one more keyword; top up first');
        Object.assign(settings, { muted: true, pausedForBalance: true });
      }
      const keyword = await insertKeyword(tx, workspaceId, settings);
      await saveSources(tx as unknown as Sql, keyword.id, feeds, input, readers);
      if (start) {
        await syncKeywordPolls(tx, keyword.id, searchPlatforms, start.lookback.firstPollAt);
        await lookBackOrWait(tx, keyword, { keywordId: keyword.id }, start.lookback.firstPollAt, start.lookback.send);
      }
      return { keyword };
    })) as KeywordWrite;
  } catch (error) {
    throw translateKeywordWriteError(error, input.term.term);
  }
}

/**
 * Applies a PATCH (spec 4.2) in one transaction: a failed PATCH changes
 * nothing. Unmuting clears every pause but needs the wallet to cover a day
 * of one more running keyword (3.2); a change of terms, platforms or
 * context resumes a keyword paused for noise when the wallet covers a day.
 */
export async function patchKeyword(
  sql: Sql,
  workspaceId: string,
  id: string,
  rawPatch: unknown,
  now: Date,
  readers: SourceReaders,
  lookback: LookbackOfWrite,
): Promise<KeywordWrite> {
  const patch = parseInput(keywordPatchInput, rawPatch);
  let term = patch.term?.term ?? '';
  // Feeds are fetched before the transaction, so no row stays locked while a site answers.
  let feeds: CheckedFeed[] | undefined;
  if (patch.feeds) {
    if (!(await findKeyword(sql, workspaceId, id))) throw notFound('Keyword');
    const connected = new Map((await listFeeds(sql, [id])).map((feed) => [feed.url, feed.title]));
    feeds = await checkFeeds(patch.feeds, connected, readers);
  }
  try {
    const written = (await sql.begin(async (tx) => {
      // A patch that may resume the keyword counts the wallet's running keywords: the wallet is taken before the
      // keyword, as money moves (wallet, then keyword), so the daily tick pausing keywords never waits on this one.
      if (patch.muted === false || patch.platforms !== undefined || patch.context !== undefined || patch.matching !== undefined) {
        await lockWallet(tx, workspaceId);
      }
      // The group named is held before the keyword, the order a group's delete takes them in (the group, then
      // its keywords to move): held after, a delete holding the group waited for this keyword and this for the group.
      const groupId = patch.groupId === undefined ? undefined : await groupIdFor(tx as unknown as Sql, workspaceId, patch.groupId);
      const current = await findKeywordForUpdate(tx, workspaceId, id);
      if (!current) throw notFound('Keyword');
      term ||= current.term;
      const plan = planKeywordPatch(current, patch);
      const changes: Partial<KeywordSettings> = { ...plan.changes };
      if (groupId !== undefined && groupId !== current.groupId) changes.groupId = groupId;
      // A mute asked for while paused takes the pause over: the user's mute outlasts a top-up and a noise resume.
      if (patch.muted === true && (!current.muted || current.pausedForBalance || current.pausedForNoise)) {
        Object.assign(changes, { muted: true, pausedForBalance: false, pausedForNoise: false });
      }
      // Every unmute needs the day covered, a keyword muted by hand too: a mute takes a pause over, so checking
      // only paused keywords let a mute then an unmute start a keyword the wallet had paused for balance.
      if (patch.muted === false && current.muted) {
        if (!(await walletCoversAnotherDay(tx, workspaceId, 1, now))) {
          throw domainError('insufficient_balance', 'The wallet cannot cover another day of this keyword; top up first');
        }
        Object.assign(changes, { muted: false, pausedForBalance: false, pausedForNoise: false, judgedSince: now });
      } else if (plan.noiseResumeTrigger && current.pausedForNoise && patch.muted !== true) {
        if (await walletCoversAnotherDay(tx, workspaceId, 1, now)) Object.assign(changes, { muted: false, pausedForNoise: false });
      }
      if (plan.rulesChanged) changes.judgedSince = now;
      // A renamed keyword is tracked from now on (spec 4.2): no post published before this counts for the new term.
      if (changes.term !== undefined && changes.term !== current.term) changes.termSince = now;
      // A cap raised, removed or set at or under this period's count resumes or caps at once (3.1).
      const updated = await applyCapChange(tx, current, (await updateKeyword(tx, workspaceId, id, changes))!, now);
      const added = { platforms: platformsAdded(current.platforms, updated.platforms), ...(await saveSources(tx as unknown as Sql, id, feeds, patch, readers)) };
      // A rename has no look-back (spec 4.2). New platforms and sources have a look-back of their own, and are first
      // polled regularly at `firstPollAt`, not beside it. The owed look-back is taken before the poll rows, the order
      // the scheduler's pass takes them in.
      await lookBackOrWait(tx, updated, lookbackOfAdded(id, { platforms: added.platforms, feedUrls: added.feeds, storefronts: added.reviewSources }), lookback.firstPollAt, lookback.send);
      await syncKeywordPolls(tx, id, searchPlatforms, lookback.firstPollAt);
      return { keyword: updated };
    })) as KeywordWrite;
    // This process's requests read the new term from here on, not only once the notification arrives.
    if (patch.term) forgetKeywordTermInProcess(id);
    return written;
  } catch (error) {
    throw translateKeywordWriteError(error, term);
  }
}

/**
 * Deletes a keyword and its mentions; what was charged stays in the
 * ledger. Alert rules forget it, and a rule that named only it is disabled.
 */
export async function removeKeyword(sql: Sql, workspaceId: string, id: string): Promise<void> {
  await sql.begin(async (tx) => {
    if (!(await deleteKeyword(tx, workspaceId, id))) throw notFound('Keyword');
    await removeKeywordFromAlertRules(tx, workspaceId, id);
  });
  forgetKeywordTermInProcess(id);
}
