import { z } from 'zod';
import type { Sql } from '../../runtime/database.ts';
import type { PothosBuilder } from '../pothos-builder.ts';
import { requireAuth } from '../require-auth.ts';
import { parseInput } from '../validate-input.ts';
import { excludedAuthorList, subredditList, termList } from './keyword-input.ts';
import { findWorkspaceFilters, saveWorkspaceFilters, type WorkspaceFiltersRow } from './workspace-settings-store.ts';

const githubOwner = /^[a-z0-9](?:[a-z0-9-]{0,38})$/i;
const githubRepositoryName = /^(?!\.{1,2}$)[a-z0-9._-]{1,100}$/i;

/**
 * `owner/repo`, lower case, as the matcher compares it; also read from a
 * github.com address (`https://github.com/Owner/Repo/issues/3`) or a clone
 * URL ending in `.git`. Null when the entry names no repository.
 */
function canonicalRepository(entry: string): string | null {
  const trimmed = entry.trim();
  const address = /^(?:https?:\/\/)?(?:www\.)?github\.com\/([^?#]*)/i.exec(trimmed);
  const path = address ? address[1] : trimmed;
  const segments = path.split('/').filter(Boolean);
  if (segments.length < 2 || (!address && segments.length > 2)) return null;
  const [owner, repositoryWithSuffix] = segments;
  const repository = repositoryWithSuffix.replace(/\.git$/i, '');
  if (!githubOwner.test(owner) || !githubRepositoryName.test(repository)) return null;
  return `${owner}/${repository}`.toLowerCase();
}

/** The entries described to clients: `owner/repo`, or the repository's github.com address (a `.git` or deeper path is read too). */
const describedRepository = '^(?:(?:https?://)?(?:www\\.)?github\\.com/)?[A-Za-z0-9][A-Za-z0-9-]{0,38}/[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}$';

const githubRepositoryList = z
  .array(z.string().trim().min(1, 'must be 1 to 300 characters').max(300, 'must be 1 to 300 characters').meta({ pattern: describedRepository }))
  .max(100, 'at most 100 items')
  .nullable()
  .transform((entries, ctx) => {
    const canonical: string[] = [];
    for (const [index, entry] of (entries ?? []).entries()) {
      const repository = canonicalRepository(entry);
      if (repository === null) {
        ctx.addIssue({ code: 'custom', message: `"${entry}" is not an owner/repo name or a github.com repository address`, path: [index] });
        return z.NEVER;
      }
      canonical.push(repository);
    }
    return [...new Set(canonical)];
  });

/**
 * PATCH /v1/filters (spec 2.11 item 5): the keyword bounds of 2.1.3 apply;
 * omitted fields stay, a sent list replaces the old one, null or [] clears it.
 */
export const workspaceFiltersPatchInput = z.strictObject({
  excludedTerms: termList.optional().meta({ description: 'Each 1 to 80 characters, at most 50; a `*` at the start or end is a wildcard' }),
  excludedAuthors: excludedAuthorList
    .optional()
    .meta({ description: 'Each 1 to 500 characters, at most 100: profile or post links, @handles, u/names, DIDs or display names; stored canonical' }),
  githubRepositories: githubRepositoryList
    .optional()
    .meta({ description: 'At most 100 `owner/repo` names or github.com addresses, stored `owner/repo` lower case; their issues, discussions and repository events are dropped' }),
  subreddits: z
    .strictObject({
      allowed: subredditList.optional().meta({ description: 'When non-empty, Reddit posts only from these' }),
      denied: subredditList.optional().meta({ description: 'Reddit posts from these are dropped' }),
    })
    .optional()
    .meta({ description: 'Each list 1 to 100 characters an entry, at most 50, stored bare and lower case; each list is replaced when sent and kept when omitted' }),
});

export async function patchWorkspaceFilters(sql: Sql, workspaceId: string, rawPatch: unknown): Promise<WorkspaceFiltersRow> {
  const patch = parseInput(workspaceFiltersPatchInput, rawPatch);
  const sent = {
    excludedTerms: patch.excludedTerms,
    excludedAuthors: patch.excludedAuthors,
    githubRepositories: patch.githubRepositories,
    subredditsAllowed: patch.subreddits?.allowed,
    subredditsDenied: patch.subreddits?.denied,
  };
  const changes = Object.fromEntries(Object.entries(sent).filter(([, value]) => value !== undefined));
  if (Object.keys(changes).length === 0) return findWorkspaceFilters(sql, workspaceId);
  return saveWorkspaceFilters(sql, workspaceId, changes);
}

/** The WorkspaceFilters type, its query and its PATCH mutation. */
export function addWorkspaceFiltersSchema(builder: PothosBuilder) {
  const SubredditFilters = builder.objectRef<{ allowed: string[]; denied: string[] }>('WorkspaceSubredditFilters').implement({
    fields: (t) => ({
      allowed: t.exposeStringList('allowed', { description: 'When non-empty, Reddit posts only from these' }),
      denied: t.exposeStringList('denied'),
    }),
  });
  const WorkspaceFilters = builder.objectRef<WorkspaceFiltersRow>('WorkspaceFilters').implement({
    description: 'Noise rules applied to every keyword of the workspace before a post is stored (spec 2.11 item 5)',
    fields: (t) => ({
      excludedTerms: t.exposeStringList('excludedTerms'),
      excludedAuthors: t.exposeStringList('excludedAuthors', { description: 'Canonical forms' }),
      githubRepositories: t.exposeStringList('githubRepositories', { description: '`owner/repo`, lower case; their items are dropped' }),
      subreddits: t.field({
        type: SubredditFilters,
        resolve: (filters) => ({ allowed: filters.subredditsAllowed, denied: filters.subredditsDenied }),
      }),
      updatedAt: t.expose('updatedAt', { type: 'DateTime', nullable: true, description: 'Null until first changed' }),
    }),
  });

  const SubredditFiltersInput = builder.inputType('WorkspaceSubredditFiltersInput', {
    fields: (t) => ({ allowed: t.stringList(), denied: t.stringList() }),
  });
  const WorkspaceFiltersPatchInput = builder.inputType('WorkspaceFiltersPatchInput', {
    description: 'Omitted fields stay; a sent list replaces the old one',
    fields: (t) => ({
      excludedTerms: t.stringList(),
      excludedAuthors: t.stringList(),
      githubRepositories: t.stringList(),
      subreddits: t.field({ type: SubredditFiltersInput }),
    }),
  });

  builder.queryField('workspaceFilters', (t) =>
    t.field({ type: WorkspaceFilters, resolve: (_root, _args, ctx) => findWorkspaceFilters(ctx.sql, requireAuth(ctx).workspaceId) }),
  );
  builder.mutationField('updateWorkspaceFilters', (t) =>
    t.field({
      type: WorkspaceFilters,
      args: { input: t.arg({ type: WorkspaceFiltersPatchInput, required: true }) },
      resolve: (_root, args, ctx) => patchWorkspaceFilters(ctx.sql, requireAuth(ctx).workspaceId, args.input),
    }),
  );
  return { WorkspaceFilters };
}
