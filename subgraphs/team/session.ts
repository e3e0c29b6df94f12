import 'reflect-metadata';
import { Arg, Ctx, Field, ID, InputType, Mutation, ObjectType, Resolver } from 'type-graphql';
import { z } from 'zod';
import { publicUrl } from '../../runtime/config.ts';
import { domainError } from '../domain-error.ts';
import { requireAuth } from '../require-auth.ts';
import type { SubgraphContext } from '../subgraph-server.ts';
import { parseInput } from '../validate-input.ts';
import { findMemberRole } from './member-store.ts';
import { authenticateSession, insertSession, revokeSession } from './session-store.ts';
import { countSignInFailure, signInBlockedFor } from './sign-in-failure-store.ts';
import { emailAddress } from './user.ts';
import { verifyPassword } from './user-password.ts';
import { findUserByEmail, firstWorkspaceOf, normaliseEmail } from './user-store.ts';
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

const wrongCredentials = () => domainError('unauthorized', 'Wrong e-mail address or password');

@Resolver()
export class SessionResolver {
  @Mutation(() => SignedInSession, { description: 'Signs in with an e-mail address and password (public; failures are rate-limited per account)' })
  async signInWithPassword(@Arg('input', () => PasswordSignInInput) input: PasswordSignInInput, @Ctx() ctx: SubgraphContext): Promise<SignedInSession> {
    const valid = parseInput(passwordSignInInput, input);
    const subject = `account:${normaliseEmail(valid.email)}`;
    const blockedFor = await signInBlockedFor(ctx.sql, subject);
    if (blockedFor !== null) {
      throw domainError('rate_limited', 'Too many failed sign-ins for this account; try again later', { retryAfterSeconds: blockedFor });
    }
    const user = await findUserByEmail(ctx.sql, valid.email);
    const workspaceId = user && (valid.workspaceId ?? (await firstWorkspaceOf(ctx.sql, user.id)));
    const role = user && workspaceId ? await findMemberRole(ctx.sql, workspaceId, user.id) : undefined;
    // The password is checked even when the rest already failed, so the answer takes as long either way.
    const passwordMatches = await verifyPassword(valid.password, user?.passwordHash ?? null);
    if (!user || !workspaceId || !role || !passwordMatches) {
      await countSignInFailure(ctx.sql, subject);
      throw wrongCredentials();
    }
    const session = await insertSession(ctx.sql, { userId: user.id, workspaceId });
    return {
      token: session.token,
      csrfToken: session.csrfToken,
      expiresAt: session.expiresAt,
      secureCookies: publicUrl().startsWith('https:'),
      user: { id: user.id, email: user.email, name: user.name },
      workspaceId,
    };
  }

  @Mutation(() => Boolean, { description: 'Ends the session the cookie names; it stops working at once' })
  async signOut(@Arg('sessionToken', () => String) sessionToken: string, @Ctx() ctx: SubgraphContext): Promise<boolean> {
    const auth = requireAuth(ctx);
    const session = await authenticateSession(ctx.sql, sessionToken);
    if (auth.kind !== 'session' || !session || session.userId !== auth.userId) {
      throw domainError('forbidden', 'Only a signed-in session can sign itself out');
    }
    await revokeSession(ctx.sql, session.id);
    return true;
  }
}
