/** Vitest's global setup: the server and CLI bundles the process suites start, fresh before any runs. */
import { buildIfNeeded } from '../../scripts/support/store-command.ts';

export default function setup(): void {
  buildIfNeeded({ serverOnly: true });
}
