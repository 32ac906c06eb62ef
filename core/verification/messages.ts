/**
 * Target verification messages (spec section 5). Shared by the API and, later, the order form,
 * so the wording lives in one place.
 */
import type { TargetKind } from '../catalogue/types.ts';

export type Platform = 'youtube' | 'instagram' | 'tiktok';

export interface PlatformMessages {
  /** The target field is empty. */
  required: string;
  /** The input is not a well-formed target, or the platform says it does not exist. */
  invalid: string;
  /** We could not check (upstream outage, timeout): checkout goes on, the order is flagged. */
  error: string;
}

export const VERIFICATION_MESSAGES = {
  youtube: {
    required: 'YouTube URL is required',
    invalid: 'Invalid YouTube URL',
    error: 'Error verifying YouTube URL',
  },
  instagram: {
    required: 'Instagram input is required',
    invalid: 'Invalid Instagram input',
    error: 'Error verifying Instagram input',
  },
  tiktok: {
    required: 'TikTok input is required',
    invalid: 'Invalid TikTok input',
    error: 'Error verifying TikTok input',
  },
} as const satisfies Record<Platform, PlatformMessages>;

/** The spec's extra line under a failed verification. */
export const INVALID_URL_MESSAGE = 'Invalid URL';

/** API reply message when the platform confirmed the target. */
export const VERIFIED_MESSAGE = 'Verified';

/** API reply message when the platform could not be asked; the order still goes through. */
export const UNCHECKED_MESSAGE = 'Could not verify right now; your order will be checked by our team';

/** Longest target input we accept (any kind). */
export const MAX_TARGET_INPUT_LENGTH = 500;

const PLATFORM_OF: Record<TargetKind, Platform> = {
  youtube_video_url: 'youtube',
  instagram_username: 'instagram',
  instagram_post_url: 'instagram',
  tiktok_username: 'tiktok',
  tiktok_post_url: 'tiktok',
};

function platformOf(kind: TargetKind): Platform {
  return PLATFORM_OF[kind];
}

export function messagesFor(kind: TargetKind): PlatformMessages {
  return VERIFICATION_MESSAGES[platformOf(kind)];
}
