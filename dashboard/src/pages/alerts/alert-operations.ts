import { graphql } from '../../graphql';

export const AlertsPageDocument = graphql(`
  query AlertsPage {
    channels {
      id
      kind
      label
      config { url events chatId channelId channelName address confirmed }
      stats { alerts activeAlerts lastDeliveryAt last7d { total failed } }
    }
    alertRules {
      id
      name
      mode
      event
      enabled
      channelIds
      schedule { hour weekday }
      filter { minRelevance keywordIds }
      lastRunAt
    }
  }
`);

export const CreateChannelDocument = graphql(`
  mutation CreateChannel($input: CreateChannelInput!) {
    createChannel(input: $input) { id label config { secret } }
  }
`);

export const TestChannelDocument = graphql(`
  mutation TestChannel($id: ID!) {
    testChannel(id: $id) { outcomes { channelId ok error } }
  }
`);

export const DeleteChannelDocument = graphql(`
  mutation DeleteChannel($id: ID!) {
    deleteChannel(id: $id)
  }
`);

export const RotateChannelSecretDocument = graphql(`
  mutation RotateChannelSecret($id: ID!) {
    rotateChannelSecret(id: $id) { id config { secret } }
  }
`);

export const CreateAlertRuleDocument = graphql(`
  mutation CreateAlertRule($input: CreateAlertRuleInput!) {
    createAlertRule(input: $input) { id }
  }
`);

export const UpdateAlertRuleDocument = graphql(`
  mutation UpdateAlertRule($id: ID!, $input: UpdateAlertRuleInput!) {
    updateAlertRule(id: $id, input: $input) { id enabled }
  }
`);

export const TestAlertRuleDocument = graphql(`
  mutation TestAlertRule($id: ID!) {
    testAlertRule(id: $id) { outcomes { channelId ok error } }
  }
`);

export const RunAlertRuleDocument = graphql(`
  mutation RunAlertRule($id: ID!) {
    runAlertRule(id: $id) { mentions deliveryIds }
  }
`);

export const DeleteAlertRuleDocument = graphql(`
  mutation DeleteAlertRule($id: ID!) {
    deleteAlertRule(id: $id)
  }
`);

export const SlackInstallDocument = graphql(`
  query SlackInstall {
    slackInstall { url }
  }
`);

export const ChannelPageDocument = graphql(`
  query ChannelPage($id: ID!, $after: String) {
    channel(id: $id) {
      id
      kind
      label
      config { url headers events chatId channelId channelName address confirmed }
      stats { alerts activeAlerts lastDeliveryAt last7d { total failed } }
    }
    channelDeliveries(id: $id, first: 25, after: $after) {
      nodes {
        id
        kind
        status
        attempts
        error
        sentAt
        event
        createdAt
        alert { name }
        mention { platform url text }
        attemptLog { at status error }
      }
      nextCursor
    }
  }
`);

export const UpdateChannelDocument = graphql(`
  mutation UpdateChannel($id: ID!, $input: UpdateChannelInput!) {
    updateChannel(id: $id, input: $input) { id label config { url events chatId channelId channelName address confirmed } }
  }
`);

export const SlackStatusDocument = graphql(`
  query SlackStatus {
    slackStatus { configured connected teamName notifications { channelId channelName minRelevance sources } }
  }
`);

export const UpdateSlackNotificationsDocument = graphql(`
  mutation UpdateSlackNotifications($input: SlackNotificationsInput!) {
    updateSlackNotifications(input: $input) { configured connected teamName notifications { channelId channelName minRelevance sources } }
  }
`);

export const SlackChannelsDocument = graphql(`
  query SlackChannels {
    slackChannels { channels { id name isPrivate isMember } }
  }
`);
