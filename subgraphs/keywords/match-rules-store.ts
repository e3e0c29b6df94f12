import type { SearchPlatform } from '../../vocabulary/normalized-post.ts';
import type { Queryable } from '../../runtime/database.ts';
import type { KeywordMatchRules, WorkspaceFilters } from './matching/keyword-rules.ts';
import type { RepositoryEventKind } from './matching/repository-events.ts';
import type { KeywordRow } from './keyword-store.ts';
import { findWorkspaceFilters, type WorkspaceFiltersRow } from './workspace-settings-store.ts';

/** What the matcher needs: the rules of active keywords and their workspaces' filters. */
export interface ActiveMatchRules {
  rules: KeywordMatchRules[];
  filters: Map<string, WorkspaceFilters>;
}

export function matchRulesOf(row: KeywordRow): KeywordMatchRules {
  return {
    keywordId: row.id,
    workspaceId: row.workspaceId,
    term: row.term,
    platforms: row.platforms as SearchPlatform[] | null,
    caseSensitive: row.caseSensitive,
    exactPhrase: row.exactPhrase,
    requiredTerms: row.requiredTerms,
    requiredMode: row.requiredMode,
    excludedTerms: row.excludedTerms,
    excludedAuthors: row.excludedAuthors,
    subreddits: { only: row.subredditsOnly, excluded: row.subredditsExcluded },
    repositories: {
      events: row.repositoryEvents as RepositoryEventKind[],
      minStars: row.repositoryMinStars,
      minWeeklyStars: row.repositoryMinWeeklyStars,
    },
    termSince: row.termSince,
  };
}

/** The stored workspace filters in the matcher's shape. */
export function toWorkspaceFilters(row: Omit<WorkspaceFiltersRow, 'updatedAt'>): WorkspaceFilters {
  return {
    excludedTerms: row.excludedTerms,
    excludedAuthors: row.excludedAuthors,
    githubRepositories: row.githubRepositories,
    subreddits: { allowed: row.subredditsAllowed, denied: row.subredditsDenied },
  };
}

/** One workspace's filters in the matcher's shape: every post a keyword reads passes them before it is stored (spec 1.5). */
export async function loadWorkspaceFilters(sql: Queryable, workspaceId: string): Promise<WorkspaceFilters> {
  return toWorkspaceFilters(await findWorkspaceFilters(sql, workspaceId));
}

/**
 * Rules of the keywords that may take matches now: not muted (by a user, the
 * wallet or the noise brake) and not at their cap (spec 2.1). `keywordIds`
 * narrows to a poll's keywords; `platform` to keywords that search it.
 */
export async function loadActiveMatchRules(
  sql: Queryable,
  scope: { keywordIds?: readonly string[]; platform?: SearchPlatform } = {},
): Promise<ActiveMatchRules> {
  const rows = await sql<KeywordRow[]>`
    /* loadActiveMatchRules */
    select * from keywords
    where not muted and not paused_for_cap
      ${scope.keywordIds ? sql`and id = any(${sql.array(scope.keywordIds as string[])})` : sql``}
      ${scope.platform ? sql`and (platforms is null or ${scope.platform} = any(platforms))` : sql``}`;
  const workspaceIds = [...new Set(rows.map((row) => row.workspaceId))];
  const filterRows = workspaceIds.length
    ? await sql<(Omit<WorkspaceFiltersRow, 'updatedAt'> & { workspaceId: string })[]>`
        /* loadWorkspaceFiltersForMatching */
        select workspace_id, excluded_terms, excluded_authors, github_repositories, subreddits_allowed, subreddits_denied
        from workspace_filters where workspace_id = any(${sql.array(workspaceIds)})`
    : [];
  return {
    rules: rows.map(matchRulesOf),
    filters: new Map(filterRows.map((row) => [row.workspaceId, toWorkspaceFilters(row)])),
  };
}
