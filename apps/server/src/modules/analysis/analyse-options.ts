import type { AnalysisCrop, ContentLanguage } from '@kutu/contract';

/** How a photo is analysed: the farmer's upload, or one photo of a plant clinic visit (docs/decisions/0053). */
export interface AnalyseOptions {
  crop?: AnalysisCrop;
  /** The caller's field the photo is of; left out, the farmer's field of the crop (docs/decisions/0078). */
  fieldId?: number;
  idempotencyKey?: string;
  language?: ContentLanguage;
  followUpOf?: number;
  /** Whose share of the decode limiter pays (a plant clinic's expert photographs for the farmer). */
  decodeAs?: number;
  /** False for the further photos of one clinic visit: one field, one reminder (0053). */
  followUp?: boolean;
}
