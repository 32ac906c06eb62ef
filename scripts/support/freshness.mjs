// Whether a build is older than what it is built from, by modification times (scripts/build-if-needed.mjs).
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** The newest modification time in `entry` (a file, or a folder and everything in it), 0 if absent. */
export function newestMtime(root, entry) {
  const full = path.join(root, entry);
  if (!existsSync(full)) return 0;
  const stat = statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of readdirSync(full)) newest = Math.max(newest, newestMtime(root, path.join(entry, child)));
  return newest;
}

/** True when `marker` (a file of the build) exists and no file of `sources` under `root` is newer. */
export function upToDate(root, marker, sources) {
  const markerPath = path.join(root, marker);
  if (!existsSync(markerPath)) return false;
  return statSync(markerPath).mtimeMs >= Math.max(...sources.map((entry) => newestMtime(root, entry)));
}
