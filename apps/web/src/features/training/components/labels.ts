import type { TFunction } from 'i18next';
import { trainingLabels } from '@kutu/contract/enums';
import type { TrainingLabel } from '@kutu/contract';

/** A label's name in the language on screen (the contract's English names are the API's, not the screen's). */
export const labelName = (t: TFunction, label: TrainingLabel) => t(`training.labelNames.${label}`);
/** The label dropdown's options, in the spec's order with readable names. */
export const labelOptions = (t: TFunction) => trainingLabels.map((value) => ({ value, label: labelName(t, value) }));
/** The spec's class colours: Common Rust red, Healthy green, Other Diseases blue. */
export const labelColor: Record<TrainingLabel, string> = {
  common_rust: 'red',
  healthy: 'green',
  other_disease: 'blue',
};
