/**
 * The states of a row in the jobs table. Apart from the queue so db/schema.ts can type the
 * column without importing the queue (which imports the schema).
 */
export const JOB_STATUSES = ['pending', 'running', 'done', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
