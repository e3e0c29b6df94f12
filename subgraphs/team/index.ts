import type { GraphQLSchema } from 'graphql';
import { buildTypeGraphQLSubgraph } from '../type-graphql-subgraph.ts';
import { AlertRuleSendResolver } from './alert-rule-sends.ts';
import { ApiKeyResolver, resolveApiKeyReference } from './api-key.ts';
import { ChannelResolver } from './channel.ts';
import { InvitationResolver } from './invitation.ts';
import { MemberResolver } from './member.ts';
import { NotificationSettingsResolver } from './notification-settings.ts';
import { SessionResolver } from './session.ts';
import { SlackChannelsResolver } from './slack-channels.ts';
import { SlackInstallResolver } from './slack-install.ts';
import { SlackInteractionResolver } from './slack-interactions.ts';
import { SlackNotificationsResolver } from './slack-notifications.ts';
import { TelegramInteractionResolver } from './telegram-interactions.ts';
import { WhoamiResolver, Workspace, resolveWorkspaceReference } from './workspace.ts';
import { ConnectedAppResolver } from './connected-app.ts';

/** The team subgraph: workspaces, members and invitations, sessions, API keys, OAuth grants, channels and the deliveries to them, the Slack connection. */
export function buildTeamSchema(): Promise<GraphQLSchema> {
  return buildTypeGraphQLSubgraph({
    resolvers: [WhoamiResolver, ApiKeyResolver, MemberResolver, InvitationResolver, NotificationSettingsResolver, SessionResolver, ConnectedAppResolver, ChannelResolver, AlertRuleSendResolver, SlackChannelsResolver, SlackInstallResolver, SlackInteractionResolver, SlackNotificationsResolver, TelegramInteractionResolver],
    orphanedTypes: [Workspace],
    referenceResolvers: { Workspace: { __resolveReference: resolveWorkspaceReference }, ApiKey: { __resolveReference: resolveApiKeyReference } },
  });
}

// The domain functions other parts of Earshot use; nothing outside this folder imports its other files.
export { authenticateApiKey, type AuthenticatedKey } from './api-key-store.ts';
export { type ApiKeyCache, startApiKeyCache } from './api-key-cache.ts';
export { type UserCredentialChanges, watchUserCredentials } from './user-credential-changes.ts';
export { createApiKeyInput } from './api-key.ts';
export { createChannel } from './channel-commands.ts';
export { channelKinds, createChannelInput, deliveryLogFilter, updateChannelInput } from './channel-input.ts';
export { fanOutAccountEvents } from './account-event-deliveries.ts';
export { attemptLimitOf, deliverySettings, sendClaimedDelivery } from './delivery-sending.ts';
export { claimDueDeliveries, deliveriesDueChannel } from './delivery-store.ts';
export { runDueDigests } from './digests.ts';
export { teamSealedColumns } from './sealed-columns.ts';
export { enqueueMentionAlerts } from './mention-alerts.ts';
export { connectTelegramButtonsAtStart } from './telegram-interactions.ts';
export { closeSharedMailers } from './mailer.ts';
export { magicLinkInput, mailMagicLink, passwordSignInInput, setPasswordInput, signInWithMagicLink, signInWithPassword } from './session.ts';
export { authenticateSession } from './session-store.ts';
export { invitationPagePath, inviteMemberInput } from './invitation.ts';
export { memberRoleInput } from './member.ts';
export { workspacesOfUser } from './member-store.ts';
export { findOAuthClient, insertOAuthClient, type OAuthClientRow } from './oauth-client-store.ts';
/** What the OAuth layer checks a client's metadata with before the team stores it: text PostgreSQL cannot hold. */
export { unstorableText } from '../validate-input.ts';
export {
  authenticateOAuthToken,
  codeChallengeFor,
  exchangeAuthorizationCode,
  issueAuthorizationCode,
  OAuthGrantError,
  type OAuthLifetimes,
  type OAuthScope,
  type OAuthTokenSet,
  refreshOAuthTokens,
  requestedScope,
  revokeOAuthToken,
  scopeText,
} from './oauth-grants.ts';
export { escapeHtml } from './email-messages.ts';
export { mailSettings } from './mailer.ts';
export { findUser } from './user-store.ts';
export { notificationSettingsInput } from './notification-settings.ts';
export { countWorkspaceRequest } from './request-budget-store.ts';
export { slackNotificationsInput } from './slack-notifications.ts';
export { provisionWorkspace } from './workspace-provisioning.ts';
export { isEmailAddress } from './user.ts';
export { passwordRule, setUserPassword } from './user-password.ts';
export { findWorkspace } from './workspace-store.ts';
