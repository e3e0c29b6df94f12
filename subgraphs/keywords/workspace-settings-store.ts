import postgres from 'postgres';
import type { Queryable } from '../../runtime/database.ts';

/** Workspace-wide noise rules (spec 2.11 item 5), applied to every keyword. */
export interface WorkspaceFiltersRow {
  excludedTerms: string[];
  excludedAuthors: string[];
  githubRepositories: string[];
  subredditsAllowed: string[];
  subredditsDenied: string[];
  updatedAt: Date | null;
}

/** What the classifier reads about the company (spec 2.11 item 6). */
export interface CompanyProfileRow {
  name: string | null;
  description: string | null;
  website: string | null;
  competitors: string[];
  guidelines: string | null;
  updatedAt: Date | null;
}

const emptyFilters: WorkspaceFiltersRow = {
  excludedTerms: [], excludedAuthors: [], githubRepositories: [], subredditsAllowed: [], subredditsDenied: [], updatedAt: null,
};
const emptyProfile: CompanyProfileRow = { name: null, description: null, website: null, competitors: [], guidelines: null, updatedAt: null };

const columnsOf = (changes: object): Record<string, unknown> => Object.fromEntries(Object.entries(changes).map(([k, v]) => [postgres.fromCamel(k), v]));
const updatableColumns = (values: Record<string, unknown>) => Object.keys(values).filter((column) => column !== 'workspace_id') as never;

export async function findWorkspaceFilters(sql: Queryable, workspaceId: string): Promise<WorkspaceFiltersRow> {
  const [row] = await sql<WorkspaceFiltersRow[]>`
    /* findWorkspaceFilters */
    select excluded_terms, excluded_authors, github_repositories, subreddits_allowed, subreddits_denied, updated_at
    from workspace_filters where workspace_id = ${workspaceId}`;
  return row ?? emptyFilters;
}

/** Holds the workspace's filters for a read-modify-write until the transaction ends. */
export async function lockWorkspaceFilters(sql: Queryable, workspaceId: string): Promise<void> {
  await sql`/* lockWorkspaceFilters */ select pg_advisory_xact_lock(hashtext(${`workspace_filters:${workspaceId}`}))`;
}

export async function saveWorkspaceFilters(
  sql: Queryable,
  workspaceId: string,
  changes: Partial<Omit<WorkspaceFiltersRow, 'updatedAt'>>,
): Promise<WorkspaceFiltersRow> {
  const values: Record<string, unknown> = { workspace_id: workspaceId, ...columnsOf(changes), updated_at: new Date() };
  const [row] = await sql<WorkspaceFiltersRow[]>`
    /* saveWorkspaceFilters */
    insert into workspace_filters ${sql(values)}
    on conflict (workspace_id) do update set ${sql(values, updatableColumns(values))}
    returning excluded_terms, excluded_authors, github_repositories, subreddits_allowed, subreddits_denied, updated_at`;
  return row;
}

export async function findCompanyProfile(sql: Queryable, workspaceId: string): Promise<CompanyProfileRow> {
  const [row] = await sql<CompanyProfileRow[]>`
    /* findCompanyProfile */
    select name, description, website, competitors, guidelines, updated_at from company_profiles where workspace_id = ${workspaceId}`;
  return row ?? emptyProfile;
}

export async function saveCompanyProfile(
  sql: Queryable,
  workspaceId: string,
  changes: Partial<Omit<CompanyProfileRow, 'updatedAt'>>,
): Promise<CompanyProfileRow> {
  const values: Record<string, unknown> = { workspace_id: workspaceId, ...columnsOf(changes), updated_at: new Date() };
  const [row] = await sql<CompanyProfileRow[]>`
    /* saveCompanyProfile */
    insert into company_profiles ${sql(values)}
    on conflict (workspace_id) do update set ${sql(values, updatableColumns(values))}
    returning name, description, website, competitors, guidelines, updated_at`;
  return row;
}
