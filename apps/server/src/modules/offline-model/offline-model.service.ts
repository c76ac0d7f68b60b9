import fs from 'node:fs/promises';
import path from 'node:path';
import {
  type ContentLanguage,
  type EducationalResource,
  type OfflineModelInfo,
  offlineModelApi,
  type ResourceTopic,
  resourceTopics,
} from '@kutu/contract';
import { cardSettings, readOfflineInfo, sha256 } from '@kutu/vision';
import type { ModuleDeps } from '../../deps.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import type { ResourcesService } from '../analysis/resources.service.ts';
import type { AdviceService } from '../analysis/advice.service.ts';
import type { FieldCuts } from '../training/field-cuts.service.ts';

interface ModelFile {
  version: string;
  path: string;
  bytes: number;
  sha256: string;
  quantised: boolean;
}

/**
 * The model phones download for offline diagnosis: the active version's offline.json names the file
 * (the int8 copy when it agreed with the server on ≥ 99 % of the evaluation photos); a version without
 * one (a fresh retraining) is offered as its float model.onnx.
 */
export function createOfflineModelService(
  deps: ModuleDeps,
  advice: AdviceService,
  resources: Pick<ResourcesService, 'listActive'>,
  cuts: Pick<FieldCuts, 'fieldCutsByCrop'>,
) {
  const known = new Map<string, ModelFile>();

  async function activeFile(): Promise<ModelFile> {
    const classifier = deps.classifier.current();
    const cached = known.get(classifier.version);
    if (cached) return cached;
    if (!classifier.dir) {
      throw new AppError('SERVICE_UNAVAILABLE', 'errors.offlineModel.unavailable', 503);
    }
    const info = await readOfflineInfo(classifier.dir);
    const file = path.join(classifier.dir, info?.file ?? 'model.onnx');
    const data = await fs.readFile(file);
    const found: ModelFile = {
      version: classifier.version,
      path: file,
      bytes: data.length,
      sha256: info && info.bytes === data.length ? info.sha256 : sha256(data),
      quantised: info?.quantised ?? false,
    };
    known.set(found.version, found);
    return found;
  }

  return {
    async info(language: ContentLanguage = 'en'): Promise<OfflineModelInfo> {
      const file = await activeFile();
      const card = deps.classifier.current().card;
      const byTopic = Object.fromEntries(resourceTopics.map((t) => [t, [] as EducationalResource[]])) as Record<
        ResourceTopic,
        EducationalResource[]
      >;
      for (const row of await resources.listActive(language)) {
        byTopic[row.rustClass as ResourceTopic]?.push({
          title: row.title,
          url: row.url,
          description: row.description,
          link_language: row.linkLanguage,
        });
      }
      return {
        version: file.version,
        file_url: offlineModelApi.filePath(file.version),
        bytes: file.bytes,
        sha256: file.sha256,
        quantised: file.quantised,
        input_size: card.input_size,
        classes: [...card.classes],
        thresholds: Object.fromEntries(
          Object.entries(card.thresholds ?? {}).map(([k, v]) => [k, typeof v === 'number' ? v : null]),
        ),
        // The crops whose learnt unsure cut the server answers with (0119): the phone answers with it too.
        unsure_cuts: await cuts.fieldCutsByCrop(),
        // The phone's engine reads these with the server's reader (`cardSettings`), so it answers as the server does.
        answer: cardSettings(card).answer,
        resources: byTopic,
        advice: (await advice.list(language)).results,
      };
    },

    /** The file of the active version; an older or unknown version is gone (404), so phones fetch the info again. */
    async file(version: string): Promise<ModelFile> {
      const file = await activeFile();
      if (file.version !== version) throw notFound('errors.offlineModel.versionGone');
      return file;
    },
  };
}
