/**
 * A kind of job: its name next to the zod schema of its payload. `enqueueJob` (./queue.ts) takes
 * a definition and a payload of its type (checked at compile time and against the schema when
 * enqueued); the worker parses the stored payload with the same schema before the handler sees
 * it (./worker.ts `handleJob`).
 */
import type { z } from 'zod';

export const DEFAULT_MAX_ATTEMPTS = 8;

/**
 * One kind of job: its name and the zod schema of its payload. Define it next to the code that
 * enqueues it (`defineJob({ kind: 'order.fulfil', payload: z.object({ orderId: z.number().int() }) })`).
 */
export interface JobDefinition<Kind extends string = string, Schema extends z.ZodType = z.ZodType> {
  readonly kind: Kind;
  readonly payload: Schema;
  /** Attempts before the job fails for good; default DEFAULT_MAX_ATTEMPTS. */
  readonly maxAttempts?: number | undefined;
  /**
   * Keep retrying a retryable failure until this long after the job was created (then give up),
   * instead of counting attempts: for work that must survive a long outage (mail: 3 days). Pair it
   * with a `maxAttempts` large enough that the backoff reaches the window first; it stays the
   * backstop for a job that kills its worker every time.
   */
  readonly retryForMs?: number | undefined;
  /**
   * Jobs with the same key never run side by side in one worker: the second waits for the first
   * (`order:<id>` for the jobs that send one order to its supplier, so a resend and a wake-up do
   * not race for its claim). Across instances the record's own compare-and-set claims still decide.
   */
  readonly exclusiveKey?: ((payload: z.output<Schema>) => string) | undefined;
}

/** What `enqueueJob` accepts for a definition (the schema's input type). */
export type JobPayloadInput<D extends JobDefinition> = z.input<D['payload']>;
/** What the handler receives for a definition (the schema's output type). */
export type JobPayload<D extends JobDefinition> = z.output<D['payload']>;

export function defineJob<const Kind extends string, Schema extends z.ZodType>(definition: {
  kind: Kind;
  payload: Schema;
  maxAttempts?: number | undefined;
  retryForMs?: number | undefined;
  exclusiveKey?: ((payload: z.output<Schema>) => string) | undefined;
}): JobDefinition<Kind, Schema> {
  if (!definition.kind) throw new Error('defineJob: kind is required');
  if (definition.retryForMs !== undefined && !(definition.retryForMs > 0))
    throw new Error('defineJob: retryForMs must be positive');
  return Object.freeze({ ...definition });
}

/**
 * The payload schema's complaints in one line. A message written as a predicate ('must be a
 * string') follows its field as a sentence (`subject must be a string`); zod's own messages
 * follow a colon (`orderId: Invalid input: expected number, received string`).
 */
export function describePayloadIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      if (issue.path.length === 0) return issue.message;
      const field = issue.path.map(String).join('.');
      return /^[a-z]/.test(issue.message) ? `${field} ${issue.message}` : `${field}: ${issue.message}`;
    })
    .join(', ');
}
