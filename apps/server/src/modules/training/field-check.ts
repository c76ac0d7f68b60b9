import fs from 'node:fs';
import path from 'node:path';
import type { FieldCheck, FieldSetReply, TrainingLabel } from '@kutu/contract';
import { checkCrops, CROPS, type Crop, describeFile, FIELD_CUT, FIELD_GATE, toCrop } from '@kutu/vision';
import type { ModuleDeps } from '../../deps.ts';
import type { EvalSet, FieldPhoto, Trainer } from '../../adapters/trainer.ts';
import { createFieldSetRepo, type TrainingSources } from './field-set.repo.ts';
import { cropKey, type FieldCuts } from './field-cuts.service.ts';
import type { StoredDecision } from './decision.ts';

/** The crop the classifier is told, as the farmer named it (none for a crop without its own head). */
const namedCrop = (key: string): Crop | null => ((CROPS as readonly string[]).includes(key) ? (key as Crop) : null);

interface HeldBack {
  photos: (FieldPhoto & { key: string })[];
  /** Their files' hashes: a copy of one among the training samples is not trained on either. */
  hashes: Set<string>;
}

/**
 * The field check of a retraining (docs/decisions/0086): the farmers' verified photos held back from
 * training, answered by the candidate and the active model, compared crop by crop (`checkCrops`).
 */
export function createFieldCheck(
  deps: ModuleDeps,
  trainer: Pick<Trainer, 'answers'>,
  cuts: Pick<FieldCuts, 'figures'>,
  sources: TrainingSources,
) {
  const fieldSet = createFieldSetRepo(deps.db, sources);
  const minPhotos = deps.config.training.fieldMinPhotos ?? FIELD_GATE.minPhotos;
  const settings = {
    min_photos: minPhotos,
    alpha: FIELD_GATE.alpha,
    margin: FIELD_GATE.margin,
    hold_out_every: FIELD_GATE.holdOutEvery,
  };

  return {
    /** The held-back photos as files under `scratch` (downloaded from shared storage where needed). */
    async gather(scratch: string): Promise<HeldBack> {
      const photos: HeldBack['photos'] = [];
      const hashes = new Set<string>();
      for (const s of await fieldSet.heldBackSamples()) {
        if (s.sha256) hashes.add(s.sha256);
        const file = await deps.storage.localCopy(s.imagePath, scratch);
        const key = cropKey(s.cropType);
        if (file) photos.push({ path: file, label: s.label, crop: namedCrop(key), key });
      }
      return { photos, hashes };
    },

    /**
     * Both models' answers on the held-back photos and on the fixed evaluation set's field photos (verified
     * too, and never trained on), judged per crop.
     */
    async check(heldBack: HeldBack, evalSet: EvalSet, candidateDir: string, activeDir: string): Promise<FieldCheck> {
      const eval_set_photos: Record<string, number> = {};
      const fixed = evalSet.items.flatMap((i) => {
        const named = describeFile(i.path);
        if ((i.setting ?? named.setting) !== 'field') return [];
        const key = toCrop(named.crop) ?? 'unknown';
        eval_set_photos[key] = (eval_set_photos[key] ?? 0) + 1;
        return [{ path: i.path, label: i.label, crop: namedCrop(key), key }];
      });
      const photos = [...heldBack.photos, ...fixed];
      const active = photos.length ? await trainer.answers(activeDir, photos) : [];
      const candidate = photos.length ? await trainer.answers(candidateDir, photos) : [];
      const pairs = photos.map((p, i) => ({ crop: p.key, truth: p.label, active: active[i], candidate: candidate[i] }));
      return { ...settings, eval_set_photos, crops: checkCrops(pairs, { minPhotos }) };
    },

    /** The check goes into the candidate's model card too, so its files say how it fared in the field. */
    recordOnCard(dir: string, check: FieldCheck) {
      const file = path.join(dir, 'model.json');
      const card = JSON.parse(fs.readFileSync(file, 'utf8'));
      fs.writeFileSync(file, JSON.stringify({ ...card, field_check: check }, null, 2));
    },

    /** The held-back photos by crop and class as they stand, and the latest candidate's field check. */
    async status(): Promise<FieldSetReply> {
      const byCrop = new Map<string, Record<string, number>>();
      for (const r of await fieldSet.heldBackCounts()) {
        const key = cropKey(r.cropType);
        const classes = byCrop.get(key) ?? {};
        classes[r.label as TrainingLabel] = (classes[r.label] ?? 0) + r.n;
        byCrop.set(key, classes);
      }
      const last = await fieldSet.lastCheckedVersion();
      const served = await cuts.figures();
      const cardCut = Number.isFinite(served.cardCut) ? served.cardCut : null;
      const decision = last?.decision as StoredDecision | null | undefined;
      return {
        ...settings,
        cut: {
          max_wrong: FIELD_CUT.maxWrong,
          confidence: FIELD_CUT.confidence,
          model_version: served.version,
          crops: served.crops.map((c) => ({
            crop: c.crop,
            photos: c.photos,
            card_cut: cardCut,
            cut: c.learnt?.cut ?? null,
            bound: c.learnt?.bound ?? null,
            applied: c.applied.source,
            applied_since: c.since?.toISOString() ?? null,
          })),
        },
        crops: [...byCrop.entries()]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([crop, by_class]) => {
            const photos = Object.values(by_class).reduce((a, b) => a + b, 0);
            return { crop, photos, by_class, enough: photos >= minPhotos };
          }),
        last_check:
          last && decision?.field_check
            ? {
                id: last.id,
                version: last.version,
                is_active: last.isActive,
                accepted: decision.accepted,
                created_at: last.createdAt.toISOString(),
                field_check: decision.field_check,
              }
            : null,
      };
    },
  };
}
