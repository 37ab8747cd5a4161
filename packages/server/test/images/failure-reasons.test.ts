/** What a run's status message says when skopeo or umoci fails (engine/images/cache.ts imageToolFailureReason). */
import { describe, expect, it } from 'vitest';
import { imageToolFailureReason } from '../../src/engine/images/cache';

const reason = (stderr: string) => imageToolFailureReason('skopeo', 'pulling the image', stderr);

describe('image tool failure reasons', () => {
  it('a corrupt layer whose digests hold 401 or 403 is a corrupt layer, not a refusal', () => {
    const stderr = 'time="2026-11-29T17:20:00Z" level=fatal msg="writing blob: Digest did not match, expected sha256:40317a0b2c, got sha256:9f401e3d7c"';
    expect(reason(stderr)).toMatch(/^a layer is corrupt or unreadable \(skopeo: writing blob: Digest did not match/);
  });

  it('a registry answering 401 or 403 refused access', () => {
    expect(reason('reading manifest 1 in 127.0.0.1:5000/team/x: unauthorized: authentication required')).toBe(
      'the registry refused access (authentication failed or required)',
    );
    expect(reason('initializing source: received unexpected HTTP status: 403 Forbidden')).toBe(
      'the registry refused access (authentication failed or required)',
    );
  });

  it('an unknown manifest is an image the registry does not have', () => {
    expect(reason('reading manifest 1 in 127.0.0.1:5000/team/x: manifest unknown')).toBe('the image is not in the registry (manifest unknown)');
  });
});
