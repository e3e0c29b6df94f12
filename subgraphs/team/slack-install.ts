import 'reflect-metadata';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { Arg, Ctx, Field, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { onceWhileClientWaits } from '../../runtime/upstream-http.ts';
import { domainError } from '../domain-error.ts';
import { requireAuth } from '../require-auth.ts';
import type { SubgraphContext } from '../subgraph-server.ts';
import { IntegrationError } from './integration-error.ts';
import { type SlackApp, exchangeSlackCode, requireSlackApp, slackInstallUrl } from './slack-api.ts';
import { saveSlackInstall } from './slack-connection-store.ts';

/**
 * Connecting a workspace to Slack: the install address carries a `state`
 * naming the workspace, signed with the app's client secret and valid for
 * ten minutes, so the public OAuth callback knows which workspace approved
 * the install and cannot be pointed at another one.
 */
const stateLifetimeSeconds = 10 * 60;

const stateSignature = (app: SlackApp, payload: string) => createHmac('sha256', app.clientSecret).update(`slack-install:${payload}`).digest();

export function slackInstallState(app: SlackApp, workspaceId: string, now: Date): string {
  const payload = `${workspaceId}.${Math.floor(now.getTime() / 1000) + stateLifetimeSeconds}`;
  return `${payload}.${stateSignature(app, payload).toString('hex')}`;
}

/** The workspace a `state` names, or null when it is forged, altered or expired. */
export function readSlackInstallState(app: SlackApp, state: string, now: Date): string | null {
  const match = /^([A-Za-z0-9_-]+)\.(\d{1,12})\.([0-9a-f]{64})$/.exec(state);
  if (!match) return null;
  const [, workspaceId, expires, signature] = match;
  if (!timingSafeEqual(Buffer.from(signature, 'hex'), stateSignature(app, `${workspaceId}.${expires}`))) return null;
  return Number(expires) >= now.getTime() / 1000 ? workspaceId : null;
}

@ObjectType()
export class SlackInstallStart {
  @Field(() => String, { description: "Slack's authorize page; it sends the installer back to the OAuth callback" }) url!: string;
}

@ObjectType()
export class SlackInstallResult {
  @Field(() => Boolean) connected!: boolean;
  @Field(() => String, { description: 'The Slack workspace the app was installed in' }) teamName!: string;
}

export async function completeSlackInstall(
  ctx: Pick<SubgraphContext, 'sql' | 'env' | 'clock' | 'secrets'>,
  callback: { code: string | null; state: string; error: string | null },
): Promise<SlackInstallResult> {
  const app = requireSlackApp(ctx.env);
  const now = ctx.clock.now();
  const workspaceId = readSlackInstallState(app, callback.state, now);
  if (!workspaceId) throw domainError('validation_error', 'The install link is invalid or older than ten minutes; start the install again', { field: 'state' });
  if (!callback.code) {
    throw domainError('validation_error', `Slack did not authorize the install (${callback.error ?? 'no code'})`, { field: 'code' });
  }
  try {
    const install = await exchangeSlackCode(app, callback.code, onceWhileClientWaits);
    await saveSlackInstall(ctx.sql, ctx.secrets, workspaceId, install, now);
    return { connected: true, teamName: install.team.name };
  } catch (error) {
    if (!(error instanceof IntegrationError)) throw error;
    if (error.transient) throw domainError('upstream_unavailable', 'Slack did not answer; try the install again shortly', { retryAfterSeconds: error.retryAfterSeconds ?? 30 }, error);
    throw domainError('validation_error', `Slack refused the install code (${error.code}); start the install again`, { field: 'code' }, error);
  }
}

@Resolver()
export class SlackInstallResolver {
  @Query(() => SlackInstallStart, { description: 'Where to send a person who connects this workspace to Slack' })
  slackInstall(@Ctx() ctx: SubgraphContext): SlackInstallStart {
    const auth = requireAuth(ctx);
    const app = requireSlackApp(ctx.env);
    return { url: slackInstallUrl(app, slackInstallState(app, auth.workspaceId, ctx.clock.now())) };
  }

  @Mutation(() => SlackInstallResult, {
    description: "Slack's OAuth redirect: trades the code for the bot token of the workspace the signed state names. Needs no API key (the state is the credential).",
  })
  completeSlackInstall(
    @Arg('state', () => String) state: string,
    @Arg('code', () => String, { nullable: true }) code: string | null,
    @Arg('error', () => String, { nullable: true }) error: string | null,
    @Ctx() ctx: SubgraphContext,
  ): Promise<SlackInstallResult> {
    return completeSlackInstall(ctx, { code, state, error });
  }
}
