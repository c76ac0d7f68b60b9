import type { AnalysisResult, ResourceTopic } from '@kutu/contract';

/** Class names and colours of the spec (Common Rust red, Healthy green, Other Diseases blue). */
export const topicMeta: Record<ResourceTopic, { labelKey: string; color: string }> = {
  common_rust: { labelKey: 'analysis.class.common_rust', color: 'red' },
  healthy: { labelKey: 'analysis.class.healthy', color: 'green' },
  other_disease: { labelKey: 'analysis.class.other_disease', color: 'blue' },
  photo_tips: { labelKey: 'analysis.class.photo_tips', color: 'gray' },
};

/** The label key of a result: its class, or "no leaf". */
export function resultLabelKey(r: Pick<AnalysisResult, 'outcome' | 'rust_class'>): string {
  if (r.outcome === 'not_leaf' || !r.rust_class) return 'analysis.class.not_leaf';
  return topicMeta[r.rust_class].labelKey;
}
export function resultColor(r: Pick<AnalysisResult, 'outcome' | 'rust_class'>): string {
  if (r.outcome === 'not_leaf' || !r.rust_class) return 'gray';
  return topicMeta[r.rust_class].color;
}

/** The heading of a result, in words a farmer reads right ("Your leaf looks healthy"). */
export function resultHeading(r: Pick<AnalysisResult, 'outcome' | 'rust_class' | 'unsure'>): {
  key: string;
  values?: Record<string, string>;
} {
  if (r.outcome === 'not_leaf' || !r.rust_class) return { key: 'analysis.result.heading.not_leaf' };
  if (r.unsure)
    return { key: 'analysis.result.heading.unsure', values: { guess: `$t(${topicMeta[r.rust_class].labelKey})` } };
  return { key: `analysis.result.heading.${r.rust_class}` };
}
