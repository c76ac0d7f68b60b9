import { describe, expect, it } from 'vitest';
import type { OfflineModelInfo } from '@kutu/contract';
import { RECIPE_ANSWER } from '@kutu/vision/browser';
import { sameFileInfo } from './model.ts';

const stored = {
  version: 'v2',
  file_url: '/api/offline-model/v2/model.onnx',
  bytes: 10,
  sha256: 'abc',
  quantised: true,
  input_size: 160,
  classes: ['common_rust', 'healthy', 'other_disease', 'not_leaf'],
  thresholds: { unsureBelow: 0.9 },
  answer: RECIPE_ANSWER,
  resources: { common_rust: [], healthy: [], other_disease: [], photo_tips: [] },
  advice: [],
} satisfies OfflineModelInfo;

describe("the phone's stored model info", () => {
  it("takes the server's settings for the file it holds, with no new download", () => {
    const latest = { ...stored, answer: { ...RECIPE_ANSWER, closeMargin: 0.5 } };
    expect(sameFileInfo(stored, latest)?.answer.closeMargin).toBe(0.5);
  });

  it('keeps its info for another file (a new version waits for its download), and has none to refresh', () => {
    expect(sameFileInfo(stored, { ...stored, version: 'v3' })).toBeNull();
    expect(sameFileInfo(stored, { ...stored, sha256: 'def' })).toBeNull();
    expect(sameFileInfo(null, stored)).toBeNull();
  });
});
