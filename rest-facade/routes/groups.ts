import { z } from 'zod';
import { groupCreateInput, groupPatchInput } from '../../subgraphs/keywords/index.ts';
import type { GraphQLRoute } from '../route.ts';
import { invalidBodyResponse, notFoundResponse, readOnlyKeyResponse, unauthorizedResponse } from '../route-responses.ts';

const groupFields = 'id name externalId description isDefault keywordCount createdAt';

const groupSchema = z
  .object({
    id: z.string().meta({ example: 'grp_01jd8x3m5c2v7q9r4t6w8y0z1a' }),
    name: z.string(),
    externalId: z.string().nullable().meta({ description: "The caller's own id" }),
    description: z.string().nullable().meta({
      description: 'What the classifier reads for every keyword of the group; always null on the default group, which reads the company profile',
    }),
    isDefault: z.boolean().meta({ description: 'The workspace default group, where a keyword lands when no group is named' }),
    keywordCount: z.number().int(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Group' });

const duplicateGroup = { description: 'Another group has this name (any case) or externalId (`duplicate_group`, with `field`)' };

export const groupRoutes: GraphQLRoute[] = [
  {
    method: 'GET',
    path: '/v1/groups',
    operationId: 'listGroups',
    summary: 'Every group of the workspace: the default group first, then oldest first',
    tag: 'Groups',
    responses: {
      200: { description: 'The groups', schema: z.object({ data: z.array(groupSchema) }).meta({ id: 'GroupList' }) },
      401: unauthorizedResponse,
    },
    operation: `query ListGroups { groups { ${groupFields} } }`,
    variables: () => ({}),
    result: (data) => ({ status: 200, body: { data: data.groups } }),
  },
  {
    method: 'POST',
    path: '/v1/groups',
    operationId: 'createGroup',
    summary: 'Creates a group; put keywords in it with `groupId` on keyword create or PATCH',
    tag: 'Groups',
    body: groupCreateInput,
    responses: { 201: { description: 'The new group', schema: groupSchema }, 400: invalidBodyResponse, 401: unauthorizedResponse, 403: readOnlyKeyResponse, 409: duplicateGroup },
    operation: `mutation CreateGroup($input: CreateGroupInput!) { createGroup(input: $input) { ${groupFields} } }`,
    variables: ({ body }) => ({ input: body }),
    result: (data) => ({ status: 201, body: data.createGroup }),
  },
  {
    method: 'GET',
    path: '/v1/groups/{id}',
    operationId: 'getGroup',
    summary: 'One group',
    tag: 'Groups',
    responses: { 200: { description: 'The group', schema: groupSchema }, 401: unauthorizedResponse, 404: notFoundResponse('group') },
    operation: `query GetGroup($id: ID!) { group(id: $id) { ${groupFields} } }`,
    variables: ({ params }) => ({ id: params.id }),
    result: (data) => ({ status: 200, body: data.group }),
  },
  {
    method: 'PATCH',
    path: '/v1/groups/{id}',
    operationId: 'updateGroup',
    summary: 'Renames a group or changes its externalId or description: omitted fields stay, null clears; the id stays',
    tag: 'Groups',
    body: groupPatchInput,
    responses: {
      200: { description: 'The group after the change', schema: groupSchema },
      400: invalidBodyResponse,
      401: unauthorizedResponse,
      403: readOnlyKeyResponse,
      404: notFoundResponse('group'),
      409: {
        description:
          'Another group has this name or externalId (`duplicate_group`), or a description was given to the default group, ' +
          'which reads the company profile instead (`default_group_context`)',
      },
    },
    operation: `mutation UpdateGroup($id: ID!, $input: GroupPatchInput!) { updateGroup(id: $id, input: $input) { ${groupFields} } }`,
    variables: ({ params, body }) => ({ id: params.id, input: body }),
    result: (data) => ({ status: 200, body: data.updateGroup }),
  },
  {
    method: 'DELETE',
    path: '/v1/groups/{id}',
    operationId: 'deleteGroup',
    summary:
      'Deletes a group. Its keywords move to the default group with their settings and mentions; ' +
      'when the default group already tracks one of their terms nothing changes (409 `duplicate_keyword`)',
    tag: 'Groups',
    responses: {
      204: { description: 'Deleted; its keywords are in the default group' },
      401: unauthorizedResponse,
      403: readOnlyKeyResponse,
      404: notFoundResponse('group'),
      409: {
        description:
          'The default group cannot be deleted (`default_group`), or it already tracks a term of this group (`duplicate_keyword`); nothing changed',
      },
    },
    operation: `mutation DeleteGroup($id: ID!) { deleteGroup(id: $id) }`,
    variables: ({ params }) => ({ id: params.id }),
    result: () => ({ status: 204 }),
  },
];
