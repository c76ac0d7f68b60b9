import { type CardSettings, CROPS, cardSettings, type FieldCut, fieldCut } from '@kutu/vision';
import type { ModuleDeps } from '../../deps.ts';
import { createListCache } from '../../lib/list-cache.ts';
import { createFieldSetRepo, type TrainingSources } from './field-set.repo.ts';

/**
 * How long a served version's learnt cuts are kept without news of a change. Experts' verdicts, relabels and
 * removals drop them at once in every process (`deps.lists.changed('field-cut')`); this bounds the rest (a
 * farmer withdrawing consent, an erased account) and keeps the count (tens of ms on thousands of photos) off
 * most photos.
 */
export const FIELD_CUT_REFRESH_MS = 10 * 60_000;

/** A sample's crop as the held-back set groups it (`maize`, `beans`, … or `unknown`). */
export const cropKey = (crop: string | null | undefined) => crop?.toLowerCase() ?? 'unknown';

/**
 * The group whose cut answers an analysis's crop: verdicts name maize and beans on their samples (review's
 * `trainingCrop`), so `other` and an unnamed crop answer from `unknown`, the photos they made.
 */
const groupOfCrop = (crop: string | null | undefined) => (crop === 'maize' || crop === 'beans' ? crop : 'unknown');

/** The cut a crop's photos are answered with: the card's, or the one learnt from the field. */
export interface AppliedCut {
  source: 'card' | 'field';
  value: number;
}

/** One crop's learnt cut for the served version, and what answers now (docs/decisions/0119). */
export interface CropCut {
  crop: string;
  photos: number;
  /** Null with too few photos; its cut 1 when no share answers safely. */
  learnt: FieldCut | null;
  applied: AppliedCut;
  /** Since when the learnt cut answers: its newest verified photo, or the version's activation if later. */
  since: Date | null;
}

/** A held-back photo the served version answered (`heldBackAnswers`). */
export interface AnsweredPhoto {
  cropType: string | null;
  label: string;
  outcome: string;
  rustClass: string | null;
  confidence: number;
  verifiedAt: Date;
}

/**
 * Each crop's learnt cut and the cut that answers: the learnt one only where it is stricter than the card's
 * (decision 0119: a looser one would rest the guarantee on the photos experts happened to verify).
 */
export function cropCuts(rows: AnsweredPhoto[], cardCut: number, activatedAt: Date | null): CropCut[] {
  const byCrop = new Map<string, AnsweredPhoto[]>();
  for (const r of rows) {
    const key = cropKey(r.cropType);
    const photos = byCrop.get(key) ?? [];
    photos.push(r);
    byCrop.set(key, photos);
  }
  return [...byCrop.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([crop, photos]) => {
      const found = fieldCut(
        photos.map((p) => {
          const answered = p.outcome === 'diagnosis' && p.rustClass !== null;
          return { confidence: answered ? p.confidence : null, right: p.rustClass === p.label };
        }),
      );
      // "Answer nothing" reads as 1: no share is sure enough.
      const learnt = found && { ...found, cut: Number.isFinite(found.cut) ? found.cut : 1 };
      if (!learnt || learnt.cut <= cardCut) {
        return { crop, photos: photos.length, learnt, applied: { source: 'card', value: cardCut }, since: null };
      }
      const newest = Math.max(...photos.map((p) => p.verifiedAt.getTime()), activatedAt?.getTime() ?? 0);
      return {
        crop,
        photos: photos.length,
        learnt,
        applied: { source: 'field', value: learnt.cut },
        since: new Date(newest),
      };
    });
}

/**
 * The served version's unsure cut per crop, learnt from the verified held-back photos it answered: counted
 * once per version and kept (`FIELD_CUT_REFRESH_MS`, dropped when experts verify a photo), so a photo's
 * answer waits on no count. A newly activated version has answered none of them: the card's cut stands.
 */
export function createFieldCuts(deps: ModuleDeps, sources: TrainingSources) {
  const repo = createFieldSetRepo(deps.db, sources);
  const cache = createListCache<CropCut[]>(() => deps.clock.now().getTime(), FIELD_CUT_REFRESH_MS);
  deps.coordinator.on('list-changed', (e) => {
    if (e.list === 'field-cut') cache.clear();
  });
  // A version activated again (a rollback) is applied since then: its cuts are counted afresh.
  deps.coordinator.on('model-activated', () => cache.clear());

  function served() {
    const classifier = deps.classifier.current();
    return { version: classifier.version, settings: cardSettings(classifier.card) };
  }

  async function cutsOf(version: string, cardCut: number): Promise<CropCut[]> {
    return cache.get(version, async () => {
      const [rows, activatedAt] = await Promise.all([repo.heldBackAnswers(version), repo.activatedAt(version)]);
      const value = cropCuts(rows, cardCut, activatedAt);
      return { value, bytes: 200 * (value.length + 1) };
    });
  }

  /** The cut that answers a crop's photos with the served version. */
  async function appliedFor(crop: string | null | undefined): Promise<AppliedCut> {
    const { version, settings } = served();
    const cardCut = settings.thresholds.unsureBelow;
    const cuts = await cutsOf(version, cardCut);
    return cuts.find((c) => c.crop === groupOfCrop(crop))?.applied ?? { source: 'card', value: cardCut };
  }

  return {
    appliedFor,

    /** The served card's settings with the crop's cut: what a field's answer of several leaves is made with. */
    async settingsFor(crop: string | null | undefined): Promise<CardSettings> {
      const { version, settings } = served();
      const applied = await appliedFor(crop);
      return { ...settings, version, thresholds: { ...settings.thresholds, unsureBelow: applied.value } };
    },

    /** Each crop a phone names, with its learnt cut where that answers (the phone's `unsure_cuts`). */
    async fieldCutsByCrop(): Promise<Record<string, number>> {
      const byCrop: Record<string, number> = {};
      for (const crop of CROPS) {
        const applied = await appliedFor(crop);
        if (applied.source === 'field') byCrop[crop] = applied.value;
      }
      return byCrop;
    },

    /** The served version's cuts by crop, for the live figures. */
    async figures() {
      const { version, settings } = served();
      return {
        version,
        cardCut: settings.thresholds.unsureBelow,
        crops: await cutsOf(version, settings.thresholds.unsureBelow),
      };
    },
  };
}
export type FieldCuts = ReturnType<typeof createFieldCuts>;
