import type { MentionRow } from './mention-store.ts';
import { isRelevant, scoredRelevant, shownRelevance } from './relevance.ts';

/**
 * A mention row as the record of spec 2.4, the one mapping behind both
 * `GET /v1/mentions/{id}` (the GraphQL fields resolve from these parts) and
 * the `data` of an instant alert, so the two cannot drift apart. The
 * keyword's `term` belongs to the keywords subgraph and is added by whoever
 * has it (the gateway for reads, the payload builder for alerts).
 */
export const postRecord = (m: MentionRow) => ({
  platform: m.platform,
  url: m.url,
  text: m.text,
  publishedAt: m.publishedAt,
  replyTo: m.replyTo,
  links: m.links,
});

export const authorRecord = (m: MentionRow) => ({
  id: m.authorId,
  name: m.authorName,
  handle: m.authorHandle,
  url: m.authorUrl,
  avatarUrl: m.authorAvatarUrl,
  followers: m.authorFollowers ?? 0,
  tags: m.authorTags,
});

/** The user's verdict, with the classifier's own values it replaced in `original` (spec 2.4); null without one. */
export const feedbackRecord = (m: MentionRow) =>
  m.verdictRelevant === null && m.verdictSentiment === null
    ? null
    : {
        relevant: m.verdictRelevant,
        sentiment: m.verdictSentiment,
        original: { relevance: m.relevance, relevant: scoredRelevant(m.relevance), sentiment: m.sentiment },
      };

export const classificationRecord = (m: MentionRow) =>
  m.relevance === null && !m.classificationFailed
    ? null
    : {
        relevance: shownRelevance(m),
        sentiment: m.verdictSentiment ?? m.sentiment,
        intents: m.intents ?? [],
        automated: m.automated ?? false,
        language: m.language,
        note: m.classificationNote,
        failed: m.classificationFailed,
        feedback: feedbackRecord(m),
      };

export const triageRecord = (m: MentionRow) => ({ assignee: m.assigneeId, snoozedUntil: m.snoozedUntil, note: m.triageNote });

export function mentionRecord(m: MentionRow, keywordTerm: string) {
  return {
    id: m.id,
    status: m.status,
    relevant: isRelevant(m),
    delivered: m.delivered,
    priority: m.priority,
    keyword: { id: m.keywordId, term: keywordTerm },
    post: postRecord(m),
    author: authorRecord(m),
    classification: classificationRecord(m),
    triage: triageRecord(m),
    createdAt: m.createdAt,
  };
}
