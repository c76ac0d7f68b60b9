import { describe, expect, it } from 'vitest';
import { IMAGE_MAX_BYTES } from '@kutu/contract';
import { refusalOf } from '../../../lib/shrink.ts';

const photo = (type: string, bytes: number) => ({
  blob: new Blob([new Uint8Array(bytes)], { type }),
  filename: 'x',
  resized: true,
});

describe('refusalOf (the server limits, applied after shrinking)', () => {
  it('takes a JPEG or PNG up to 5 MB', () => {
    expect(refusalOf(photo('image/jpeg', IMAGE_MAX_BYTES))).toBeNull();
    expect(refusalOf(photo('image/png', 300_000))).toBeNull();
  });
  it('refuses what is still over 5 MB, and what the browser could not turn into a JPEG', () => {
    expect(refusalOf(photo('image/jpeg', IMAGE_MAX_BYTES + 1))).toBe('analysis.upload.tooBig');
    expect(refusalOf(photo('image/heic', 100))).toBe('analysis.upload.unsupported');
    expect(refusalOf(photo('', 100))).toBe('analysis.upload.unsupported');
  });
});
