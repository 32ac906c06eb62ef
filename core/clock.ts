/**
 * The store's one notion of "now". Every service that reads the time takes a `Clock` (its `now`
 * option), and `openStore` hands them all the same one (`StoreOverrides.clock`), so a test can
 * move time for the whole store at once (past a lockout, a token's expiry, a lease, a retention
 * window) instead of sleeping.
 */
export type Clock = () => Date;

/** The real time. */
export const systemClock: Clock = () => new Date();
