import type { AnalysisResult } from '@kutu/contract';
import { resultExplanationText, resultHeadingText } from '@kutu/contract/result-text';

/**
 * An analysis as the server sends it, for tests: by default a confident Common Rust answer on one photo
 * of a maize leaf, with no severity and no advice steps. `id`, `confidence` and `crop` carry into the
 * photo, the probabilities and the advice's crop; any other field given replaces the default.
 */
export function analysisResult({
  id = 7,
  confidence = 0.95,
  crop = 'maize',
  ...fields
}: Partial<AnalysisResult> = {}): AnalysisResult {
  const image = `/api/rust-detection/${id}/image/`;
  const healthy = Math.round((1 - confidence) * 50) / 100;
  const result: AnalysisResult = {
    id,
    outcome: 'diagnosis',
    rust_class: 'common_rust',
    confidence,
    unsure: false,
    probabilities: { common_rust: confidence, healthy, other_disease: Number((1 - confidence - healthy).toFixed(2)) },
    crop,
    heatmap_url: null,
    educational_resources: [],
    feedback: {
      finding: { key: '' },
      explanation: { key: '' },
      headline: '',
      advice: [],
      more: [],
      advice_crop: crop === 'maize' || crop === 'beans' ? crop : 'general',
      sources: [],
    },
    model_version: 'v-test',
    created_at: '2026-11-25T08:00:00.000Z',
    image_url: image,
    photos: [{ position: 0, url: image, rust_class: 'common_rust', confidence }],
    second_photo: { reason: null, runner_up: null, photos_left: 0 },
    ...fields,
  };
  // The texts follow the result's class, crop and doubt unless the test gives its own feedback.
  return fields.feedback ? result : saying(result);
}

/** The result with the heading and explanation the server would send for its class, crop and doubt. */
export function saying(r: AnalysisResult): AnalysisResult {
  return { ...r, feedback: { ...r.feedback, finding: resultHeadingText(r), explanation: resultExplanationText(r) } };
}
