/** Vitest's global setup: the server and CLI bundles the process suites start, fresh before any runs. */
import { ensureStoreCommands } from './store-command.ts';

export default function setup(): void {
  ensureStoreCommands();
}
