/**
 * Waiting for a condition instead of for a fixed time: a test that sleeps 50 ms either wastes the
 * time or, on a busy machine, fails. `waitFor` polls until the condition holds and fails with a
 * clear message when it never does.
 */
interface WaitForOptions {
  /** How long to keep trying, in ms (default 5 s). */
  timeout?: number;
  /** Pause between two checks, in ms (default 20). */
  interval?: number;
  /** Names what was awaited in the timeout error. */
  message?: string;
}

/**
 * Resolves with the condition's first truthy result. A condition that throws stops the wait with
 * that error (catch inside the condition what only means "not yet", like a refused connection).
 */
export async function waitFor<T>(
  condition: () => T | Promise<T>,
  { timeout = 5_000, interval = 20, message = 'condition' }: WaitForOptions = {},
): Promise<NonNullable<T>> {
  const deadline = performance.now() + timeout;
  for (;;) {
    const value = await condition();
    if (value) return value;
    if (performance.now() >= deadline) throw new Error(`waitFor: ${message} not met within ${timeout} ms`);
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}
