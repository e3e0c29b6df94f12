import 'reflect-metadata';
import { Arg, Ctx, Field, InputType, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { z } from 'zod';
import { domainError } from '../domain-error.ts';
import type { SubgraphContext } from '../subgraph-server.ts';
import { parseInput } from '../validate-input.ts';
import { requireSignedInUser } from './signed-in-user.ts';
import { userOfUnsubscribeToken } from './unsubscribe-links.ts';
import { findNotificationSettings, setOwnerEmails } from './user-store.ts';

@ObjectType({ description: "A person's e-mail settings, the same in every workspace they belong to" })
export class NotificationSettings {
  @Field(() => String, { description: 'Where the e-mails go' }) email!: string;
  @Field(() => Boolean, {
    description: 'Owner e-mails: a low wallet, tracking paused, a keyword at its cap, for each workspace the person owns (spec 6.4). On unless turned off',
  })
  ownerEmails!: boolean;
}

@InputType()
export class NotificationSettingsInput {
  @Field(() => Boolean) ownerEmails!: boolean;
}

export const notificationSettingsInput = z.strictObject({ ownerEmails: z.boolean() });

const refusal = 'E-mail settings belong to a signed-in person, not an API key';

/** The settings of a user who exists: a session outlives nothing, so a missing row is a broken invariant. */
function existing<T>(row: T | undefined): T {
  if (!row) throw new Error('The signed-in user has no row');
  return row;
}

@Resolver(() => NotificationSettings)
export class NotificationSettingsResolver {
  @Query(() => NotificationSettings, { description: "The signed-in person's e-mail settings" })
  async myNotificationSettings(@Ctx() ctx: SubgraphContext): Promise<NotificationSettings> {
    const auth = requireSignedInUser(ctx, refusal);
    return existing(await findNotificationSettings(ctx.sql, auth.userId));
  }

  @Mutation(() => NotificationSettings, { description: "Changes the signed-in person's e-mail settings" })
  async updateMyNotificationSettings(
    @Arg('input', () => NotificationSettingsInput) input: NotificationSettingsInput,
    @Ctx() ctx: SubgraphContext,
  ): Promise<NotificationSettings> {
    const auth = requireSignedInUser(ctx, refusal);
    const valid = parseInput(notificationSettingsInput, input);
    return existing(await setOwnerEmails(ctx.sql, auth.userId, valid.ownerEmails));
  }

  @Mutation(() => NotificationSettings, {
    description: "Turns owner e-mails off with the token of an e-mail's unsubscribe link (public: the signed token is the credential)",
  })
  async unsubscribeOwnerEmails(@Arg('token', () => String) token: string, @Ctx() ctx: SubgraphContext): Promise<NotificationSettings> {
    const userId = await userOfUnsubscribeToken(ctx.sql, ctx.secrets, token);
    const settings = userId ? await setOwnerEmails(ctx.sql, userId, false) : undefined;
    if (!settings) throw domainError('invalid_token', 'This unsubscribe link is not valid');
    return settings;
  }
}
