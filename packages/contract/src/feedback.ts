import type { AnalysisFeedback, ResourceTopic } from './analysis.ts';
import type { RustClass } from './enums.ts';

/**
 * What a result tells the farmer, per class. The text follows the "Key facts for advice text" of
 * the vetted education resources seeded by migration 0006 (sources cited there); fungicides are named by
 * active-ingredient class only, never by brand, always with the registration and label advice.
 */

export const classLabels: Record<RustClass, string> = {
  common_rust: 'Common rust',
  healthy: 'Healthy',
  other_disease: 'Other disease',
};

const labelAdvice =
  'Use only products registered in your country, follow the label (dose, protective clothing, pre-harvest interval), and ask your extension officer or agro-dealer.';

const retakeAdvice = [
  'Photograph a single leaf in daylight, filling the frame.',
  'Keep it in focus (tap the leaf on the screen to focus), with the sun behind you and no strong shadows.',
  'Add a second photo of the underside of the leaf, and one of the whole plant.',
];

const byClass: Record<RustClass, AnalysisFeedback> = {
  common_rust: {
    message: 'Common rust detected',
    explanation:
      'The photo shows signs of rust. On maize, common rust forms small raised powdery pustules, cinnamon-brown to reddish-brown, scattered on both leaf surfaces; they darken to black late in the season. On beans, rust forms reddish-brown pustules, often with a yellow halo, mostly on the underside of leaves. Cool to mild weather (about 16–25 °C), heavy dew and several hours of wet leaves favour it; hot, dry spells slow it down. Rust spores travel long distances on the wind.',
    advice: [
      'Confirm it is rust with the rub test: rust spores rub off on a finger as rusty powder; blights and bacterial spots do not.',
      'Walk the field. Check how many plants are affected and whether the pustules are on the lower leaves only or already on the leaves at and above the cob (maize) or the flag leaf (wheat).',
      'Maize: on most field maize, common rust that arrives after tasselling and silking causes little loss. Resistant or tolerant varieties are the main long-term control. A fungicide pays only on a susceptible variety with early, spreading infection in cool, wet weather, and should go on early, while pustules are still few. Remove Oxalis weeds and volunteer maize, and avoid late planting next to rusted fields.',
      'Beans: destroy crop residues and do not plant beans after beans; rotate 2–3 seasons away from legumes. Intercrop with cereals and use resistant varieties. If a spray is needed, use a protectant (mancozeb) at the first spots, or a triazole or strobilurin early in the epidemic; there is little benefit once the pods are maturing.',
      'Wheat: use resistant varieties from KALRO or NARO, control volunteer wheat and scout from tillering onward. Stem rust (Ug99 lineage) can destroy a crop within weeks in East Africa.',
      labelAdvice,
      'Consult an expert (extension officer, plant clinic, KALRO or NARO station) if you suspect stem rust on wheat or rust on a variety sold as resistant, if rust builds up on the ear leaf or above before tasselling or on young beans before flowering while the weather stays wet, before buying a fungicide, or if you are not sure it is rust.',
    ],
  },
  healthy: {
    message: 'No disease recognised',
    explanation:
      'No disease was recognised in this photo. That does not guarantee the field is healthy: early infections and problems on other plant parts can be missed, and photos alone cannot diagnose everything, because deficiencies, insects and different pathogens can look alike.',
    advice: [
      'Keep scouting: walk the field about weekly. Look at lower leaves and leaf undersides, and look more often once the canopy closes and during long wet spells.',
      'Good practice keeps the crop healthy: certified seed of resistant or tolerant varieties, planting early in the rains, balanced fertility (manure and/or DAP at planting, CAN top-dress), liming acid soils and timely weeding.',
      'Rotate away from the same crop, and remove or bury infected residues.',
      'If other plants or other parts of the plant look unwell, photograph them too, or ask an expert.',
    ],
  },
  other_disease: {
    message: 'Another leaf disease detected',
    explanation:
      'The photo shows a leaf disease that is not rust. On maize this is often northern leaf blight (long cigar-shaped grey-green to tan lesions, not confined between veins) or gray leaf spot (narrow rectangular tan to grey lesions bounded by veins); on beans, angular leaf spot (small angular grey-brown spots bounded by veins; it is carried on seed). Viral and bacterial diseases can land in this class too, and fungicides do not control them, so confirm before spraying.',
    advice: [
      'Compare the spots with the pictures in the resources below: management differs between these diseases.',
      'Remove and bury or plough in infected residues after harvest. Rotate with a different crop: soybeans, groundnuts, wheat and others after maize; non-legumes after beans.',
      'Next season, use tolerant or resistant varieties, e.g. maize H614D, H625F or H627 for gray leaf spot in Kenya.',
      'Beans (angular leaf spot): plant clean certified seed, not seed saved from infected pods, and do not plant beans next to infected stubble or volunteer plants.',
      'Maize (northern leaf blight, gray leaf spot): if lesions are spreading up to the ear leaf around tasselling on a susceptible variety, a fungicide may be justified (KALRO names azoxystrobin + difenoconazole for gray leaf spot). Decide with an extension officer.',
      'Consult an expert before buying any pesticide, and when lesions reach the ear leaf or above by tasselling, many bean plants are affected during flowering, symptoms do not match the pictures, or whole plants are wilting, stunted or mottled. Take a fresh sample to the nearest plant clinic or extension office.',
      labelAdvice,
    ],
  },
};

const notLeaf: AnalysisFeedback = {
  message: 'No leaf found in this photo',
  explanation:
    'The model did not find a crop leaf in this photo, so it gives no diagnosis. It reads photos of a single leaf, close up.',
  advice: retakeAdvice,
};

function unsure(rustClass: RustClass, confidence: number): AnalysisFeedback {
  const pct = `${(confidence * 100).toFixed(2)}%`;
  return {
    message: `Not sure: possibly ${classLabels[rustClass].toLowerCase()}`,
    explanation: `The model's best guess is "${classLabels[rustClass]}" (${pct}), but it is not sure. Treat this as a hint, not a diagnosis.`,
    advice: [
      `Retake the photo: ${retakeAdvice.map((a) => a.charAt(0).toLowerCase() + a.slice(1, -1)).join('; ')}.`,
      'Or ask an expert: book a slot with an expert, or take a fresh sample to the nearest plant clinic or extension office.',
      ...byClass[rustClass].advice,
    ],
  };
}

export function feedbackFor(d: {
  outcome: 'diagnosis' | 'not_leaf';
  rustClass: RustClass | null;
  confidence: number;
  unsure: boolean;
}): AnalysisFeedback {
  if (d.outcome === 'not_leaf' || !d.rustClass) return notLeaf;
  if (d.unsure) return unsure(d.rustClass, d.confidence);
  return byClass[d.rustClass];
}

/** The notification the farmer gets for a result. */
export function notificationMessage(d: {
  outcome: 'diagnosis' | 'not_leaf';
  rustClass: RustClass | null;
  confidence: number;
  unsure: boolean;
}): string {
  if (d.outcome === 'not_leaf' || !d.rustClass) return 'Image analysis done: no leaf was found in your photo.';
  const pct = `${(d.confidence * 100).toFixed(2)}%`;
  return d.unsure
    ? `Image analysis done: not sure, possibly ${classLabels[d.rustClass].toLowerCase()} (${pct}).`
    : `Image analysis done: ${classLabels[d.rustClass].toLowerCase()} (${pct}).`;
}

/** Which education resources a result shows: its class's; photo tips as well when the photo should be retaken. */
export function resourceTopicsFor(d: {
  outcome: 'diagnosis' | 'not_leaf';
  rustClass: RustClass | null;
  unsure: boolean;
}): ResourceTopic[] {
  if (d.outcome === 'not_leaf' || !d.rustClass) return ['photo_tips'];
  return d.unsure ? [d.rustClass, 'photo_tips'] : [d.rustClass];
}
