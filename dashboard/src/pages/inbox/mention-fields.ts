import { graphql } from '../../graphql';

/** What the inbox shows of a mention; every inbox operation selects it, so a triage answer replaces the card in place. */
export const InboxMentionFields = graphql(`
  fragment InboxMention on Mention {
    id
    status
    relevant
    priority
    createdAt
    keyword { id term }
    post { platform url text publishedAt replyTo }
    author { name handle url followers }
    classification {
      relevance
      sentiment
      intents
      automated
      language
      failed
      feedback { relevant sentiment original { relevant sentiment } }
    }
    triage { assignee snoozedUntil note }
    person { id outreach { stage } }
  }
`);

export const InboxMentionsDocument = graphql(`
  query InboxMentions($first: Int, $after: String, $filter: MentionFilter, $sort: MentionSort) {
    mentions(first: $first, after: $after, filter: $filter, sort: $sort) {
      nodes { ...InboxMention }
      nextCursor
    }
  }
`);

export const InboxMentionDocument = graphql(`
  query InboxMention($id: ID!) {
    mention(id: $id) { ...InboxMention }
  }
`);

export const LiveMentionsDocument = graphql(`
  subscription LiveMentions {
    mentionCreated { ...InboxMention }
  }
`);

export const LiveMentionUpdatesDocument = graphql(`
  subscription LiveMentionUpdates {
    mentionUpdated { ...InboxMention }
  }
`);

export const TriageMentionDocument = graphql(`
  mutation TriageMention($id: ID!, $input: MentionPatchInput!) {
    updateMention(id: $id, input: $input) { ...InboxMention }
  }
`);

export const BulkTriageDocument = graphql(`
  mutation BulkTriage($ids: [ID!]!, $changes: MentionPatchInput!) {
    updateMentions(ids: $ids, changes: $changes) { ...InboxMention }
  }
`);

export const InboxChoicesDocument = graphql(`
  query InboxChoices {
    alertRules { id name }
    members { id name }
  }
`);
