import { z } from 'zod';
import { memberRoleInput } from '../../subgraphs/team/index.ts';
import type { GraphQLRoute } from '../route.ts';
import { invalidBodyResponse, notFoundResponse, unauthorizedResponse } from '../route-responses.ts';

const memberFields = 'id email name role joinedAt';

const memberSchema = z
  .object({
    id: z.string().meta({ description: 'The user id', example: 'usr_01jd8x3m5c2v7q9r4t6w8y0z1a' }),
    email: z.string(),
    name: z.string(),
    role: z.enum(['owner', 'admin', 'member']),
    joinedAt: z.iso.datetime(),
  })
  .meta({ id: 'Member' });

export const memberRoutes: GraphQLRoute[] = [
  {
    method: 'GET',
    path: '/v1/members',
    operationId: 'listMembers',
    summary: "The workspace's members, in the order they joined",
    tag: 'Members',
    responses: {
      200: { description: 'The members', schema: z.object({ data: z.array(memberSchema) }).meta({ id: 'MemberList' }) },
      401: unauthorizedResponse,
    },
    operation: `query ListMembers { members { ${memberFields} } }`,
    variables: () => ({}),
    result: (data) => ({ status: 200, body: { data: data.members } }),
  },
  {
    method: 'PATCH',
    path: '/v1/members/{id}',
    operationId: 'changeMemberRole',
    credentials: 'person',
    summary: "Changes a member's role; needs a signed-in owner or admin, and a workspace keeps at least one owner",
    tag: 'Members',
    body: memberRoleInput,
    responses: {
      200: { description: 'The member with the new role', schema: memberSchema },
      400: invalidBodyResponse,
      401: unauthorizedResponse,
      403: {
        description:
          'An API key or a plain member (`forbidden`), an admin making an owner (`forbidden`) or changing one (`protected_user`)',
      },
      404: notFoundResponse('member (a user of another workspace is not one)'),
      409: { description: 'Demoting the last owner of the workspace (`last_owner`)' },
    },
    operation: `mutation ChangeMemberRole($id: ID!, $role: MemberRole) { changeMemberRole(id: $id, role: $role) { ${memberFields} } }`,
    variables: ({ params, body }) => ({ id: params.id, role: (body as { role?: string }).role ?? null }),
    result: (data) => ({ status: 200, body: data.changeMemberRole }),
  },
  {
    method: 'DELETE',
    path: '/v1/members/{id}',
    operationId: 'removeMember',
    credentials: 'person',
    summary: 'Removes a member; needs a signed-in owner or admin, and a workspace keeps at least one owner',
    tag: 'Members',
    responses: {
      204: { description: 'Removed' },
      401: unauthorizedResponse,
      403: {
        description:
          'An API key (`forbidden`: changes to the team are made by a signed-in person), a plain member (`forbidden`), ' +
          'an admin removing an owner (`protected_user`), or a `read` credential (`read_only_key`)',
      },
      404: notFoundResponse('member (a user of another workspace is not one)'),
      409: { description: 'The last owner of the workspace (`last_owner`)' },
    },
    operation: `mutation RemoveMember($id: ID!) { removeMember(id: $id) { id } }`,
    variables: ({ params }) => ({ id: params.id }),
    result: () => ({ status: 204 }),
  },
];
