import type { AdviceCrop, AdviceItem, AdviceTopic, AnalysisCrop, AnalysisFeedback, ResourceTopic } from './analysis.ts';
import type { RustClass } from './enums.ts';
import { rustSeenOnSome } from './field-photos.ts';
import { resultExplanationText, resultHeadingText } from './result-text.ts';

export { confidencePercent } from './result-text.ts';

/**
 * What a result tells the farmer: one line and an explanation (keys of the web app's catalogue, written
 * in the reader's language there: result-text.ts), then the advice for the result's topic and crop,
 * which lives in the database in each language (seeded by migration 0010, edited by experts).
 */

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

type Result = {
  outcome: 'diagnosis' | 'not_leaf';
  rustClass: RustClass | null;
  confidence: number;
  unsure: boolean;
  /** Leaves that showed rust on their own, and how many leaves the answer has (field answers). */
  rustLeaves?: number | null;
  leafCount?: number;
};

const seesRust = (d: Result) =>
  rustSeenOnSome({ outcome: d.outcome, unsure: d.unsure, rust_class: d.rustClass, rust_leaves: d.rustLeaves });

/** The advice topic of a result: rust seen on a leaf of the field gets the rust advice (walk the field). */
export function adviceTopicFor(d: Result): AdviceTopic {
  if (d.outcome === 'not_leaf' || !d.rustClass) return 'not_leaf';
  if (seesRust(d)) return 'common_rust';
  return d.unsure ? 'unsure' : d.rustClass;
}

export function feedbackFor(d: Result & { crop: AnalysisCrop | null }, book: AdviceBook): AnalysisFeedback {
  const shown = {
    outcome: d.outcome,
    rust_class: d.rustClass,
    unsure: d.unsure,
    confidence: d.confidence,
    crop: d.crop,
    rust_leaves: d.rustLeaves,
    leaf_count: d.leafCount,
  };
  const advice = book.find(adviceTopicFor(d), d.crop);
  return {
    finding: resultHeadingText(shown),
    explanation: resultExplanationText(shown),
    headline: advice?.headline ?? '',
    advice: advice?.steps ?? [],
    more: advice?.more ?? [],
    advice_crop: advice?.crop ?? 'general',
    sources: advice?.sources ?? [],
  };
}

/** Which education resources a result shows: its class's; photo tips as well when the photo should be retaken. */
export function resourceTopicsFor(d: {
  outcome: 'diagnosis' | 'not_leaf';
  rustClass: RustClass | null;
  unsure: boolean;
  rustLeaves?: number | null;
}): ResourceTopic[] {
  if (d.outcome === 'not_leaf' || !d.rustClass) return ['photo_tips'];
  if (seesRust({ ...d, confidence: 0 })) return ['common_rust'];
  return d.unsure ? [d.rustClass, 'photo_tips'] : [d.rustClass];
}
