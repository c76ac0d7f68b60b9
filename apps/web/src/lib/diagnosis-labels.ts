import type { TFunction } from 'i18next';
import type { AnalysisResult, ResourceTopic } from '@kutu/contract';
import { formatConfidence } from './format.ts';

/** Class names and colours of the spec (rust red, Healthy green, Other Diseases blue). */
export const topicMeta: Record<ResourceTopic, { labelKey: string; color: string }> = {
  common_rust: { labelKey: 'analysis.class.common_rust', color: 'red' },
  healthy: { labelKey: 'analysis.class.healthy', color: 'green' },
  other_disease: { labelKey: 'analysis.class.other_disease', color: 'blue' },
  photo_tips: { labelKey: 'analysis.class.photo_tips', color: 'gray' },
};

/** The crops whose rust has a name of its own (analysis.rustName); any other is "rust". */
const namedRusts = ['maize', 'beans', 'wheat'] as const;

/**
 * The model's rust class as the farmers and experts of the crop call it: common rust (Puccinia sorghi)
 * on maize, bean rust (Uromyces appendiculatus) on beans, leaf, stem or stripe rust on wheat; rust when
 * the crop is not known. `crop` is an analysis crop or a post's crop in lower case.
 */
export function rustNameKey(crop: string | null | undefined): string {
  const named = namedRusts.find((c) => c === crop);
  return `analysis.rustName.${named ?? 'any'}`;
}

/** The label key of a result: its class (rust named for the crop), or "no leaf". */
export function resultLabelKey(r: Pick<AnalysisResult, 'outcome' | 'rust_class'> & { crop?: string | null }): string {
  if (r.outcome === 'not_leaf' || !r.rust_class) return 'analysis.class.not_leaf';
  if (r.rust_class === 'common_rust') return rustNameKey(r.crop);
  return topicMeta[r.rust_class].labelKey;
}
export function resultColor(r: Pick<AnalysisResult, 'outcome' | 'rust_class'>): string {
  if (r.outcome === 'not_leaf' || !r.rust_class) return 'gray';
  return topicMeta[r.rust_class].color;
}

/** The heading of a result, in words a farmer reads right ("Your leaf looks healthy", "Signs of bean rust"). */
export function resultHeading(
  t: TFunction,
  r: Pick<AnalysisResult, 'outcome' | 'rust_class' | 'unsure'> & { crop?: string | null },
): string {
  const { key, values } = headingKey(t, r);
  return t(key, values ?? {});
}
function headingKey(
  t: TFunction,
  r: Pick<AnalysisResult, 'outcome' | 'rust_class' | 'unsure'> & { crop?: string | null },
): { key: string; values?: Record<string, string> } {
  if (r.outcome === 'not_leaf' || !r.rust_class) return { key: 'analysis.result.heading.not_leaf' };
  if (r.unsure) return { key: 'analysis.result.heading.unsure', values: { guess: t(resultLabelKey(r)) } };
  if (r.rust_class === 'common_rust') {
    const named = namedRusts.find((c) => c === r.crop);
    return { key: `analysis.result.heading.${named ? `rust_${named}` : 'common_rust'}` };
  }
  return { key: `analysis.result.heading.${r.rust_class}` };
}

/** What the result means, in the language on screen and for the crop (the contract's English as a model). */
export function resultExplanation(
  t: TFunction,
  r: Pick<AnalysisResult, 'outcome' | 'rust_class' | 'unsure' | 'confidence'> & { crop?: string | null },
): string {
  const { key, values } = explanationKey(t, r);
  return t(key, values ?? {});
}
function explanationKey(
  t: TFunction,
  r: Pick<AnalysisResult, 'outcome' | 'rust_class' | 'unsure' | 'confidence'> & { crop?: string | null },
): { key: string; values?: Record<string, string> } {
  if (r.outcome === 'not_leaf' || !r.rust_class) return { key: 'analysis.result.explanation.not_leaf' };
  if (r.unsure) {
    return {
      key: 'analysis.result.explanation.unsure',
      values: { guess: t(resultLabelKey(r)), percent: formatConfidence(r.confidence) },
    };
  }
  if (r.rust_class === 'common_rust') {
    const named = namedRusts.find((c) => c === r.crop);
    return { key: `analysis.result.explanation.${named ? `rust_${named}` : 'common_rust'}` };
  }
  return { key: `analysis.result.explanation.${r.rust_class}` };
}
