/**
 * How replies made per request are compressed. A page the cache holds is compressed once, at
 * the highest levels (server/page-cache.ts); everything else (a blog search, a page with the
 * cache off, an API reply) is compressed on every request, on the same core that rendered it.
 * For an 80 KB page, Brotli quality 3 takes about a quarter of quality 5's time (0.6 ms against
 * 2.1 ms) for a body about 8 % larger; quality 4 is slower than 5 for bodies this size. Gzip
 * level 4 takes about half of the default level 6 for 3 % more bytes.
 */
import { constants } from 'node:zlib';

export const PER_REQUEST_BROTLI_QUALITY = 3;
export const PER_REQUEST_GZIP_LEVEL = 4;
/** About 2.5 ms of Brotli quality 3 on this machine (80 KB: 0.8 ms); see `syncThreshold` below. */
export const PER_REQUEST_SYNC_COMPRESSION_MAX_BYTES = 256 * 1024;

/** @fastify/compress's options for replies compressed as they are sent. */
export const perRequestCompression = {
  threshold: 1024,
  // A reply sent whole up to this size (a rendered page is 20 to 100 KB) is compressed in one
  // call on the request's own turn, not through a compression stream: no stream, no zlib
  // context and no hop to libuv's thread pool per reply. Larger ones (an export) still stream.
  syncThreshold: PER_REQUEST_SYNC_COMPRESSION_MAX_BYTES,
  encodings: ['br', 'gzip'] as ('br' | 'gzip')[],
  brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: PER_REQUEST_BROTLI_QUALITY } },
  zlibOptions: { level: PER_REQUEST_GZIP_LEVEL },
};
