import { billingTickQueue } from './billing-tick/index.ts';
import { capPeriodsQueue } from './cap-periods/index.ts';
import { commentsQueue } from './comments/index.ts';
import type { JobDefinition } from './job-definition.ts';
import { lookbackQueue } from './lookback/index.ts';
import { orphanedTopUpsQueue } from './orphaned-top-ups/index.ts';
import { pollSourcesQueue } from './poll-sources/index.ts';
import { pollQueue } from './poll/index.ts';
import { scoreQueue } from './score/index.ts';

/** Every queue Earshot runs; a worker process works them all. */
export const jobDefinitions: JobDefinition<any>[] = [
  pollQueue,
  pollSourcesQueue,
  lookbackQueue,
  scoreQueue,
  commentsQueue,
  billingTickQueue,
  capPeriodsQueue,
  orphanedTopUpsQueue,
];
