import {
  cropTypeLabels,
  cropTypes,
  diseaseTypeLabels,
  diseaseTypes,
  urgencyLevelLabels,
  urgencyLevels,
} from '@kutu/contract/enums';

export const cropOptions = cropTypes.map((value) => ({ value, label: cropTypeLabels[value] }));
export const diseaseOptions = diseaseTypes.map((value) => ({ value, label: diseaseTypeLabels[value] }));
export const urgencyOptions = urgencyLevels.map((value) => ({ value, label: urgencyLevelLabels[value] }));

export const urgencyColor = { low: 'gray', medium: 'orange', high: 'red' } as const;
