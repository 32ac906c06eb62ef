/**
 * Target verification calls (spec section 7): the order form asks whether the YouTube video,
 * Instagram account or post, or TikTok account or video the buyer typed exists.
 *
 * - verified    → 200, isSuccessful true, data.status 'verified' and the canonical URL;
 * - invalid     → 400, isSuccessful false, the spec's message (section 5);
 * - unavailable → 200, isSuccessful true, data.status 'unchecked': the platform could not be
 *   asked, and the spec's UI only reads isSuccessful, so checkout goes on; the order is checked
 *   by a person later.
 *
 * Body validation failures answer 400 with the spec's message ('YouTube URL is required', …),
 * without the `field: ` prefix the app's generic handler would add, because these messages are
 * shown to the buyer as they are; `errors` names the field.
 */
import type { RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { TargetKind } from '../../core/catalogue/types.ts';
import {
  MAX_TARGET_INPUT_LENGTH,
  type PlatformMessages,
  UNCHECKED_MESSAGE,
  VERIFICATION_MESSAGES,
  VERIFIED_MESSAGE,
} from '../../core/verification/messages.ts';
import { guessInstagramKind, guessTikTokKind } from '../../core/verification/parse.ts';
import type { TargetVerifier, VerifyOutcome } from '../../core/verification/verifier.ts';
import { FailureSchema, envelopeOf, failure, ok } from './envelope.ts';
import { specValidationErrors } from './spec-validation.ts';

/** Per client; takes effect where the app registers @fastify/rate-limit (global: false). */
const RATE_LIMIT: RateLimitOptions = { max: 30, timeWindow: '1 minute' };

/** A target field: required (missing, null or blank gives the required message), at most 500 chars. */
function targetField(messages: PlatformMessages, description: string) {
  return z
    .string({ error: (issue) => (issue.input == null ? messages.required : messages.invalid) })
    .trim()
    .min(1, messages.required)
    .max(MAX_TARGET_INPUT_LENGTH, messages.invalid)
    .describe(description);
}

/**
 * The package being ordered (its service slug): the reply then says whether the target already
 * has a live order of the same kind here (the order page's lane notice, decision 057).
 */
const ServiceSlug = z
  .string()
  .trim()
  .max(100)
  .optional()
  .describe(
    'The service being ordered: the reply adds laneNotice when the target already has a live order of its kind',
  );

const YouTubeBody = z.object({
  slug: ServiceSlug,
  youtubeUrl: targetField(
    VERIFICATION_MESSAGES.youtube,
    'A YouTube video URL (watch, youtu.be, shorts, embed or live)',
  ),
});
const InstagramBody = z.object({
  slug: ServiceSlug,
  instaId: targetField(
    VERIFICATION_MESSAGES.instagram,
    'An Instagram username (with or without @), profile URL or post/reel URL',
  ),
  kind: z
    .enum(['username', 'post'], { error: "kind must be 'username' or 'post'" })
    .optional()
    .describe('Default: post when instaId is a URL with /p/, /reel/, /reels/ or /tv/, else username'),
});
const TikTokBody = z.object({
  slug: ServiceSlug,
  tiktokId: targetField(
    VERIFICATION_MESSAGES.tiktok,
    'A TikTok username (with or without @), profile URL, video URL or share link',
  ),
  kind: z
    .enum(['username', 'video'], { error: "kind must be 'username' or 'video'" })
    .optional()
    .describe('Default: video when tiktokId is a URL with /video/ or a vm./vt.tiktok.com share link, else username'),
});

const VerificationResult = z.object({
  status: z
    .enum(['verified', 'unchecked'])
    .describe('unchecked: the platform could not be asked right now; the order goes on and is reviewed'),
  canonical: z.string().describe('The target in canonical form, e.g. https://www.youtube.com/watch?v=ID'),
  laneNotice: z
    .string()
    .optional()
    .describe('With slug, when the target already has a live order of that kind: when the new one will start'),
});
const responses = { 200: envelopeOf(VerificationResult), 400: FailureSchema, 429: FailureSchema };

const ROUTES = {
  youtube: '/services/verify-youtube-url',
  instagram: '/services/verify-insta-url',
  tiktok: '/services/verify-tiktok-url',
} as const;

type VerificationReply =
  | { status: 200; body: ReturnType<typeof ok<z.infer<typeof VerificationResult>>> }
  | { status: 400; body: ReturnType<typeof failure> };

function replyFor(outcome: VerifyOutcome): VerificationReply {
  switch (outcome.outcome) {
    case 'verified':
      return { status: 200, body: ok({ status: 'verified', canonical: outcome.canonical }, VERIFIED_MESSAGE) };
    case 'unavailable':
      return { status: 200, body: ok({ status: 'unchecked', canonical: outcome.canonical }, UNCHECKED_MESSAGE) };
    case 'invalid':
      return { status: 400, body: failure(outcome.message) };
  }
}

interface VerificationApiOptions {
  verifier: TargetVerifier;
  /** The lane notice for a service and a typed target (core/orders/lane-notice.ts); null: the lane is free. */
  laneNotice?: (slug: string, target: string) => Promise<string | null>;
}

export const verificationApi: FastifyPluginAsyncZod<VerificationApiOptions> = async (app, { verifier, laneNotice }) => {
  // Validation errors carry the spec's message verbatim, with the field; a body that is missing
  // or not an object gets the route's "is required" message.
  app.setErrorHandler(
    specValidationErrors({
      wholePayloadMessage: (request) => {
        const path = request.routeOptions.url ?? '';
        const platform = (Object.keys(ROUTES) as (keyof typeof ROUTES)[]).find((key) => path.endsWith(ROUTES[key]));
        return platform ? VERIFICATION_MESSAGES[platform].required : undefined;
      },
    }),
  );

  async function verify(
    kind: TargetKind,
    input: string,
    slug: string | undefined,
    log: { warn(obj: object, msg: string): void },
  ) {
    const outcome = await verifier.verify(kind, input);
    if (outcome.outcome === 'unavailable') {
      log.warn({ kind, canonical: outcome.canonical }, 'target verification unavailable; order will need review');
    }
    const reply = replyFor(outcome);
    if (reply.status !== 200 || !slug || !laneNotice) return reply;
    const notice = await laneNotice(slug, input);
    return notice === null
      ? reply
      : { ...reply, body: { ...reply.body, data: { ...reply.body.data, laneNotice: notice } } };
  }

  app.post(
    ROUTES.youtube,
    {
      config: { rateLimit: RATE_LIMIT },
      schema: {
        tags: ['verification'],
        summary: 'Check that a YouTube video exists (oEmbed); "unchecked" when YouTube cannot be asked',
        body: YouTubeBody,
        response: responses,
      },
    },
    async (request, reply) => {
      const { status, body } = await verify(
        'youtube_video_url',
        request.body.youtubeUrl,
        request.body.slug,
        request.log,
      );
      return reply.status(status).send(body);
    },
  );

  app.post(
    ROUTES.instagram,
    {
      config: { rateLimit: RATE_LIMIT },
      schema: {
        tags: ['verification'],
        summary: 'Check the format of an Instagram username or post URL (Instagram offers no keyless existence check)',
        body: InstagramBody,
        response: responses,
      },
    },
    async (request, reply) => {
      const { instaId } = request.body;
      const kind = request.body.kind ?? guessInstagramKind(instaId);
      const targetKind: TargetKind = kind === 'post' ? 'instagram_post_url' : 'instagram_username';
      const { status, body } = await verify(targetKind, instaId, request.body.slug, request.log);
      return reply.status(status).send(body);
    },
  );

  app.post(
    ROUTES.tiktok,
    {
      config: { rateLimit: RATE_LIMIT },
      schema: {
        tags: ['verification'],
        summary:
          'Check a TikTok video (oEmbed) or the format of a TikTok username; "unchecked" when TikTok cannot be asked',
        body: TikTokBody,
        response: responses,
      },
    },
    async (request, reply) => {
      const { tiktokId } = request.body;
      const kind = request.body.kind ?? guessTikTokKind(tiktokId);
      const targetKind: TargetKind = kind === 'video' ? 'tiktok_post_url' : 'tiktok_username';
      const { status, body } = await verify(targetKind, tiktokId, request.body.slug, request.log);
      return reply.status(status).send(body);
    },
  );
};
