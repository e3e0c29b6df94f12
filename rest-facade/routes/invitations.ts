import { z } from 'zod';
import { inviteMemberInput } from '../../subgraphs/team/index.ts';
import type { GraphQLRoute } from '../route.ts';
import { invalidBodyResponse, notFoundResponse, unauthorizedResponse } from '../route-responses.ts';
import { sessionSchema, signedInFields, signedInResult } from './sessions.ts';

const timestamp = z.iso.datetime();
const role = z.enum(['owner', 'admin', 'member']);
const state = z
  .enum(['pending', 'accepted', 'declined', 'expired'])
  .meta({ description: '`pending` until answered, `expired` once pending for 7 days, else `accepted` (the invitee is a member) or `declined`' });
const inviter = z
  .object({ id: z.string().meta({ example: 'usr_01jd8x3m5c2v7q9r4t6w8y0z1a' }), name: z.string(), email: z.string() })
  .nullable()
  .meta({ description: 'Who sent it; null once that user is gone' });

const invitationFields = 'id email role state invitedBy { id name email } createdAt expiresAt';
const receivedFields = 'id workspace { id name } email role state invitedBy { id name email } expiresAt';

const invitationSchema = z
  .object({
    id: z.string().meta({ example: 'inv_01jd8x3m5c2v7q9r4t6w8y0z1a' }),
    email: z.string().meta({ description: 'The invited address, lower-cased' }),
    role: role.meta({ description: 'The role the invitee gets on accepting' }),
    state,
    invitedBy: inviter,
    createdAt: timestamp,
    expiresAt: timestamp.meta({ description: 'Seven days after sending' }),
  })
  .meta({ id: 'Invitation' });

const receivedInvitationSchema = z
  .object({
    id: z.string().meta({ example: 'inv_01jd8x3m5c2v7q9r4t6w8y0z1a' }),
    workspace: z.object({ id: z.string(), name: z.string() }),
    email: z.string().meta({ description: 'The invited address: the one accepting signs in with it' }),
    role,
    state,
    invitedBy: inviter,
    expiresAt: timestamp,
  })
  .meta({ id: 'ReceivedInvitation' });

const tokenBody = z.strictObject({ token: z.string().min(1).max(200).meta({ description: 'The `token` of the invitation link' }) });

const unknownTokenResponse = { description: 'The token names no invitation, or one withdrawn or replaced (`invalid_token`)' };
const closedInvitationResponse = {
  description: 'The invitation is no longer open: already accepted, declined, or expired (`invalid_token`; the message says which). `GET /v1/invitation` still shows it',
};
const teamChangeRefused = 'an API key (`forbidden`: changes to the team are made by a signed-in person), a plain member (`forbidden`), or a cookie without its `X-CSRF-Token` (`forbidden`)';

export const invitationRoutes: GraphQLRoute[] = [
  {
    method: 'GET',
    path: '/v1/members/invitations',
    operationId: 'listInvitations',
    summary: 'Invitations waiting for an answer: sent, not accepted, declined or expired; oldest first',
    tag: 'Members',
    responses: {
      200: { description: 'The pending invitations', schema: z.object({ data: z.array(invitationSchema) }).meta({ id: 'InvitationList' }) },
      401: unauthorizedResponse,
    },
    operation: `query ListInvitations { invitations { ${invitationFields} } }`,
    variables: () => ({}),
    result: (data) => ({ status: 200, body: { data: data.invitations } }),
  },
  {
    method: 'POST',
    path: '/v1/members/invitations',
    operationId: 'inviteMember',
    credentials: 'person',
    summary:
      'E-mails an invitation with a single-use link valid 7 days; needs a signed-in owner or admin. A pending invitation to the same address is replaced: its link stops working',
    tag: 'Members',
    body: inviteMemberInput,
    responses: {
      201: { description: 'Sent; the invitation is pending', schema: invitationSchema },
      400: { description: `${invalidBodyResponse.description}; a mail server refusing the address outright is \`validation_error\` on \`email\`` },
      401: unauthorizedResponse,
      403: {
        description: `${teamChangeRefused}; an admin inviting an owner (\`forbidden\`) or replacing a pending invitation to the owner role (\`protected_user\`)`,
      },
      409: { description: 'The address belongs to a member already (`already_member`)' },
      501: { description: 'E-mail is not configured on this install (`email_not_configured`)' },
      502: { description: 'The mail server could not be reached or refused for now (`upstream_unavailable`); nothing was stored' },
    },
    operation: `mutation InviteMember($input: InviteMemberInput!) { inviteMember(input: $input) { ${invitationFields} } }`,
    variables: ({ body }) => ({ input: body }),
    result: (data) => ({ status: 201, body: data.inviteMember }),
  },
  {
    method: 'DELETE',
    path: '/v1/members/invitations/{id}',
    operationId: 'withdrawInvitation',
    credentials: 'person',
    summary: 'Withdraws an invitation not yet answered (expired ones too); its link stops working. Needs a signed-in owner or admin',
    tag: 'Members',
    responses: {
      204: { description: 'Withdrawn' },
      401: unauthorizedResponse,
      403: { description: `${teamChangeRefused}; an admin withdrawing an invitation to the owner role (\`protected_user\`), or a \`read\` credential (\`read_only_key\`)` },
      404: notFoundResponse('pending invitation (accepted and declined ones are history, and another workspace’s are not found)'),
    },
    operation: `mutation WithdrawInvitation($id: ID!) { withdrawInvitation(id: $id) { id } }`,
    variables: ({ params }) => ({ id: params.id }),
    result: () => ({ status: 204 }),
  },
  {
    method: 'GET',
    path: '/v1/invitation',
    operationId: 'getReceivedInvitation',
    summary:
      'The invitation a mailed link names, in whatever state: the workspace, who sent it, the role. Needs no key (the token is the credential); the link itself opens the dashboard at `/invitation?token=…`',
    tag: 'Members',
    public: true,
    query: tokenBody,
    responses: {
      200: { description: 'The invitation', schema: receivedInvitationSchema },
      400: { description: '`token` is missing (`validation_error`)' },
      401: unknownTokenResponse,
    },
    operation: `query ReceivedInvitation($token: String!) { receivedInvitation(token: $token) { ${receivedFields} } }`,
    variables: ({ query }) => ({ token: query.token }),
    result: (data) => ({ status: 200, body: data.receivedInvitation }),
  },
  {
    method: 'POST',
    path: '/v1/invitation/accept',
    operationId: 'acceptInvitation',
    summary:
      'Accepts the invitation of a mailed link: the token proves the address, so the user is made if needed, joins with the invited role and is signed in to the workspace (the cookies of `POST /v1/auth/password` are set). ' +
      'Needs no key; a person signed in (cookie and `X-CSRF-Token`) with another address may not accept it',
    tag: 'Members',
    public: true,
    body: tokenBody,
    responses: {
      200: {
        description: 'Accepted and signed in; the cookies are set',
        schema: z.object({ invitation: receivedInvitationSchema, ...sessionSchema.shape }).meta({ id: 'AcceptedInvitation' }),
      },
      400: invalidBodyResponse,
      401: unknownTokenResponse,
      410: closedInvitationResponse,
      403: { description: 'Signed in with another address than the invited one (`forbidden`)' },
    },
    operation: `mutation AcceptInvitation($token: String!) { acceptInvitation(token: $token) { invitation { ${receivedFields} } session { ${signedInFields} } } }`,
    variables: ({ body }) => ({ token: (body as { token: string }).token }),
    result: (data) => signedInResult(data.acceptInvitation.session, { invitation: data.acceptInvitation.invitation }),
  },
  {
    method: 'POST',
    path: '/v1/invitation/decline',
    operationId: 'declineInvitation',
    summary: 'Declines the invitation of a mailed link; its link stops working. Needs no key (the token is the credential)',
    tag: 'Members',
    public: true,
    body: tokenBody,
    responses: {
      200: { description: 'Declined', schema: receivedInvitationSchema },
      400: invalidBodyResponse,
      401: unknownTokenResponse,
      410: closedInvitationResponse,
      403: { description: 'Signed in with another address than the invited one (`forbidden`)' },
    },
    operation: `mutation DeclineInvitation($token: String!) { declineInvitation(token: $token) { ${receivedFields} } }`,
    variables: ({ body }) => ({ token: (body as { token: string }).token }),
    result: (data) => ({ status: 200, body: data.declineInvitation }),
  },
];
