import { trainingLabelNames, trainingLabels } from '@kutu/contract/enums';
import type { TrainingLabel } from '@kutu/contract';

/** The label dropdown's options, in the spec's order with readable names. */
export const labelOptions = trainingLabels.map((value) => ({ value, label: trainingLabelNames[value] }));
export const labelName = (label: TrainingLabel) => trainingLabelNames[label];
/** The spec's class colours: Common Rust red, Healthy green, Other Diseases blue. */
export const labelColor: Record<TrainingLabel, string> = {
  common_rust: 'red',
  healthy: 'green',
  other_disease: 'blue',
};
