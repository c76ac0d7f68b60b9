import type { AdviceCrop, AdviceItem, AdviceTopic, AnalysisCrop, AnalysisFeedback, ResourceTopic } from './analysis.ts';
import type { RustClass } from './enums.ts';

/**
 * What a result tells the farmer: one line and an explanation per class (from the "Key facts for
 * advice text" of the vetted education resources), then the advice for the result's topic and crop,
 * which lives in the database (seeded by migration 0010, edited by experts).
 */

export const classLabels: Record<RustClass, string> = {
  common_rust: 'Rust',
  healthy: 'Healthy',
  other_disease: 'Other disease',
};

/**
 * The model's rust class as the farmers and experts of the crop call it (issue 37): common rust
 * (Puccinia sorghi) on maize, bean rust (Uromyces appendiculatus) on beans; rust when the crop is not
 * said. The screens, notifications and SMS use the same names in each language (their locale files).
 */
export const rustNames: Record<AnalysisCrop | 'any', string> = {
  maize: 'Common rust (Puccinia sorghi)',
  beans: 'Bean rust (Uromyces appendiculatus)',
  other: 'Rust',
  any: 'Rust',
};
const rustByCrop: Record<AnalysisCrop | 'any', Pick<AnalysisFeedback, 'message' | 'explanation'>> = {
  maize: {
    message: 'Signs of common rust (Puccinia sorghi)',
    explanation:
      'The photo shows signs of common rust of maize: small raised powdery pustules, cinnamon-brown to reddish-brown, on both sides of the leaf.',
  },
  beans: {
    message: 'Signs of bean rust (Uromyces appendiculatus)',
    explanation:
      'The photo shows signs of bean rust: reddish-brown pustules, often with a yellow ring, mostly under the leaf.',
  },
  other: {
    message: 'Signs of rust',
    explanation:
      'The photo shows signs of rust. On maize, common rust forms small raised powdery pustules, cinnamon-brown to reddish-brown, on both sides of the leaf. On beans, rust forms reddish-brown pustules, often with a yellow ring, mostly under the leaf.',
  },
  any: {
    message: 'Signs of rust',
    explanation:
      'The photo shows signs of rust. On maize, common rust forms small raised powdery pustules, cinnamon-brown to reddish-brown, on both sides of the leaf. On beans, rust forms reddish-brown pustules, often with a yellow ring, mostly under the leaf.',
  },
};

/** A class's name for the crop: only rust has one per crop. */
export function classLabel(rustClass: RustClass, crop: AnalysisCrop | null = null): string {
  return rustClass === 'common_rust' ? rustNames[crop ?? 'any'] : classLabels[rustClass];
}

const byClass: Record<Exclude<RustClass, 'common_rust'>, Pick<AnalysisFeedback, 'message' | 'explanation'>> = {
  healthy: {
    message: 'Your leaf looks healthy',
    explanation:
      'No disease was recognised in this photo. That does not guarantee the field is healthy: early infections and problems on other parts of the plant can be missed.',
  },
  other_disease: {
    message: 'Signs of another leaf disease',
    explanation:
      'The photo shows a leaf disease that is not rust: on maize often northern leaf blight or gray leaf spot, on beans angular leaf spot. Viral and bacterial diseases can land here too, and fungicides do not control them, so confirm before spraying.',
  },
};

/** A model's confidence as farmers read it: a whole percent ("70%"); two decimals claim a precision it has not. */
export function confidencePercent(confidence: number): string {
  return `${Math.round(confidence * 100)}%`;
}

const notLeaf = {
  message: 'No leaf found in this photo',
  explanation:
    'Kutu did not find a crop leaf in this photo, so it gives no diagnosis. It reads photos of a single leaf, close up.',
};

function unsure(rustClass: RustClass, confidence: number, crop: AnalysisCrop | null) {
  const pct = confidencePercent(confidence);
  const name = classLabel(rustClass, crop);
  return {
    message: `Not sure: possibly ${rustClass === 'common_rust' ? name : name.toLowerCase()}`,
    explanation: `Kutu's best guess is "${name}" (${pct}), but it is not sure. Treat this as a hint, not a diagnosis.`,
  };
}

/** The crop whose advice a result gets: the farmer's crop when there is advice for it, else `general`. */
export function adviceCropFor(crop: AnalysisCrop | null): AdviceCrop {
  return crop === 'maize' || crop === 'beans' ? crop : 'general';
}

/** Advice entries by topic and crop, with the fallback to the topic's `general` entry (server and phone). */
export class AdviceBook {
  private readonly byKey: Map<string, AdviceItem>;
  constructor(items: AdviceItem[]) {
    this.byKey = new Map(items.map((a) => [`${a.topic}/${a.crop}`, a]));
  }

  find(topic: AdviceTopic, crop: AnalysisCrop | null): AdviceItem | undefined {
    return this.byKey.get(`${topic}/${adviceCropFor(crop)}`) ?? this.byKey.get(`${topic}/general`);
  }
}

type Result = { outcome: 'diagnosis' | 'not_leaf'; rustClass: RustClass | null; confidence: number; unsure: boolean };

/** The advice topic of a result. */
export function adviceTopicFor(d: Result): AdviceTopic {
  if (d.outcome === 'not_leaf' || !d.rustClass) return 'not_leaf';
  return d.unsure ? 'unsure' : d.rustClass;
}

export function feedbackFor(d: Result & { crop: AnalysisCrop | null }, book: AdviceBook): AnalysisFeedback {
  const said =
    d.outcome === 'not_leaf' || !d.rustClass
      ? notLeaf
      : d.unsure
        ? unsure(d.rustClass, d.confidence, d.crop)
        : d.rustClass === 'common_rust'
          ? rustByCrop[d.crop ?? 'any']
          : byClass[d.rustClass];
  const advice = book.find(adviceTopicFor(d), d.crop);
  return {
    ...said,
    headline: advice?.headline ?? '',
    advice: advice?.steps ?? [],
    more: advice?.more ?? [],
    advice_crop: advice?.crop ?? 'general',
    sources: advice?.sources ?? [],
  };
}

/** The notification the farmer gets for a result. */
export function notificationMessage(d: Result & { crop?: AnalysisCrop | null }): string {
  if (d.outcome === 'not_leaf' || !d.rustClass) return 'Image analysis done: no leaf was found in your photo.';
  const pct = confidencePercent(d.confidence);
  const name = d.rustClass === 'common_rust' ? classLabel(d.rustClass, d.crop) : classLabels[d.rustClass].toLowerCase();
  return d.unsure
    ? `Image analysis done: not sure, possibly ${name} (${pct}).`
    : `Image analysis done: ${name} (${pct}).`;
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
