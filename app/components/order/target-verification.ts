/**
 * Target verification on the order form (spec section 4): idle, loading, success or error per
 * field. It runs when the target field loses focus, only when the field's title names one of
 * the three platforms, and any change of the text sends it back to idle.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { TargetKind } from '../../../core/catalogue/types.ts';
import { INVALID_URL_MESSAGE, type Platform, VERIFICATION_MESSAGES } from '../../../core/verification/messages.ts';
import { ApiError, api, isAbort } from '../../api/client.ts';

export type VerificationState =
  | { status: 'idle' }
  | { status: 'loading' }
  /** `unchecked`: the platform could not be asked right now; the order goes on and is reviewed. */
  | { status: 'success'; unchecked: boolean; laneNotice?: string | undefined }
  /** `invalid`: the store said the target is wrong (show 'Invalid URL' too); otherwise the check itself failed. */
  | { status: 'error'; message: string; invalid: boolean };

export { INVALID_URL_MESSAGE };

/** "YouTube Video URL" → youtube, "Instagram Post URL" → instagram, "TikTok Username" → tiktok. */
export function platformOfTitle(title: string): Platform | null {
  const text = title.trim().toLowerCase();
  if (text.startsWith('youtube')) return 'youtube';
  if (text.startsWith('instagram')) return 'instagram';
  if (text.startsWith('tiktok')) return 'tiktok';
  return null;
}

interface VerificationReply {
  status: 'verified' | 'unchecked';
  /** The target already has a live order of this service's kind: when the buyer's will start. */
  laneNotice?: string;
}

function requestFor(
  platform: Platform,
  kind: TargetKind,
  value: string,
): { path: string; body: Record<string, string> } {
  switch (platform) {
    case 'youtube':
      return { path: '/api/services/verify-youtube-url', body: { youtubeUrl: value } };
    case 'instagram':
      return {
        path: '/api/services/verify-insta-url',
        body: {
          instaId: value,
          ...(kind === 'instagram_post_url'
            ? { kind: 'post' }
            : kind === 'instagram_username'
              ? { kind: 'username' }
              : {}),
        },
      };
    case 'tiktok':
      return {
        path: '/api/services/verify-tiktok-url',
        body: {
          tiktokId: value,
          ...(kind === 'tiktok_post_url' ? { kind: 'video' } : kind === 'tiktok_username' ? { kind: 'username' } : {}),
        },
      };
  }
}

export interface TargetVerification {
  state: VerificationState;
  /** The platform the field belongs to; null means the field is not checked (and not required to be). */
  platform: Platform | null;
  /** Checks `value` (the field lost focus). Blank values are left to the form's required rule. */
  verify: (value: string) => void;
  /** The text changed: back to idle, and any answer still on its way is ignored. */
  reset: () => void;
  /** Marks the target as wrong with a message from elsewhere (e.g. the order API's reply). */
  fail: (message: string) => void;
}

/** `slug`: the service being ordered, so the reply can carry the lane notice (decision 057). */
export function useTargetVerification(title: string, kind: TargetKind, slug: string): TargetVerification {
  const platform = platformOfTitle(title);
  const [state, setState] = useState<VerificationState>({ status: 'idle' });
  const inFlight = useRef<AbortController | null>(null);
  /** The value the current state is about, so a blur without changes does not ask again. */
  const checked = useRef<string | null>(null);

  const cancel = useCallback(() => {
    inFlight.current?.abort();
    inFlight.current = null;
  }, []);

  useEffect(() => cancel, [cancel]);

  const reset = useCallback(() => {
    cancel();
    checked.current = null;
    setState({ status: 'idle' });
  }, [cancel]);

  const verify = useCallback(
    (raw: string) => {
      if (!platform) return;
      const value = raw.trim();
      if (!value) {
        reset();
        return;
      }
      if (checked.current === value) return;
      cancel();
      checked.current = value;
      const controller = new AbortController();
      inFlight.current = controller;
      setState({ status: 'loading' });
      const messages = VERIFICATION_MESSAGES[platform];
      const { path, body } = requestFor(platform, kind, value);
      api.post<VerificationReply>(path, { ...body, slug }, { signal: controller.signal }).then(
        (reply) => {
          if (controller.signal.aborted) return;
          inFlight.current = null;
          setState({ status: 'success', unchecked: reply?.status === 'unchecked', laneNotice: reply?.laneNotice });
        },
        (error: unknown) => {
          if (controller.signal.aborted || isAbort(error)) return;
          inFlight.current = null;
          // 400: the store says the target is wrong, with the spec's message. Anything else
          // (rate limit, outage, offline) means we could not check; let the buyer try again.
          if (error instanceof ApiError && error.status === 400) {
            setState({ status: 'error', message: error.message || messages.invalid, invalid: true });
          } else {
            checked.current = null;
            setState({
              status: 'error',
              message: error instanceof ApiError && error.status === 429 ? error.message : messages.error,
              invalid: false,
            });
          }
        },
      );
    },
    [cancel, kind, platform, reset, slug],
  );

  const fail = useCallback(
    (message: string) => {
      cancel();
      setState({ status: 'error', message, invalid: true });
    },
    [cancel],
  );

  return { state, platform, verify, reset, fail };
}

/** Continue is allowed once the target is verified; "unchecked" counts (an outage must not block checkout). */
export function isTargetAccepted(verification: Pick<TargetVerification, 'platform' | 'state'>, value: string): boolean {
  if (!verification.platform) return value.trim().length > 0;
  return verification.state.status === 'success';
}
