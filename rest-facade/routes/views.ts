import { z } from 'zod';
import { maxFilterItems, maxFilterListItems, mentionFilterRecord, mentionSorts, mentionViewCreateInput, mentionViewPatchInput } from '../../subgraphs/mentions/index.ts';
import type { GraphQLRoute } from '../route.ts';
import { notFoundResponse, readOnlyKeyResponse, unauthorizedResponse } from '../route-responses.ts';

/** A view's filter as the list names its parameters; a view names no other view. */
const viewFilterNames = Object.keys(mentionFilterRecord.shape).filter((name) => name !== 'viewId');

export const viewFields = `id name sort createdAt updatedAt filter { ${viewFilterNames.join(' ')} }`;

const viewSchema = z
  .object({
    id: z.string().meta({ example: 'view_01jd8x3m5c2v7q9r4t6w8y0z1a' }),
    name: z.string(),
    filter: mentionFilterRecord.omit({ viewId: true }).meta({ id: 'MentionViewFilter', description: 'The filters given, as `GET /v1/mentions` names them (lists as arrays)' }),
    sort: z.enum(mentionSorts),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'MentionView' });

/** The view as REST shows it: the filters it sets, and no others. */
export const viewRecord = (view: Record<string, any>) => ({
  ...view,
  filter: Object.fromEntries(Object.entries(view.filter as Record<string, unknown>).filter(([, value]) => value !== null)),
});

const badView =
  'A field is unknown or breaks its rule, the filter included, or the filter names a view (`validation_error`, with `field` such as `filter.platforms.0`), ' +
  `or the filter is over its size (\`filter_too_complex\`: at most ${maxFilterListItems} items in one list, ${maxFilterItems} in all)`;
const duplicateView = { description: 'Another view of the workspace has this name, in any case (`duplicate_view`, with `field` `name`)' };
const missingRule = 'An `alertId` in the filter that is no rule of this workspace (`not_found`)';

/** Saved views (spec 2.11, 4.7): named filter sets over mentions, applied with `viewId`. */
export const viewRoutes: GraphQLRoute[] = [
  {
    method: 'GET',
    path: '/v1/views',
    operationId: 'listViews',
    summary: "The workspace's saved views, oldest first",
    tag: 'Views',
    responses: {
      200: { description: 'The views', schema: z.object({ data: z.array(viewSchema) }).meta({ id: 'MentionViewList' }) },
      401: unauthorizedResponse,
    },
    operation: `query ListViews { mentionViews { ${viewFields} } }`,
    variables: () => ({}),
    result: (data) => ({ status: 200, body: { data: data.mentionViews.map(viewRecord) } }),
  },
  {
    method: 'POST',
    path: '/v1/views',
    operationId: 'createView',
    summary:
      'Saves a view: a name, the filters of `GET /v1/mentions` and a sort. `viewId` applies it to the list, the export and the GraphQL `mentions`; ' +
      'filters given beside it narrow it further',
    tag: 'Views',
    body: mentionViewCreateInput,
    responses: {
      201: { description: 'The new view', schema: viewSchema },
      400: { description: badView },
      401: unauthorizedResponse,
      403: readOnlyKeyResponse,
      404: { description: missingRule },
      409: duplicateView,
    },
    operation: `mutation CreateView($input: CreateMentionViewInput!) { createMentionView(input: $input) { ${viewFields} } }`,
    variables: ({ body }) => ({ input: body }),
    result: (data) => ({ status: 201, body: viewRecord(data.createMentionView) }),
  },
  {
    method: 'GET',
    path: '/v1/views/{id}',
    operationId: 'getView',
    summary: 'One saved view',
    tag: 'Views',
    responses: { 200: { description: 'The view', schema: viewSchema }, 401: unauthorizedResponse, 404: notFoundResponse('view') },
    operation: `query GetView($id: ID!) { mentionView(id: $id) { ${viewFields} } }`,
    variables: ({ params }) => ({ id: params.id }),
    result: (data) => ({ status: 200, body: viewRecord(data.mentionView) }),
  },
  {
    method: 'PATCH',
    path: '/v1/views/{id}',
    operationId: 'updateView',
    summary: 'Renames a view or changes its filter or sort: omitted fields stay; a filter replaces the whole filter (null filters nothing); a null sort is `newest`',
    tag: 'Views',
    body: mentionViewPatchInput,
    responses: {
      200: { description: 'The view after the change', schema: viewSchema },
      400: { description: badView },
      401: unauthorizedResponse,
      403: readOnlyKeyResponse,
      404: { description: `No such view in this workspace, or ${missingRule} (\`not_found\`)` },
      409: duplicateView,
    },
    operation: `mutation UpdateView($id: ID!, $input: MentionViewPatchInput!) { updateMentionView(id: $id, input: $input) { ${viewFields} } }`,
    variables: ({ params, body }) => ({ id: params.id, input: body }),
    result: (data) => ({ status: 200, body: viewRecord(data.updateMentionView) }),
  },
  {
    method: 'DELETE',
    path: '/v1/views/{id}',
    operationId: 'deleteView',
    summary: 'Deletes a view; a list or export naming it afterwards is `404 not_found`',
    tag: 'Views',
    responses: { 204: { description: 'Deleted' }, 401: unauthorizedResponse, 403: readOnlyKeyResponse, 404: notFoundResponse('view') },
    operation: `mutation DeleteView($id: ID!) { deleteMentionView(id: $id) }`,
    variables: ({ params }) => ({ id: params.id }),
    result: () => ({ status: 204 }),
  },
];
