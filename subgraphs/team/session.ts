import 'reflect-metadata';
import { Arg, Ctx, Field, ID, InputType, Mutation, ObjectType, Resolver } from 'type-graphql';
import { z } from 'zod';
import { publicUrl } from '../../runtime/config.ts';
import { domainError, notFound } from '../domain-error.ts';
import { requireAuth } from '../require-auth.ts';
import type { SubgraphContext } from '../subgraph-server.ts';
import { parseInput } from '../validate-input.ts';
import { findMemberRole } from './member-store.ts';
import { authenticateSession, insertSession, revokeOtherSessions, revokeSession } from './session-store.ts';
import { claimAttempt, failedSignInLimits, signInLinkLimits } from './sign-in-limits.ts';
import { requireSignedInUser } from './signed-in-user.ts';
import { emailAddress } from './user.ts';
import { passwordRule, setUserPassword, verifyPassword } from './user-password.ts';
import { findUser, findUserByEmail, firstWorkspaceOf } from './user-store.ts';
import { insertMagicLink, useMagicLink } from './magic-link-store.ts';
import { requireMailSettings, sendMailNow } from './mailer.ts';
import { escapeHtml } from './email-messages.ts';
import { User } from './workspace.ts';

@InputType()
export class PasswordSignInInput {
  @Field(() => String) email!: string;
  @Field(() => String) password!: string;
  @Field(() => ID, { nullable: true, description: 'Default: the workspace the user joined first' }) workspaceId?: string | null;
}

export const passwordSignInInput = z.strictObject({
  email: emailAddress,
  password: z.string().min(1, 'must not be empty').max(1024, 'must be at most 1024 characters'),
  workspaceId: z.string().nullish(),
});

@ObjectType({ description: 'A new dashboard session; the REST facade turns the tokens into cookies' })
export class SignedInSession {
  @Field(() => String, { description: 'The value of the `earshot_session` cookie' }) token!: string;
  @Field(() => String, { description: 'The value of the `earshot_csrf` cookie, to repeat in `X-CSRF-Token` on changes' }) csrfToken!: string;
  @Field(() => Date) expiresAt!: Date;
  @Field(() => Boolean, { description: 'Whether Earshot is served over https, so cookies are `Secure`' }) secureCookies!: boolean;
  @Field(() => User) user!: User;
  @Field(() => ID) workspaceId!: string;
}

@ObjectType({ description: 'An ended dashboard session; the REST facade clears its cookies' })
export class SignedOut {
  @Field(() => Boolean, { description: 'Whether Earshot is served over https: the cookies that clear the session are `Secure`, as those that set it were' })
  secureCookies!: boolean;
}

@InputType()
export class MagicLinkInput {
  @Field(() => String) email!: string;
}

export const magicLinkInput = z.strictObject({ email: emailAddress });

/**
 * The dashboard page a sign-in link opens. The page, not the link, spends the
 * token (through `GET /v1/auth/magic-link/verify`), so a mail scanner that
 * fetches every link in a message cannot use it up.
 */
export const magicLinkPagePath = '/sign-in/link';

function magicLinkMessage(link: string): { subject: string; text: string; html: string } {
  return {
    subject: 'Your Earshot sign-in link',
    text: `Open this link within 15 minutes to sign in to Earshot:\n\n${link}\n\nIt works once. If you did not ask for it, ignore this e-mail.\n`,
    html: `<p>Open this link within 15 minutes to sign in to Earshot:</p><p><a href="${escapeHtml(link)}">Sign in</a></p><p>It works once. If you did not ask for it, ignore this e-mail.</p>`,
  };
}

/** What signing in needs of the subgraph's context; the OAuth sign-in page calls these functions with the same. */
type SignInContext = Pick<SubgraphContext, 'sql' | 'env' | 'clientAddress'>;

/** Whether the session cookies are `Secure`: when Earshot's public address is https (ARCHITECTURE "public address"). */
const secureCookies = (ctx: Pick<SignInContext, 'env'>) => publicUrl(ctx.env).startsWith('https:');

/** A new session for the user in the workspace: the tokens the REST facade turns into cookies. */
export async function startSession(ctx: SignInContext, user: { id: string; email: string; name: string }, workspaceId: string): Promise<SignedInSession> {
  const session = await insertSession(ctx.sql, { userId: user.id, workspaceId });
  return {
    token: session.token,
    csrfToken: session.csrfToken,
    expiresAt: session.expiresAt,
    secureCookies: secureCookies(ctx),
    user: { id: user.id, email: user.email, name: user.name },
    workspaceId,
  };
}

const wrongCredentials = () => domainError('unauthorized', 'Wrong e-mail address or password');
const tooManyFailures = 'Too many failed sign-ins for this account or from this address; try again later';

/** Signs in with an e-mail address and password; failures count toward the per-account and per-address limits. */
export async function signInWithPassword(ctx: SignInContext, input: unknown): Promise<SignedInSession> {
  const valid = parseInput(passwordSignInInput, input);
  const takeBack = await claimAttempt(ctx.sql, failedSignInLimits(valid.email, ctx.clientAddress), tooManyFailures);
  const user = await findUserByEmail(ctx.sql, valid.email);
  const workspaceId = user && (valid.workspaceId ?? (await firstWorkspaceOf(ctx.sql, user.id)));
  const role = user && workspaceId ? await findMemberRole(ctx.sql, workspaceId, user.id) : undefined;
  // The password is checked even when the rest already failed, so the answer takes as long either way.
  const passwordMatches = await verifyPassword(valid.password, user?.passwordHash ?? null);
  if (!user || !workspaceId || !role || !passwordMatches) throw wrongCredentials();
  await takeBack();
  return startSession(ctx, user, workspaceId);
}

/**
 * E-mails a single-use sign-in link to the address when a user of some workspace has it;
 * `link` makes the link from the token (default: the dashboard page that spends it).
 * Requests count per address asked for and per client address whether or
 * not a user has it, so neither the answer nor the limit tells.
 */
export async function mailMagicLink(
  ctx: SignInContext,
  input: unknown,
  link: (token: string) => string = (token) => `${publicUrl(ctx.env)}${magicLinkPagePath}?token=${encodeURIComponent(token)}`,
): Promise<void> {
  const valid = parseInput(magicLinkInput, input);
  const settings = requireMailSettings(ctx.env);
  await claimAttempt(ctx.sql, signInLinkLimits(valid.email, ctx.clientAddress), 'Too many sign-in links asked for; try again later');
  const user = await findUserByEmail(ctx.sql, valid.email);
  // A user left in no workspace (every membership removed) could not sign in with it: nothing is sent, as for an address no user has.
  if (!user || !(await firstWorkspaceOf(ctx.sql, user.id))) return;
  const token = await insertMagicLink(ctx.sql, user.id);
  await sendMailNow(settings, { to: user.email, ...magicLinkMessage(link(token)) }, 'email', 'sign-in link');
}

/** Signs in with the token of an e-mailed link; each works once, for 15 minutes. */
export async function signInWithMagicLink(ctx: SignInContext, token: string): Promise<SignedInSession> {
  const userId = token.length > 0 && token.length <= 200 ? await useMagicLink(ctx.sql, token) : undefined;
  const user = userId ? await findUser(ctx.sql, userId) : undefined;
  const workspaceId = user && (await firstWorkspaceOf(ctx.sql, user.id));
  if (!user || !workspaceId) throw domainError('invalid_token', 'This sign-in link is invalid, used or expired; ask for a new one');
  return startSession(ctx, user, workspaceId);
}

@InputType()
export class SetPasswordInput {
  @Field(() => String, { nullable: true, description: 'Needed when the user has a password already' }) currentPassword?: string | null;
  @Field(() => String, { description: 'At least 10 characters' }) newPassword!: string;
}

export const setPasswordInput = z.strictObject({
  currentPassword: z.string().max(1024, 'must be at most 1024 characters').nullish(),
  newPassword: passwordRule,
});

/** The session the request's own cookie names (the facade passes it on); anything else is refused with `refusal`. */
async function ownSession(ctx: SubgraphContext, sessionToken: string, refusal: string) {
  const auth = requireAuth(ctx);
  const session = await authenticateSession(ctx.sql, sessionToken);
  if (auth.kind !== 'session' || !session || session.userId !== auth.userId || session.workspaceId !== auth.workspaceId) {
    throw domainError('forbidden', refusal);
  }
  return session;
}

@Resolver()
export class SessionResolver {
  @Mutation(() => SignedInSession, { description: 'Signs in with an e-mail address and password (public; failures are rate-limited per account and per client address)' })
  async signInWithPassword(@Arg('input', () => PasswordSignInInput) input: PasswordSignInInput, @Ctx() ctx: SubgraphContext): Promise<SignedInSession> {
    return signInWithPassword(ctx, input);
  }

  @Mutation(() => Boolean, {
    description: 'E-mails a sign-in link to the address (public); answers true whether or not a user has it. Requests are rate-limited per address asked for and per client address',
  })
  async sendMagicLink(@Arg('input', () => MagicLinkInput) input: MagicLinkInput, @Ctx() ctx: SubgraphContext): Promise<boolean> {
    await mailMagicLink(ctx, input);
    return true;
  }

  @Mutation(() => SignedInSession, { description: 'Signs in with the token of an e-mailed link (public); each link works once, for 15 minutes' })
  async signInWithMagicLink(@Arg('token', () => String) token: string, @Ctx() ctx: SubgraphContext): Promise<SignedInSession> {
    return signInWithMagicLink(ctx, token);
  }

  @Mutation(() => Boolean, {
    description: "Sets the signed-in user's password; needs the current one when there is one. Ends the user's other sessions, in every workspace",
  })
  async setPassword(@Arg('input', () => SetPasswordInput) input: SetPasswordInput, @Ctx() ctx: SubgraphContext): Promise<boolean> {
    const auth = requireSignedInUser(ctx, 'Only a signed-in user can set their password, not an API key');
    const valid = parseInput(setPasswordInput, input);
    const user = await findUser(ctx.sql, auth.userId);
    const stored = user && (await findUserByEmail(ctx.sql, user.email));
    if (!stored) throw domainError('unauthorized', 'The signed-in user no longer exists');
    if (stored.passwordHash !== null) {
      const takeBack = await claimAttempt(ctx.sql, failedSignInLimits(stored.email, ctx.clientAddress), tooManyFailures);
      if (!(await verifyPassword(valid.currentPassword ?? '', stored.passwordHash))) {
        throw domainError('validation_error', 'currentPassword: does not match the current password', { field: 'currentPassword' });
      }
      await takeBack();
    }
    await setUserPassword(ctx.sql, stored.email, valid.newPassword);
    // Whoever else holds a session of this user (a stolen cookie, a forgotten browser) is out; this one stays.
    await revokeOtherSessions(ctx.sql, stored.id, auth.sessionId ?? null);
    return true;
  }

  @Mutation(() => SignedInSession, {
    description: "Moves the signed-in user to another workspace they belong to: a new session there, the cookie's one ended",
  })
  async switchWorkspace(
    @Arg('sessionToken', () => String) sessionToken: string,
    @Arg('workspaceId', () => ID) workspaceId: string,
    @Ctx() ctx: SubgraphContext,
  ): Promise<SignedInSession> {
    const session = await ownSession(ctx, sessionToken, 'Only a signed-in session can switch workspaces');
    const user = await findUser(ctx.sql, session.userId);
    // A workspace the user is not in is as unknown as one that does not exist.
    if (!user || !(await findMemberRole(ctx.sql, workspaceId, user.id))) throw notFound('Workspace');
    const started = await startSession(ctx, user, workspaceId);
    await revokeSession(ctx.sql, session.id);
    return started;
  }

  @Mutation(() => SignedOut, { description: 'Ends the session the cookie names; it stops working at once' })
  async signOut(@Arg('sessionToken', () => String) sessionToken: string, @Ctx() ctx: SubgraphContext): Promise<SignedOut> {
    const session = await ownSession(ctx, sessionToken, 'Only a signed-in session can sign itself out');
    await revokeSession(ctx.sql, session.id);
    return { secureCookies: secureCookies(ctx) };
  }
}
