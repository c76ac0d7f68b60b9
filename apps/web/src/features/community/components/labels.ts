import type { TFunction } from 'i18next';
import { type CropType, cropTypes, type DiseaseType, diseaseTypes, urgencyLevels } from '@kutu/contract/enums';
import { rustNameKey } from '../../../lib/diagnosis-labels.ts';

/** Crop, disease and urgency in the language on screen (community.crops, .diseases, .urgencies). */
export const cropLabel = (t: TFunction, crop: CropType) => t(`community.crops.${crop}`);
/**
 * A disease as the farmers of the crop call it: the model's "rust" is common rust on maize, bean rust
 * on beans, leaf, stem or stripe rust on wheat (analysis.rustName); with no crop, rust of any crop.
 */
export const diseaseLabel = (t: TFunction, disease: DiseaseType, crop?: CropType | '' | null) =>
  disease === 'common_rust' ? t(rustNameKey(crop ? crop.toLowerCase() : null)) : t(`community.diseases.${disease}`);
export const urgencyLabel = (t: TFunction, level: (typeof urgencyLevels)[number]) => t(`community.urgencies.${level}`);

export const cropOptions = (t: TFunction) => cropTypes.map((value) => ({ value, label: cropLabel(t, value) }));
export const diseaseOptions = (t: TFunction, crop?: CropType | '' | null) =>
  diseaseTypes.map((value) => ({ value, label: diseaseLabel(t, value, crop) }));
export const urgencyOptions = (t: TFunction) =>
  urgencyLevels.map((value) => ({ value, label: urgencyLabel(t, value) }));

export const urgencyColor = { low: 'gray', medium: 'orange', high: 'red' } as const;
