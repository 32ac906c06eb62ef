/** A clock for the whole store (`StoreOverrides.clock`) that tests move instead of sleeping. */
import type { Clock } from '../../core/clock.ts';

export interface TestClock {
  /** Pass as `overrides.clock` (or any service's `now`). */
  readonly now: Clock;
  /** Moves the clock forward by `ms` (it keeps running at real speed from there). */
  advance(ms: number): void;
}

/**
 * Real time plus an offset the test moves forward: rows written one after another still get
 * increasing times, while a test jumps over a 15-minute lockout or a 12-hour token in one step.
 */
export function createTestClock(): TestClock {
  let offsetMs = 0;
  return {
    now: () => new Date(Date.now() + offsetMs),
    advance(ms) {
      offsetMs += ms;
    },
  };
}
