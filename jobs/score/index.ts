import type postgres from 'postgres';
import type { Queryable } from '../../runtime/database.ts';
import { z } from 'zod';
import { type BrakedKeyword, findCompanyProfile, findGroupsByIds, findKeywordsByIdsAnyWorkspace, type KeywordRow, scoreWithNoiseBrake } from '../../subgraphs/keywords/index.ts';
import { findMentionsByIds, keywordVerdicts, listUnscoredMentionIds, mentionsLikelyRefused, type MentionRow, recordScores, type ScoredMention } from '../../subgraphs/mentions/index.ts';
import { enqueueMentionAlerts } from '../../subgraphs/team/index.ts';
import { scoringBatchSize } from '../ingest-posts.ts';
import type { JobContext, JobDefinition } from '../job-definition.ts';
import { payloadIdsOfPendingJobs, tryLockSweep } from '../job-store.ts';
import { createClassifier } from '../../classifier/classifier.ts';
import type { ClassificationInput, Classifier } from '../../classifier/classifier-types.ts';
import { learnFromVerdicts } from '../../classifier/feedback-model.ts';

/**
 * `classifyAll`: sent for mentions the charge took after billing's look judged
 * them likely refused; they are classified without that look, so one it
 * keeps misjudging (a mention an older version charged at storage, at a
 * keyword now at its cap) is scored on the next run, not queued again forever.
 */
const scorePayload = z.object({
  mentionIds: z.array(z.string()).min(1),
  attempt: z.number().int().min(0).default(0),
  classifyAll: z.boolean().optional(),
});
type ScorePayload = z.output<typeof scorePayload>;

/** Failed classifications are tried this many times, 30 s apart and doubling (about half an hour in all). */
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
  // Learnt once a keyword, not once a mention: the model is the same for every mention of the keyword in the batch.
  const learned = new Map(
    [...keywords.values()].map((keyword) => {
      const own = verdicts.filter((v) => v.keywordId === keyword.id);
      return [keyword.id, own.length ? learnFromVerdicts(own, { term: keyword.term }) : null];
    }),
  );
  return mentions.map((mention) => {
    const keyword = keywords.get(mention.keywordId)!;
    const group = groups.get(keyword.groupId);
    const profile = profiles.get(mention.workspaceId)!;
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
      learned: learned.get(keyword.id) ?? null,
    };
  });
}

/** The keywords of these mentions, once each, with their workspaces. */
export const keywordsOf = (mentions: readonly Pick<MentionRow, 'keywordId' | 'workspaceId'>[]): BrakedKeyword[] => [
  ...new Map(mentions.map((mention) => [mention.keywordId, { id: mention.keywordId, workspaceId: mention.workspaceId }])).values(),
];

/**
 * These mentions parted by what the charge would do with them now
 * (mentionsLikelyRefused, read without locks): those to classify, and those
 * it would refuse, left unclassified for the scoring transaction to decide.
 */
export async function partByLikelyCharge(sql: Queryable, mentions: readonly MentionRow[], now: Date): Promise<{ judged: MentionRow[]; unjudged: MentionRow[] }> {
  const likelyRefused = await mentionsLikelyRefused(sql, mentions, now);
  return { judged: mentions.filter((m) => !likelyRefused.has(m.id)), unjudged: mentions.filter((m) => likelyRefused.has(m.id)) };
}

/**
 * What a scoring transaction writes once the classifier has answered: the
 * scores and charges (recordScores), the instant alerts of the scored
 * mentions, and the noise brake over their keywords, in `tx`. Returns the
 * failed ids recordScores marked and the unjudged ids it left to score.
 * The storage benchmark runs it too, to time charging where the pipeline
 * does it.
 */
export async function commitScores(
  tx: postgres.TransactionSql<{}>,
  keywords: readonly BrakedKeyword[],
  scored: readonly ScoredMention[],
  failed: readonly string[],
  now: Date,
  unjudged: readonly MentionRow[] = [],
): Promise<{ failed: string[]; toScore: string[] }> {
  return scoreWithNoiseBrake(tx, keywords, now, async () => {
    const recorded = await recordScores(tx, scored, failed, now, unjudged);
    await enqueueMentionAlerts(tx, scored.map(({ mention }) => mention), now);
    return recorded;
  });
}

/**
 * Classifies a batch of stored mentions right after storage, and charges
 * them as it records their scores: an exact match whatever its score, a
 * words-close-together match only when relevant; a failure marks the
 * mention, charges nothing and is retried with back-off, never guessed.
 * Mentions the charge would refuse right now (mentionsLikelyRefused) are
 * not classified, a paid call each with a remote classifier: the scoring
 * transaction discards those it still refuses, and queues the others
 * (a top-up, a raised cap, an unmute meanwhile) for scoring again, at the
 * same attempt. The noise brake then looks at the keywords just scored.
 */
async function scoreMentions(payload: ScorePayload, context: JobContext): Promise<void> {
  const mentions = (await findMentionsByIds(context.sql, payload.mentionIds)).filter((m) => m.relevance === null);
  if (mentions.length === 0) return;
  const keywords = new Map(
    (await findKeywordsByIdsAnyWorkspace(context.sql, [...new Set(mentions.map((m) => m.keywordId))])).map((k) => [k.id, k]),
  );
  const live = mentions.filter((m) => keywords.has(m.keywordId));
  const { judged, unjudged } = payload.classifyAll ? { judged: live, unjudged: [] } : await partByLikelyCharge(context.sql, live, context.clock.now());
  const outcomes = judged.length ? await classifierFor(context.config.env).classifyBatch(await classificationInputs(context, judged, keywords)) : [];
  const byId = new Map(judged.map((m) => [m.id, m]));
  const now = context.clock.now();
  const failed = outcomes.filter((outcome) => !outcome.ok).map((outcome) => outcome.mentionId);
  const scored = outcomes.flatMap((outcome) => {
    if (!outcome.ok) return [];
    const mention = byId.get(outcome.mentionId)!;
    return [{ mention, classification: outcome.classification, commentsEnabled: keywords.get(mention.keywordId)!.commentsEnabled }];
  });
  // The retry is sent with the failure it retries: a crash cannot leave a mention marked failed with no retry to come.
  await context.sql.begin(async (tx) => {
    const { failed: retry, toScore } = await commitScores(tx, keywordsOf(mentions), scored, failed, now, unjudged);
    // Not a failure: the charge would take them now, so they are classified on the next run, at this attempt.
    if (toScore.length) await context.send('score', { mentionIds: toScore, attempt: payload.attempt, classifyAll: true }, { transaction: tx });
    if (retry.length && payload.attempt + 1 < maxAttempts) {
      const delaySeconds = 30 * 2 ** payload.attempt;
      await context.send('score', { mentionIds: retry, attempt: payload.attempt + 1 }, { startAfter: delaySeconds, transaction: tx });
      context.log.warn('classification failed; retrying', { mentionIds: retry, attempt: payload.attempt + 1, delaySeconds });
    }
  });
}

/** Mentions the sweep queues at most per round; the next round takes the rest. */
const sweepLimit = 5_000;

/**
 * Queues scoring for every stored mention that has no score, has not
 * failed, and that no scoring job holds: what a crash left behind (a
 * mention stored before scoring jobs were sent in the storing transaction,
 * or whose job failed for good). Reads the pending jobs and the mentions in
 * one snapshot and sends in the same transaction, so a mention is queued
 * once however many workers sweep. Returns how many it queued.
 */
export async function queueUnscoredMentions(context: JobContext): Promise<number> {
  return (await context.sql.begin('isolation level repeatable read', async (tx) => {
    if (!(await tryLockSweep(tx, 'score'))) return 0;
    const unscored = await listUnscoredMentionIds(tx, { except: await payloadIdsOfPendingJobs(tx, 'score', 'mentionIds'), limit: sweepLimit });
    for (let i = 0; i < unscored.length; i += scoringBatchSize) {
      await context.send('score', { mentionIds: unscored.slice(i, i + scoringBatchSize) }, { transaction: tx });
    }
    return unscored.length;
  })) as number;
}

export const scoreQueue: JobDefinition<ScorePayload> = {
  name: 'score',
  payload: scorePayload,
  batchSize: 5,
  pollingIntervalSeconds: 0.5,
  // Five batches of 20 take seconds with the built-in classifier; a remote one may take a minute.
  expireInSeconds: 300,
  async prepare(context) {
    await classifierFor(context.config.env).prepare?.();
  },
  /**
   * A batch's jobs are scored in one pass (per attempt, so a retry keeps its
   * back-off): one read of the mentions and their keywords, one
   * classification, one transaction. Job by job, its round trips to the
   * database were most of a job's time (some 200 ms for 20 mentions on a
   * busy machine, the classification 5 ms), and a backlog after a restart
   * drained at that pace.
   */
  async handle(payloads, context) {
    const byRun = new Map<string, ScorePayload>();
    for (const { mentionIds, attempt, classifyAll = false } of payloads) {
      const run = `${attempt}:${classifyAll}`;
      byRun.set(run, { mentionIds: [...(byRun.get(run)?.mentionIds ?? []), ...mentionIds], attempt, classifyAll });
    }
    for (const run of byRun.values()) await scoreMentions(run, context);
  },
};
