import { z } from 'zod';
import { type GraphQLRoute, RequestRefusal } from '../../route.ts';
import { octolensBadBody, octolensBase, octolensReadOnly, octolensTag, octolensUnauthorized } from '../octolens-routes.ts';

/**
 * A prepaid workspace in the words of Octolens's plans: on its welcome
 * credit until the first top-up, prepaid after; a welcome credit spent
 * (every keyword paused for balance) is a trial that expired.
 */
const planOf = (wallet: { onWelcomeCredit: boolean }) => (wallet.onWelcomeCredit ? 'welcome_credit' : 'prepaid');

const organizationSchema = z
  .object({
    organizationId: z.string().meta({ example: 'org_01jd8x3m5c2v7q9r4t6w8y0z1a' }),
    name: z.string(),
    plan: z.enum(['welcome_credit', 'prepaid']),
    isAnnualPlan: z.literal(false),
    platforms: z.literal('all').meta({ description: 'Platforms are chosen per keyword' }),
    createdAt: z.iso.datetime(),
    onboardingFinishedAt: z.iso.datetime().meta({ description: 'A workspace works from its creation' }),
    freeTrialExpired: z.boolean().meta({ description: 'The welcome credit is spent and the wallet never topped up' }),
  })
  .meta({ id: 'OctolensOrganization' });

const organizationFields = 'id name createdAt wallet { onWelcomeCredit status }';

function octolensOrganization(workspace: Record<string, any>): z.output<typeof organizationSchema> {
  return {
    organizationId: workspace.id,
    name: workspace.name,
    plan: planOf(workspace.wallet),
    isAnnualPlan: false,
    platforms: 'all',
    createdAt: workspace.createdAt,
    onboardingFinishedAt: workspace.createdAt,
    freeTrialExpired: workspace.wallet.onWelcomeCredit && workspace.wallet.status === 'paused',
  };
}

const allowance = (description: string) => z.object({ count: z.number().int(), limit: z.number().int() }).meta({ description });

const roleOf = (role: string) => (role === 'member' ? 'member' : 'admin');

const invitationFields = 'id email role createdAt';

const octolensInvitationSchema = z
  .object({
    id: z.string().meta({ example: 'inv_01jd8x3m5c2v7q9r4t6w8y0z1a' }),
    email: z.string().meta({ description: 'The invited address, lower-cased' }),
    role: z.enum(['admin', 'member']).meta({ description: 'The role on accepting; an invitation to owner shows as `admin`' }),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'OctolensInvitation' });

const octolensInvitation = (invitation: Record<string, string>): z.output<typeof octolensInvitationSchema> => ({
  id: invitation.id,
  email: invitation.email,
  role: roleOf(invitation.role),
  createdAt: invitation.createdAt,
});

export const octolensOrganizationRoutes: GraphQLRoute[] = [
  {
    method: 'GET',
    path: `${octolensBase}/org`,
    operationId: 'octolensGetOrganization',
    summary: 'The workspace the key belongs to',
    tag: octolensTag,
    responses: { 200: { description: 'The workspace', schema: organizationSchema }, 401: octolensUnauthorized },
    operation: `query OctolensOrganization { whoami { workspace { ${organizationFields} } } }`,
    variables: () => ({}),
    result: (data) => ({ status: 200, body: octolensOrganization(data.whoami.workspace) }),
  },
  {
    method: 'PATCH',
    path: `${octolensBase}/org`,
    operationId: 'octolensUpdateOrganization',
    summary: 'Renames the workspace; `platforms` may only say `all`, as platforms are chosen per keyword',
    tag: octolensTag,
    body: z.strictObject({
      name: z.string().optional().meta({ description: 'The new name, 1 to 100 characters once trimmed' }),
      platforms: z
        .union([z.literal('all'), z.array(z.string())])
        .optional()
        .meta({ description: '`all` changes nothing; a list answers 501 `FEATURE_DISABLED` (platforms are chosen per keyword)' }),
    }),
    responses: {
      200: { description: 'The workspace after the change', schema: organizationSchema },
      400: octolensBadBody,
      401: octolensUnauthorized,
      403: octolensReadOnly,
      501: { description: 'A list of `platforms`: an org-wide platform choice is not offered (`FEATURE_DISABLED`); nothing changed' },
    },
    operation: `mutation OctolensUpdateOrganization($input: WorkspacePatchInput!) { updateWorkspace(input: $input) { ${organizationFields} } }`,
    variables: ({ body }) => {
      const { name, platforms } = body as { name?: string; platforms?: 'all' | string[] };
      if (Array.isArray(platforms)) {
        throw new RequestRefusal({ code: 'feature_disabled', message: 'Platforms are chosen per keyword: only "all" is taken for the organization' });
      }
      return { input: { name } };
    },
    result: (data) => ({ status: 200, body: octolensOrganization(data.updateWorkspace) }),
  },
  {
    method: 'GET',
    path: `${octolensBase}/org/usage`,
    operationId: 'octolensGetUsage',
    summary: 'The prepaid wallet as a plan quota: each limit is the count plus what the effective balance still pays for; nothing resets',
    tag: octolensTag,
    responses: {
      200: {
        description: 'Usage against what the balance allows',
        schema: z
          .object({
            plan: z.enum(['welcome_credit', 'prepaid']),
            mentions: allowance('Mentions charged this calendar month, and that count plus the mentions the balance still pays for').extend({
              resetAt: z.null().meta({ description: 'A prepaid balance does not reset' }),
            }),
            keywords: allowance('Running keywords, and how many the balance runs another day: a keyword can be added while count is under limit'),
          })
          .meta({ id: 'OctolensUsage' }),
      },
      401: octolensUnauthorized,
    },
    operation: 'query OctolensUsage { compatQuota { mentions { count limit } keywords { count limit } } wallet { onWelcomeCredit } }',
    variables: () => ({}),
    result: (data) => ({
      status: 200,
      body: { plan: planOf(data.wallet), mentions: { ...data.compatQuota.mentions, resetAt: null }, keywords: data.compatQuota.keywords },
    }),
  },
  {
    method: 'GET',
    path: `${octolensBase}/org/members`,
    operationId: 'octolensListMembers',
    summary: "The workspace's members in the order they joined; an owner shows as `admin`",
    tag: octolensTag,
    responses: {
      200: {
        description: 'The members',
        schema: z
          .object({
            data: z.array(
              z.object({
                id: z.string().meta({ description: 'The member’s user id, what the remove route takes' }),
                userId: z.string(),
                email: z.string(),
                firstName: z.string().nullable(),
                lastName: z.string().nullable(),
                role: z.enum(['admin', 'member']),
                createdAt: z.iso.datetime(),
              }),
            ),
          })
          .meta({ id: 'OctolensMembers' }),
      },
      401: octolensUnauthorized,
    },
    operation: 'query OctolensMembers { members { id email name role joinedAt } }',
    variables: () => ({}),
    result: (data) => ({
      status: 200,
      body: {
        data: data.members.map((member: Record<string, string>) => {
          const [firstName, ...rest] = member.name.trim().split(/\s+/);
          return {
            id: member.id,
            userId: member.id,
            email: member.email,
            firstName: firstName || null,
            lastName: rest.join(' ') || null,
            role: roleOf(member.role),
            createdAt: member.joinedAt,
          };
        }),
      },
    }),
  },
  {
    method: 'GET',
    path: `${octolensBase}/org/members/invitations`,
    operationId: 'octolensListInvitations',
    summary: 'Invitations not yet answered (nor expired), oldest first',
    tag: octolensTag,
    responses: {
      200: { description: 'The pending invitations', schema: z.object({ data: z.array(octolensInvitationSchema) }).meta({ id: 'OctolensInvitationList' }) },
      401: octolensUnauthorized,
    },
    operation: `query OctolensInvitations { invitations { ${invitationFields} } }`,
    variables: () => ({}),
    result: (data) => ({ status: 200, body: { data: data.invitations.map(octolensInvitation) } }),
  },
  {
    method: 'POST',
    path: `${octolensBase}/org/members/invite`,
    operationId: 'octolensInviteMember',
    summary:
      'E-mails an invitation valid 7 days; team changes are made by a signed-in owner or admin, so an API key is refused. ' +
      'A pending invitation to the same address is replaced',
    tag: octolensTag,
    body: z.strictObject({
      email: z.string().meta({ description: 'Address to send the invitation to', example: 'jsmith@example.com' }),
      role: z.enum(['admin', 'member']).optional().meta({ description: 'Role on accepting; default `member`' }),
    }),
    responses: {
      200: { description: 'Sent; the invitation is pending', schema: octolensInvitationSchema },
      400: { description: `${octolensBadBody.description}; a mail server refusing the address outright is \`VALIDATION_ERROR\` on \`email\`` },
      401: octolensUnauthorized,
      403: { description: 'An API key, a plain member, or an admin replacing a pending invitation to the owner role (`FORBIDDEN`, `PROTECTED_USER`)' },
      409: { description: 'The address belongs to a member already (`ALREADY_MEMBER`)' },
      501: { description: 'E-mail is not configured on this install (`EMAIL_NOT_CONFIGURED`)' },
      502: { description: 'The mail server could not be reached or refused for now (`UPSTREAM_UNAVAILABLE`); nothing was stored' },
    },
    operation: `mutation OctolensInviteMember($input: InviteMemberInput!) { inviteMember(input: $input) { ${invitationFields} } }`,
    variables: ({ body }) => ({ input: body }),
    result: (data) => ({ status: 200, body: octolensInvitation(data.inviteMember) }),
  },
  {
    method: 'DELETE',
    path: `${octolensBase}/org/members/{id}`,
    operationId: 'octolensRemoveMember',
    summary: 'Removes a member: team changes are made by a signed-in owner or admin, so an API key is refused',
    tag: octolensTag,
    responses: {
      200: { description: 'Removed', schema: z.object({ ok: z.literal(true), id: z.string(), removed: z.literal(true) }).meta({ id: 'OctolensMemberRemoval' }) },
      401: octolensUnauthorized,
      403: { description: 'An API key, or a member who may not remove this one (`FORBIDDEN`, `PROTECTED_USER`)' },
      404: { description: 'No such member in this workspace (`NOT_FOUND`)' },
      409: { description: 'The last owner of the workspace (`LAST_OWNER`)' },
    },
    operation: 'mutation OctolensRemoveMember($id: ID!) { removeMember(id: $id) { id } }',
    variables: ({ params }) => ({ id: params.id }),
    result: (data) => ({ status: 200, body: { ok: true, id: data.removeMember.id, removed: true } }),
  },
];
