import type { TFunction } from 'i18next';
import type { AnalysisResult, ResourceTopic } from '@kutu/contract';
import { resultHeadingText, type TextRef } from '@kutu/contract/result-text';

// The screens read the contract's label rules from here, so that they share one chunk with the rest.
export { resultLabelKey, rustNameKey } from '@kutu/contract/result-text';

/** Class names and colours of the spec (rust red, Healthy green, Other Diseases blue). */
export const topicMeta: Record<ResourceTopic, { labelKey: string; color: string }> = {
  common_rust: { labelKey: 'analysis.class.common_rust', color: 'red' },
  healthy: { labelKey: 'analysis.class.healthy', color: 'green' },
  other_disease: { labelKey: 'analysis.class.other_disease', color: 'blue' },
  photo_tips: { labelKey: 'analysis.class.photo_tips', color: 'gray' },
};

export function resultColor(r: Pick<AnalysisResult, 'outcome' | 'rust_class'>): string {
  if (r.outcome === 'not_leaf' || !r.rust_class) return 'gray';
  return topicMeta[r.rust_class].color;
}

/**
 * A text the API sent as a key and values (the contract's result-text.ts), in the language on screen;
 * values that are keys are written first. A plain string (a reply cached before texts were keys) is shown as it is.
 */
export function say(t: TFunction, text: TextRef | string): string {
  if (typeof text === 'string') return text;
  const values = Object.fromEntries(
    Object.entries(text.values ?? {}).map(([name, v]) => [name, typeof v === 'string' ? v : t(v.key)]),
  );
  return t(text.key, values);
}

/** The heading of a result, in words a farmer reads right ("Your leaf looks healthy", "Signs of bean rust"). */
export const resultHeading = (t: TFunction, r: Parameters<typeof resultHeadingText>[0]) => say(t, resultHeadingText(r));
