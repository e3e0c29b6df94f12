import { z } from 'zod';
import { applyNoiseBrake, findCompanyProfile, findGroupsByIds, findKeywordsByIdsAnyWorkspace, type KeywordRow } from '../../subgraphs/keywords/index.ts';
import { findMentionsByIds, keywordVerdicts, type MentionRow, recordScores } from '../../subgraphs/mentions/index.ts';
import { enqueueMentionAlerts } from '../../subgraphs/team/index.ts';
import type { JobContext, JobDefinition } from '../job-definition.ts';
import { createClassifier } from '../../classifier/classifier.ts';
import type { ClassificationInput, Classifier } from '../../classifier/classifier-types.ts';
import { learnFromVerdicts } from '../../classifier/feedback-model.ts';

const scorePayload = z.object({ mentionIds: z.array(z.string()).min(1), attempt: z.number().int().min(0).default(0) });
type ScorePayload = z.output<typeof scorePayload>;

/** Failed classifications are retried this many times, 30 s apart and doubling (about an hour in all). */
const maxAttempts = 7;

const classifiers = new Map<NodeJS.ProcessEnv, Classifier>();
const classifierFor = (env: NodeJS.ProcessEnv) => {
  let classifier = classifiers.get(env);
  if (!classifier) classifiers.set(env, (classifier = createClassifier(env)));
  return classifier;
};

async function classificationInputs(context: JobContext, mentions: MentionRow[], keywords: Map<string, KeywordRow>): Promise<ClassificationInput[]> {
  const keywordIds = [...keywords.keys()];
  const groups = new Map((await findGroupsByIds(context.sql, [...new Set([...keywords.values()].map((k) => k.groupId))])).map((g) => [g.id, g]));
  const profiles = new Map<string, Awaited<ReturnType<typeof findCompanyProfile>>>();
  for (const workspaceId of new Set(mentions.map((m) => m.workspaceId))) profiles.set(workspaceId, await findCompanyProfile(context.sql, workspaceId));
  const verdicts = await keywordVerdicts(context.sql, keywordIds);
  return mentions.map((mention) => {
    const keyword = keywords.get(mention.keywordId)!;
    const group = groups.get(keyword.groupId);
    const profile = profiles.get(mention.workspaceId)!;
    const own = verdicts.filter((v) => v.keywordId === keyword.id);
    return {
      mentionId: mention.id,
      post: {
        platform: mention.platform as ClassificationInput['post']['platform'],
        url: mention.url,
        text: mention.text,
        publishedAt: mention.publishedAt,
        links: mention.links,
        author: {
          platformId: mention.authorId,
          name: mention.authorName,
          handle: mention.authorHandle,
          url: mention.authorUrl,
          avatarUrl: mention.authorAvatarUrl,
          followers: mention.authorFollowers,
        },
      },
      keyword: {
        id: keyword.id,
        term: keyword.term,
        kind: keyword.kind,
        context: keyword.context,
        // The default group reads the company profile instead of a description of its own.
        groupDescription: group && !group.isDefault ? group.description : null,
      },
      company: profile.updatedAt ? profile : null,
      learned: own.length ? learnFromVerdicts(own, { term: keyword.term }) : null,
    };
  });
}

/**
 * Classifies a batch of stored mentions right after storage. A
 * words-close-together match is kept (and charged) only when relevant; a
 * failure marks the mention and is retried with back-off, never guessed.
 * The noise brake then looks at the keywords just scored.
 */
async function scoreMentions(payload: ScorePayload, context: JobContext): Promise<void> {
  const mentions = (await findMentionsByIds(context.sql, payload.mentionIds)).filter((m) => m.relevance === null);
  if (mentions.length === 0) return;
  const keywords = new Map(
    (await findKeywordsByIdsAnyWorkspace(context.sql, [...new Set(mentions.map((m) => m.keywordId))])).map((k) => [k.id, k]),
  );
  const live = mentions.filter((m) => keywords.has(m.keywordId));
  const outcomes = await classifierFor(context.config.env).classifyBatch(await classificationInputs(context, live, keywords));
  const byId = new Map(live.map((m) => [m.id, m]));
  const now = context.clock.now();
  const failed = outcomes.filter((outcome) => !outcome.ok).map((outcome) => outcome.mentionId);
  const scored = outcomes.flatMap((outcome) => {
    if (!outcome.ok) return [];
    const mention = byId.get(outcome.mentionId)!;
    return [{ mention, classification: outcome.classification, commentsEnabled: keywords.get(mention.keywordId)!.commentsEnabled }];
  });
  await context.sql.begin(async (tx) => {
    await recordScores(tx, scored, failed, now);
    await enqueueMentionAlerts(tx, scored.map(({ mention }) => mention.id), now);
    await applyNoiseBrake(tx, [...new Set(mentions.map((m) => m.keywordId))], now);
  });
  if (failed.length && payload.attempt + 1 < maxAttempts) {
    const delaySeconds = 30 * 2 ** payload.attempt;
    await context.send('score', { mentionIds: failed, attempt: payload.attempt + 1 }, { startAfter: delaySeconds });
    context.log.warn('classification failed; retrying', { mentionIds: failed, attempt: payload.attempt + 1, delaySeconds });
  }
}

export const scoreQueue: JobDefinition<ScorePayload> = {
  name: 'score',
  payload: scorePayload,
  batchSize: 5,
  pollingIntervalSeconds: 0.5,
  async handle(payloads, context) {
    for (const payload of payloads) await scoreMentions(payload, context);
  },
};
