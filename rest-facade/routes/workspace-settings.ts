import { z } from 'zod';
import { companyProfilePatchInput, workspaceFiltersPatchInput } from '../../subgraphs/keywords/index.ts';
import type { GraphQLRoute } from '../route.ts';
import { readOnlyKeyResponse, unauthorizedResponse } from '../route-responses.ts';

const filtersFields = 'excludedTerms excludedAuthors githubRepositories subreddits { allowed denied } updatedAt';
const profileFields = 'name description website competitors guidelines updatedAt';

const updatedAt = z.iso.datetime().nullable().meta({ description: 'Null until first changed' });

const workspaceFiltersSchema = z
  .object({
    excludedTerms: z.array(z.string()).meta({ description: 'A post containing any is dropped; `*` at the start or end is a wildcard' }),
    excludedAuthors: z.array(z.string()).meta({ description: 'Canonical forms; posts by these authors are dropped' }),
    githubRepositories: z.array(z.string()).meta({ description: '`owner/repo`, lower case: issues, discussions and repository events from these are dropped' }),
    subreddits: z.object({
      allowed: z.array(z.string()).meta({ description: 'When non-empty, Reddit posts only from these' }),
      denied: z.array(z.string()).meta({ description: 'Reddit posts from these are dropped' }),
    }),
    updatedAt,
  })
  .meta({ id: 'WorkspaceFilters' });

const companyProfileSchema = z
  .object({
    name: z.string().nullable(),
    description: z.string().nullable(),
    website: z.string().nullable(),
    competitors: z.array(z.string()),
    guidelines: z.string().nullable(),
    updatedAt,
  })
  .meta({ id: 'CompanyProfile' });

const invalid = { description: 'A field is unknown, of the wrong type or breaks its rule (`validation_error`, with `field`); nothing changed' };

export const workspaceSettingsRoutes: GraphQLRoute[] = [
  {
    method: 'GET',
    path: '/v1/filters',
    operationId: 'getWorkspaceFilters',
    summary: 'Workspace-wide noise rules, applied to every keyword before a post is stored; a post must pass them and its keyword\'s rules',
    tag: 'Workspace settings',
    responses: { 200: { description: 'The filters', schema: workspaceFiltersSchema }, 401: unauthorizedResponse },
    operation: `query WorkspaceFilters { workspaceFilters { ${filtersFields} } }`,
    variables: () => ({}),
    result: (data) => ({ status: 200, body: data.workspaceFilters }),
  },
  {
    method: 'PATCH',
    path: '/v1/filters',
    operationId: 'updateWorkspaceFilters',
    summary: 'Changes the filters: omitted fields stay, a sent list replaces the old one (each `subreddits` list on its own), null or [] clears it',
    tag: 'Workspace settings',
    body: workspaceFiltersPatchInput,
    responses: { 200: { description: 'The filters after the change', schema: workspaceFiltersSchema }, 400: invalid, 401: unauthorizedResponse, 403: readOnlyKeyResponse },
    operation: `mutation UpdateWorkspaceFilters($input: WorkspaceFiltersPatchInput!) { updateWorkspaceFilters(input: $input) { ${filtersFields} } }`,
    variables: ({ body }) => ({ input: body }),
    result: (data) => ({ status: 200, body: data.updateWorkspaceFilters }),
  },
  {
    method: 'GET',
    path: '/v1/company-profile',
    operationId: 'getCompanyProfile',
    summary: 'What the classifier reads about the company; the default group reads it as its description',
    tag: 'Workspace settings',
    responses: { 200: { description: 'The company profile', schema: companyProfileSchema }, 401: unauthorizedResponse },
    operation: `query CompanyProfile { companyProfile { ${profileFields} } }`,
    variables: () => ({}),
    result: (data) => ({ status: 200, body: data.companyProfile }),
  },
  {
    method: 'PATCH',
    path: '/v1/company-profile',
    operationId: 'updateCompanyProfile',
    summary: 'Changes the company profile: omitted fields stay, null or blank clears, `competitors` is replaced',
    tag: 'Workspace settings',
    body: companyProfilePatchInput,
    responses: { 200: { description: 'The profile after the change', schema: companyProfileSchema }, 400: invalid, 401: unauthorizedResponse, 403: readOnlyKeyResponse },
    operation: `mutation UpdateCompanyProfile($input: CompanyProfilePatchInput!) { updateCompanyProfile(input: $input) { ${profileFields} } }`,
    variables: ({ body }) => ({ input: body }),
    result: (data) => ({ status: 200, body: data.updateCompanyProfile }),
  },
];
