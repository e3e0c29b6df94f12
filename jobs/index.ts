import type { JobDefinition } from './job-definition.ts';

/** Every queue Earshot runs; a worker process works them all. */
export const jobDefinitions: JobDefinition<any>[] = [];
