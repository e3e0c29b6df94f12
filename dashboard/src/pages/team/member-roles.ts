import type { MemberRole } from '../../graphql/graphql';

/** The roles of spec 4.5 as the team pages name them. */
export const memberRoles: [MemberRole, string][] = [
  ['owner', 'Owner'],
  ['admin', 'Admin'],
  ['member', 'Member'],
];
