/**
 * The blog's JSON API (spec section 7): public list, search and detail; admin create,
 * update and delete behind the bearer guard. Thin: core/blog/blog.ts holds every rule.
 *
 * Writes take `multipart/form-data` (the admin form, with its `image` file) or the same fields as
 * JSON (no file then). A route-level preValidation hook reads the multipart parts into a plain
 * object before validation, so one zod schema checks both, the boundary's text rule
 * (text-guard.ts) applies to the form fields as to any body, and OpenAPI documents both.
 */
// Types only: loads @fastify/multipart's request decorations (`isMultipart`, `parts`).
import type {} from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BLOG_MESSAGES,
  type Blog,
  DESCRIPTION_MAX_LENGTH,
  type BlogImageInput,
  type BlogPublish,
  type BlogPostPatch,
  blogPostAuditFields,
} from '../../core/blog/blog.ts';
import type { BlogPost, BlogPostSummary } from '../../core/blog/contracts.ts';
import { UNSAFE_TEXT_MESSAGE } from '../../core/form-fields.ts';
import { imageTooLargeMessage } from '../../core/uploads/images.ts';
import { auditChangeOf } from './admin-audit.ts';
import { type AuthenticateToken, OWNER_ONLY, bearerToken, noteAudit, requireAdmin } from './admin-guard.ts';
import { FailureSchema, envelopeOf, failure, ok } from './envelope.ts';
import { specValidationErrors } from './spec-validation.ts';
import { unsafeTextField } from './text-guard.ts';

interface BlogApiOptions {
  blog: Blog;
  authenticate: AuthenticateToken;
  /** The upload limit (UPLOAD_MAX_BYTES), named in the 413 message. */
  maxImageBytes: number;
}

const BLOG_API_MESSAGES = {
  added: 'Blog added successfully',
  updated: 'Blog updated successfully',
  deleted: 'Blog deleted successfully',
  formTooLarge: 'The form is too large: a field is longer than the store accepts.',
  badForm: 'The form could not be read. Please try again.',
  noFields: 'Send the fields to change (title, slug, category, description, image).',
} as const;

const BLOG_PAGE_SIZE_DEFAULT = 10;
const BLOG_PAGE_SIZE_MAX = 50;

const SummarySchema = z.object({
  id: z.number().int(),
  slug: z.string(),
  title: z.string(),
  shortDesc: z.string(),
  category: z.string().describe("The category's name; '' when none"),
  categorySlug: z.string().nullable(),
  image: z.string().describe("The cover image's URL; '' when none"),
  imageWidth: z.number().int().nullable(),
  imageHeight: z.number().int().nullable(),
  createdAt: z.string().describe('ISO-8601'),
  updatedAt: z.string().describe('ISO-8601'),
  publishedAt: z
    .string()
    .nullable()
    .describe('ISO-8601; null for a draft, in the future when scheduled (only an owner sees either)'),
});
const PostSchema = SummarySchema.extend({
  description: z.string().describe('Sanitised HTML'),
  readingMinutes: z.number().int(),
});
const CategorySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  slug: z.string(),
  postCount: z.number().int(),
});

const ListSchema = z.object({
  isSuccessful: z.boolean(),
  message: z.string(),
  data: z.array(SummarySchema),
  totalPages: z.number().int(),
  count: z.number().int(),
  currentPage: z.number().int(),
});

const ListQuery = z.object({
  keyword: z.string().max(200).optional().describe('Full-text search over title, shortDesc and body (ranked)'),
  category: z.string().max(100).optional().describe("A category's slug"),
  size: z.coerce.number().int().min(1).max(BLOG_PAGE_SIZE_MAX).default(BLOG_PAGE_SIZE_DEFAULT),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
});

const PostParams = z.object({ idOrSlug: z.string().min(1).max(200).describe("A post's id or slug") });
const SlugParams = z.object({ slug: z.string().min(1).max(200).describe("A post's slug (or id)") });

/** An uploaded file: bytes after the multipart hook has read them (documented as a binary string). */
const ImageFile = z
  .custom<Buffer>((value) => Buffer.isBuffer(value), { message: 'image must be a file (multipart/form-data)' })
  .meta({ type: 'string', format: 'binary', description: 'jpg, png, svg or webp; the type is read from the bytes' });

const text = (max: number, description: string) => z.string().max(max).optional().describe(description);

/** The documented limit of every text field but the description (core/blog checks tighter ones with the spec's messages). */
const FIELD_MAX_LENGTH = 10_000;
const SHORT_FIELDS = 4;
/**
 * A write's JSON body limit, from the documented lengths: a UTF-16 unit takes at most 6 bytes in
 * JSON (a lone surrogate escaped as \uXXXX), so a body with every field at its documented
 * maxLength always fits, and a too-long description is refused with its message rather than a
 * 413 for the body. The route is for owners only, and the token is checked before the body is read.
 */
const WRITE_BODY_LIMIT = (DESCRIPTION_MAX_LENGTH + SHORT_FIELDS * FIELD_MAX_LENGTH) * 6 + 64 * 1024;

/** The fields of the add and edit forms; lengths and required-ness are checked by core/blog with the spec's messages. */
const WriteBody = z.object({
  title: text(FIELD_MAX_LENGTH, 'Required when adding'),
  slug: text(FIELD_MAX_LENGTH, 'Generated from the title when empty; kept when the title changes'),
  category: text(FIELD_MAX_LENGTH, 'A category name: picked case-insensitively or created; empty for none'),
  description: z
    .string()
    .max(DESCRIPTION_MAX_LENGTH, BLOG_MESSAGES.descriptionTooLong)
    .optional()
    .describe('HTML; sanitised before it is stored'),
  shortDesc: text(FIELD_MAX_LENGTH, 'Derived from the description (about 160 characters) when empty'),
  image: ImageFile.optional(),
  removeImage: z
    .union([z.boolean(), z.enum(['true', 'false'])])
    .optional()
    .describe('true clears the cover image (edit only)'),
  status: z
    .enum(['draft', 'published'])
    .optional()
    .describe('draft: hidden from the public; published: live at publishAt, or at once. Absent on add: published'),
  publishAt: z
    .string()
    .max(40)
    .optional()
    .describe('ISO-8601 time the post goes live (a future time schedules it); empty for at once'),
});
type WriteFields = z.infer<typeof WriteBody>;

const WRITE_CONSUMES = ['multipart/form-data', 'application/json'];

const summaryOf = (post: BlogPostSummary): BlogPostSummary => ({
  id: post.id,
  slug: post.slug,
  title: post.title,
  shortDesc: post.shortDesc,
  category: post.category,
  categorySlug: post.categorySlug,
  image: post.image,
  imageWidth: post.imageWidth,
  imageHeight: post.imageHeight,
  createdAt: post.createdAt,
  updatedAt: post.updatedAt,
  publishedAt: post.publishedAt,
});

const BAD_PUBLISH_TIME = 'Publish time must be a date and time, such as 2026-12-01T09:00:00Z';

/** What a write form says about when the post goes live; undefined leaves it as it is. */
function publishOf(fields: WriteFields): BlogPublish | undefined | 'invalid' {
  if (fields.status === 'draft') return { kind: 'draft' };
  const wanted = fields.publishAt?.trim() ?? '';
  if (wanted) {
    const at = new Date(wanted);
    // Only full ISO times (with a zone): a bare date's zone would be the server's guess.
    if (
      !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(wanted) ||
      Number.isNaN(at.getTime())
    ) {
      return 'invalid';
    }
    return { kind: 'at', at };
  }
  return fields.status === 'published' ? { kind: 'now' } : undefined;
}

/** What a write form says about the cover image. */
function imageOf(fields: WriteFields): BlogImageInput | undefined {
  if (fields.image && fields.image.length > 0) return { upload: fields.image };
  if (fields.removeImage === true || fields.removeImage === 'true') return null;
  return undefined;
}

function patchOf(fields: WriteFields): BlogPostPatch {
  const patch: BlogPostPatch = {};
  if (fields.title !== undefined) patch.title = fields.title;
  if (fields.slug !== undefined) patch.slug = fields.slug;
  if (fields.category !== undefined) patch.category = fields.category;
  if (fields.description !== undefined) patch.description = fields.description;
  if (fields.shortDesc !== undefined) patch.shortDesc = fields.shortDesc;
  const image = imageOf(fields);
  if (image !== undefined) patch.image = image;
  const publish = publishOf(fields);
  if (publish !== undefined && publish !== 'invalid') patch.publish = publish;
  return patch;
}

/**
 * Reads a multipart form into `request.body` (fields as strings, the `image` file as bytes; other
 * files are drained and ignored; an empty file input counts as no file). Too large a file or
 * form is a 413; a form that cannot be parsed a 400.
 */
function multipartFormReader(maxImageBytes: number) {
  return async function readMultipartForm(request: FastifyRequest, reply: FastifyReply) {
    // (The multipart plugin is registered once for the whole app, in server/app.ts.)
    if (!request.isMultipart()) return;
    // A Map, then own properties: a field named __proto__ stays a field.
    const fields = new Map<string, string | Buffer>();
    let truncated = false;
    try {
      for await (const part of request.parts()) {
        if (part.type === 'file') {
          const bytes = await part.toBuffer();
          if (part.fieldname === 'image' && bytes.length > 0) fields.set('image', bytes);
        } else if (part.valueTruncated || part.fieldnameTruncated) {
          // Cut short at the field size limit: storing half a post would be worse than refusing it.
          truncated = true;
        } else if (typeof part.value === 'string') {
          fields.set(part.fieldname, part.value);
        }
      }
    } catch (error) {
      const status = (error as { statusCode?: unknown; code?: unknown }).statusCode;
      if (status === 413) {
        const fileTooLarge = (error as { code?: unknown }).code === 'FST_REQ_FILE_TOO_LARGE';
        return reply
          .status(413)
          .send(failure(fileTooLarge ? imageTooLargeMessage(maxImageBytes) : BLOG_API_MESSAGES.formTooLarge));
      }
      request.log.info({ err: error }, 'blog form refused');
      return reply.status(400).send(failure(BLOG_API_MESSAGES.badForm));
    }
    if (truncated) return reply.status(413).send(failure(BLOG_API_MESSAGES.formTooLarge));
    const body = Object.fromEntries(fields);
    const unsafe = unsafeTextField(body);
    if (unsafe !== null) {
      return reply
        .status(400)
        .send(failure(`${unsafe}: ${UNSAFE_TEXT_MESSAGE}`, [{ field: unsafe, message: UNSAFE_TEXT_MESSAGE }]));
    }
    request.body = body;
  };
}

/** Write replies and errors are for the admin alone. */
const noStore = async (_request: FastifyRequest, reply: FastifyReply) => {
  reply.header('cache-control', 'private, no-store');
};

const writeResponses = {
  400: FailureSchema,
  401: FailureSchema,
  404: FailureSchema,
  409: FailureSchema,
  413: FailureSchema,
};

export const blogApi: FastifyPluginAsyncZod<BlogApiOptions> = async (app, { blog, authenticate, maxImageBytes }) => {
  const adminGuard = requireAdmin(authenticate, OWNER_ONLY);
  const readMultipartForm = multipartFormReader(maxImageBytes);
  /** The reads are public; an owner's token (when sent and valid) shows drafts and scheduled posts too. */
  const isOwner = async (request: FastifyRequest): Promise<boolean> => {
    const token = bearerToken(request);
    if (!token) return false;
    const session = await authenticate(token);
    return session !== null && OWNER_ONLY.includes(session.role);
  };
  app.setErrorHandler(
    specValidationErrors({
      // No body at all (or not an object): say what an add needs first.
      wholePayloadMessage: (request) =>
        request.method === 'POST' ? BLOG_MESSAGES.titleRequired : BLOG_API_MESSAGES.noFields,
    }),
  );

  app.get(
    '/blog',
    {
      // Searches cost a full-text query: limited per client like the other public lookups.
      config: {
        rateLimit: {
          max: 60,
          timeWindow: '1 minute',
          allowList: (request: FastifyRequest) => !(request.query as { keyword?: unknown }).keyword,
        },
      },
      schema: {
        tags: ['blog'],
        summary: 'Blog posts, newest first, or ranked by a full-text keyword; pages of `size` (default 10, max 50)',
        querystring: ListQuery,
        response: { 200: ListSchema, 400: FailureSchema },
      },
    },
    async (request, reply) => {
      const { keyword, category, size, page } = request.query;
      const owner = await isOwner(request);
      const result = await blog.listPosts({
        keyword: keyword?.trim(),
        categorySlug: category,
        page,
        size,
        includeUnpublished: owner,
      });
      // Posts change under admin edits: revalidate rather than serve a stale list; an owner's
      // list (with drafts) is theirs alone.
      reply.header('cache-control', owner ? 'private, no-store' : 'no-cache');
      return {
        ...ok(result.posts.map(summaryOf), result.count ? `${result.count} posts` : 'No blogs found.'),
        totalPages: result.totalPages,
        count: result.count,
        currentPage: result.currentPage,
      };
    },
  );

  app.get(
    '/blog/categories',
    {
      schema: {
        tags: ['blog'],
        summary: 'Blog categories by name, with their number of posts',
        response: { 200: envelopeOf(z.array(CategorySchema)) },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-cache');
      const categories = await blog.listCategories();
      return ok(categories.map((category) => ({ ...category, postCount: category.postCount ?? 0 })));
    },
  );

  app.get(
    '/blog/:slug',
    {
      schema: {
        tags: ['blog'],
        summary: 'One post by slug (or id): `data` is an array whose first element is the post',
        params: SlugParams,
        response: { 200: envelopeOf(z.array(PostSchema)), 400: FailureSchema, 404: FailureSchema },
      },
    },
    async (request, reply) => {
      const owner = await isOwner(request);
      const post = owner ? await blog.findAnyPost(request.params.slug) : await blog.findPost(request.params.slug);
      reply.header('cache-control', owner ? 'private, no-store' : 'no-cache');
      if (!post) return reply.status(404).send(failure(BLOG_MESSAGES.notFound));
      return ok<BlogPost[]>([post]);
    },
  );

  app.post(
    '/blog',
    {
      // The token is checked before the form is read: no stranger's upload is ever parsed.
      onRequest: [noStore, adminGuard],
      preValidation: readMultipartForm,
      bodyLimit: WRITE_BODY_LIMIT,
      schema: {
        tags: ['blog'],
        summary: 'Add a post (admin): multipart form with title, slug, category, description and an image file',
        consumes: WRITE_CONSUMES,
        body: WriteBody,
        response: { 201: envelopeOf(PostSchema), ...writeResponses },
      },
    },
    async (request, reply) => {
      const fields = request.body;
      const image = imageOf(fields);
      const publish = publishOf(fields);
      if (publish === 'invalid') return reply.status(400).send(failure(BAD_PUBLISH_TIME));
      const result = await blog.createPost({
        ...(publish !== undefined ? { publish } : {}),
        title: fields.title ?? '',
        slug: fields.slug,
        category: fields.category,
        description: fields.description ?? '',
        shortDesc: fields.shortDesc,
        ...(image !== undefined ? { image } : {}),
      });
      if (!result.ok) return reply.status(result.status).send(failure(result.message));
      noteAudit(request, { targetId: result.post.id, before: null, after: blogPostAuditFields(result.post) });
      return reply.status(201).send(ok(result.post, BLOG_API_MESSAGES.added));
    },
  );

  app.patch(
    '/blog/:idOrSlug',
    {
      // The token is checked before the form is read: no stranger's upload is ever parsed.
      onRequest: [noStore, adminGuard],
      preValidation: readMultipartForm,
      bodyLimit: WRITE_BODY_LIMIT,
      schema: {
        tags: ['blog'],
        summary:
          'Update a post (admin): the fields sent change; no image keeps the current one, removeImage=true clears it',
        consumes: WRITE_CONSUMES,
        params: PostParams,
        body: WriteBody,
        response: { 200: envelopeOf(PostSchema), ...writeResponses },
      },
    },
    async (request, reply) => {
      if (publishOf(request.body) === 'invalid') return reply.status(400).send(failure(BAD_PUBLISH_TIME));
      const result = await blog.updatePost(request.params.idOrSlug, patchOf(request.body), {
        audit: auditChangeOf(request),
      });
      if (!result.ok) return reply.status(result.status).send(failure(result.message));
      return ok(result.post, BLOG_API_MESSAGES.updated);
    },
  );

  app.delete(
    '/blog/:idOrSlug',
    {
      onRequest: [noStore, adminGuard],
      schema: {
        tags: ['blog'],
        summary: 'Delete a post (admin)',
        params: PostParams,
        response: {
          200: z.object({ isSuccessful: z.literal(true), message: z.string() }),
          400: FailureSchema,
          401: FailureSchema,
          404: FailureSchema,
        },
      },
    },
    async (request, reply) => {
      if (!(await blog.deletePost(request.params.idOrSlug, { audit: auditChangeOf(request) }))) {
        return reply.status(404).send(failure(BLOG_MESSAGES.notFound));
      }
      return { isSuccessful: true as const, message: BLOG_API_MESSAGES.deleted };
    },
  );
};
