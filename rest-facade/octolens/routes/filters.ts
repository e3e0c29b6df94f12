import { z } from 'zod';
import { compatFilterValuesInput, compatWorkspaceFiltersInput } from '../../../subgraphs/keywords/index.ts';
import type { GraphQLRoute } from '../../route.ts';
import { octolensFilterListsFields, octolensFilterValues, octolensGlobalFilters, octolensGlobalFiltersSchema } from '../octolens-records.ts';
import { octolensBadBody, octolensBase, octolensReadOnly, octolensTag, octolensUnauthorized } from '../octolens-routes.ts';

const listNames = compatFilterValuesInput.shape.list;
const clearNotConfirmed = 'A write that would empty a list holding values, without `confirmClear: true` (`CLEAR_NOT_CONFIRMED`)';

export const octolensFilterRoutes: GraphQLRoute[] = [
  {
    method: 'GET',
    path: `${octolensBase}/filters/global`,
    operationId: 'octolensGetGlobalFilters',
    summary: 'The workspace filters every keyword passes through, under Octolens’s list names',
    tag: octolensTag,
    responses: { 200: { description: 'The five lists', schema: octolensGlobalFiltersSchema }, 401: octolensUnauthorized },
    operation: `query OctolensGlobalFilters { workspaceFilters { ${octolensFilterListsFields} } }`,
    variables: () => ({}),
    result: (data) => ({ status: 200, body: octolensGlobalFilters(data.workspaceFilters) }),
  },
  {
    method: 'PATCH',
    path: `${octolensBase}/filters/global`,
    operationId: 'octolensUpdateGlobalFilters',
    summary:
      'Replaces the lists sent (at least one), omitted ones stay. Emptying a list that holds values with `[]` needs `confirmClear: true`; a subreddit may not be both allowed and excluded',
    tag: octolensTag,
    body: compatWorkspaceFiltersInput,
    responses: {
      200: { description: 'The five lists after the change', schema: octolensGlobalFiltersSchema },
      400: { description: `${octolensBadBody.description}, a body naming no list, or ${clearNotConfirmed.charAt(0).toLowerCase()}${clearNotConfirmed.slice(1)}` },
      401: octolensUnauthorized,
      403: octolensReadOnly,
      409: { description: 'A subreddit would be both in `positiveSubreddits` and in `negativeSubreddits` (`FEED_FILTER_WRITE_CONFLICT`)' },
    },
    operation: `mutation OctolensUpdateGlobalFilters($input: CompatWorkspaceFiltersInput!) {
      compatUpdateWorkspaceFilters(input: $input) { ${octolensFilterListsFields} }
    }`,
    variables: ({ body }) => ({ input: body }),
    result: (data) => ({ status: 200, body: octolensGlobalFilters(data.compatUpdateWorkspaceFilters) }),
  },
  {
    method: 'POST',
    path: `${octolensBase}/filters/global/add`,
    operationId: 'octolensAddGlobalFilterValues',
    summary: 'Adds values to one list; values there already change nothing, and a subreddit the other subreddit list holds is dropped',
    tag: octolensTag,
    body: compatFilterValuesInput.omit({ confirmClear: true }),
    responses: {
      200: {
        description: 'What landed and the whole list',
        schema: z
          .object({
            list: listNames,
            added: z.array(z.string()).meta({ description: 'Values that landed, as stored' }),
            dropped: z.array(z.string()).meta({ description: 'Values the counterpart subreddit list holds' }),
            values: z.array(z.string()),
          })
          .meta({ id: 'OctolensFilterAddition' }),
      },
      400: octolensBadBody,
      401: octolensUnauthorized,
      403: octolensReadOnly,
    },
    operation: `mutation OctolensAddFilterValues($list: String!, $values: [String!]!) {
      compatAddWorkspaceFilterValues(list: $list, values: $values) { list added dropped values }
    }`,
    variables: ({ body }) => ({ list: (body as { list: string }).list, values: (body as { values: string[] }).values }),
    result: (data) => {
      const { list, added, dropped, values } = data.compatAddWorkspaceFilterValues;
      return { status: 200, body: { list, added: octolensFilterValues(list, added), dropped, values: octolensFilterValues(list, values) } };
    },
  },
  {
    method: 'POST',
    path: `${octolensBase}/filters/global/remove`,
    operationId: 'octolensRemoveGlobalFilterValues',
    summary: 'Takes values out of one list; values not there are ignored, and emptying the list needs `confirmClear: true`',
    tag: octolensTag,
    body: compatFilterValuesInput,
    responses: {
      200: {
        description: 'What left and the whole list',
        schema: z
          .object({ list: listNames, removed: z.array(z.string()).meta({ description: 'Values that left, as they were stored' }), values: z.array(z.string()) })
          .meta({ id: 'OctolensFilterRemoval' }),
      },
      400: { description: `${octolensBadBody.description}, a body naming no list, or ${clearNotConfirmed.charAt(0).toLowerCase()}${clearNotConfirmed.slice(1)}` },
      401: octolensUnauthorized,
      403: octolensReadOnly,
    },
    operation: `mutation OctolensRemoveFilterValues($list: String!, $values: [String!]!, $confirmClear: Boolean) {
      compatRemoveWorkspaceFilterValues(list: $list, values: $values, confirmClear: $confirmClear) { list removed values }
    }`,
    variables: ({ body }) => {
      const { list, values, confirmClear } = body as { list: string; values: string[]; confirmClear?: boolean };
      return { list, values, confirmClear: confirmClear ?? null };
    },
    result: (data) => {
      const { list, removed, values } = data.compatRemoveWorkspaceFilterValues;
      return { status: 200, body: { list, removed: octolensFilterValues(list, removed), values: octolensFilterValues(list, values) } };
    },
  },
];
