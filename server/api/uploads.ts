/**
 * Image uploads (docs/decisions/019-uploads-and-stored-html.md):
 *
 * - `POST /api/uploads` (admin): one multipart file in the field `image`, stored by
 *   core/uploads/images.ts; the editor puts the returned URL into a post's body.
 * - `GET /uploads/<name>`: the stored files, with their type, `nosniff` and immutable caching
 *   (names are content hashes). Anything that is not exactly a stored file's name is a 404.
 *
 * Also the pieces every multipart route shares (the blog API uses them): reading the one image
 * part with the size limit's message, and documenting a multipart body in OpenAPI.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyRouteSchemaDef, FastifyValidationResult } from 'fastify/types/schema.js';
import { type FastifyPluginAsyncZod, validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  IMAGE_TYPE_MESSAGE,
  UPLOAD_FILE_NAME,
  imageTooLargeMessage,
  storeUploadedImage,
  uploadContentType,
  uploadsDir,
} from '../../core/uploads/images.ts';
import { type AuthenticateToken, OWNER_ONLY, requireAdmin } from './admin-guard.ts';
import { FailureSchema, envelopeOf, failure, ok } from './envelope.ts';

const IMAGE_UPLOADED_MESSAGE = 'Image uploaded';
const NOT_MULTIPART_MESSAGE = 'Send the image as multipart/form-data in the field "image".';
const NO_IMAGE_MESSAGE = 'Choose an image to upload.';
const UPLOAD_NOT_FOUND_MESSAGE = 'Image not found';
const MALFORMED_UPLOAD_MESSAGE = 'The upload could not be read: send one image as multipart/form-data.';

/** Multipart limits for the whole app (registered once in app.ts; the blog API shares them). */
export function multipartLimits(maxFileBytes: number) {
  return {
    fileSize: maxFileBytes,
    files: 1,
    // The blog form's text fields (title, slug, category, description, …), with room to spare.
    fields: 20,
    parts: 21,
    // A post body's HTML (the editor's output) is the largest field.
    fieldSize: 1024 * 1024,
    headerPairs: 100,
  };
}

const StoredImageSchema = z.object({
  url: z.string().describe('`/uploads/<hash>.<ext>`: the fallback image; WebP variants sit next to it'),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  contentType: z.string(),
});

/** A multipart file field in the OpenAPI document. */
const multipartFile = (description: string) => z.string().meta({ type: 'string', format: 'binary', description });

/**
 * For routes that read their multipart body themselves (`request.file()`, `request.parts()`):
 * `schema.body` documents the parts in OpenAPI, and this compiler leaves the body unvalidated
 * (there is no parsed body to validate: the parts stream in the handler) while params and
 * querystring are still checked with zod. Use with `consumes: ['multipart/form-data']`.
 */
function multipartBodyValidator<Schema>(route: FastifyRouteSchemaDef<Schema>): FastifyValidationResult {
  if (route.httpPart === 'body') return () => true;
  // The route's schemas are zod (the app's type provider); Fastify types them per route.
  return validatorCompiler(route as unknown as FastifyRouteSchemaDef<z.ZodType>);
}

type ImagePart =
  { ok: true; bytes: Buffer; fields: Record<string, string> } | { ok: false; status: 400 | 413; message: string };

/**
 * Reads the one file part of a multipart request (the field must be `image`), with the size
 * limit's own message. Text fields sent before the file come back in `fields`.
 */
async function readImagePart(request: FastifyRequest, maxBytes: number): Promise<ImagePart> {
  if (!request.isMultipart()) return { ok: false, status: 400, message: NOT_MULTIPART_MESSAGE };
  try {
    const part = await request.file();
    if (!part || part.fieldname !== 'image') return { ok: false, status: 400, message: NO_IMAGE_MESSAGE };
    const bytes = await part.toBuffer();
    const fields: Record<string, string> = {};
    for (const [name, value] of Object.entries(part.fields)) {
      const field = Array.isArray(value) ? value[0] : value;
      if (field && field.type === 'field' && typeof field.value === 'string') fields[name] = field.value;
    }
    return { ok: true, bytes, fields };
  } catch (error) {
    if (error instanceof request.server.multipartErrors.RequestFileTooLargeError) {
      return { ok: false, status: 413, message: imageTooLargeMessage(maxBytes) };
    }
    // Everything in the try reads the request's own body: whatever fails there (a malformed or
    // cut-off form, too many parts, a client gone mid-upload) is the request's fault, not ours.
    const status = (error as { statusCode?: unknown }).statusCode;
    return { ok: false, status: status === 413 ? 413 : 400, message: MALFORMED_UPLOAD_MESSAGE };
  }
}

interface UploadsApiOptions {
  dataDir: string;
  maxBytes: number;
  authenticate: AuthenticateToken;
}

/** `POST /api/uploads`, registered under /api. */
export const uploadsApi: FastifyPluginAsyncZod<UploadsApiOptions> = async (app, options) => {
  const { dataDir, maxBytes } = options;
  // The guard runs first: no one streams a file at us without an admin token.
  app.addHook('onRequest', requireAdmin(options.authenticate, OWNER_ONLY));

  app.post(
    '/uploads',
    {
      validatorCompiler: multipartBodyValidator,
      // Re-encoding costs CPU: plenty for an editor, not enough to keep a core busy for long.
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: {
        tags: ['admin'],
        summary: 'Upload an image for a blog post body (jpg, png, svg or webp, decided by its bytes)',
        description:
          'The image is re-encoded (metadata removed, at most 1600 px) with WebP variants for `srcset`; ' +
          `an SVG is rasterised. Refused: 400 '${IMAGE_TYPE_MESSAGE}', 413 over the size limit.`,
        consumes: ['multipart/form-data'],
        body: z.object({ image: multipartFile('The image file') }),
        response: {
          201: envelopeOf(StoredImageSchema),
          400: FailureSchema,
          401: FailureSchema,
          413: FailureSchema,
        },
      },
    },
    async (request, reply) => {
      const part = await readImagePart(request, maxBytes);
      if (!part.ok) return reply.code(part.status).send(failure(part.message));
      const stored = await storeUploadedImage(dataDir, part.bytes, { maxBytes });
      if (!stored.ok) return reply.code(stored.status).send(failure(stored.message));
      return reply.code(201).send(ok(stored.image, IMAGE_UPLOADED_MESSAGE));
    },
  );
};

/** `GET /uploads/<name>`: the stored files only. */
export const uploadFiles: FastifyPluginAsync<{ dataDir: string }> = async (app, options) => {
  const dir = uploadsDir(options.dataDir);

  app.get<{ Params: { name: string } }>(
    '/uploads/:name',
    {
      schema: { hide: true },
      // Before the app's text guard and any parsing: a name that is not exactly a stored file's
      // (traversal, encoded slashes, NUL, other extensions) is simply not found.
      onRequest: async (request, reply) => {
        if (!UPLOAD_FILE_NAME.test(request.params.name)) return notFound(reply);
      },
    },
    async (request, reply) => {
      const { name } = request.params;
      const contentType = uploadContentType(name);
      const file = path.join(dir, name);
      const size = await stat(file).then(
        (info) => (info.isFile() ? info.size : null),
        () => null,
      );
      if (size === null || !contentType) return notFound(reply);
      return reply
        .header('content-type', contentType)
        .header('content-length', String(size))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(createReadStream(file));
    },
  );
};

function notFound(reply: FastifyReply) {
  return reply
    .code(404)
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .send(failure(UPLOAD_NOT_FOUND_MESSAGE));
}
