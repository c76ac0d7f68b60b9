import fs from 'node:fs';
import { readCard } from '@kutu/vision';
import type { Db } from '../../db/client.ts';
import { modelVersions } from '../../db/schema/index.ts';
import { createTrainingRepo } from './training.repo.ts';

/**
 * Registers the committed model as the first version (active) when there is none yet, with the
 * metrics from its model card, so retraining has a model to start from and to compare with.
 */
export async function registerCommittedModel(db: Db, modelDir: string, now = new Date()): Promise<boolean> {
  const repo = createTrainingRepo(db);
  if ((await repo.countVersions()) > 0) return false;
  const card = await readCard(modelDir);
  const measured = (card.metrics as { eval_set?: Record<string, unknown> } | undefined)?.eval_set ?? {};
  const created = await db
    .insert(modelVersions)
    .values({
      version: card.version,
      path: modelDir,
      metrics: { ...measured, eval_set: `packages/vision/eval-set.json (${measured.images ?? '?'} images)` },
      isActive: true,
      activatedAt: now,
    })
    // Two processes starting on one empty database: the second one's row is simply not needed.
    .onConflictDoNothing({ target: modelVersions.version })
    .returning({ id: modelVersions.id });
  return created.length > 0;
}

/**
 * The model directory to serve at startup: the active version from the database (the committed
 * model is registered first when the table is empty), or the committed model when the active
 * version's files are gone.
 */
export async function activeModelDir(
  db: Db,
  committedDir: string,
  log: (msg: string) => void = () => {},
): Promise<string> {
  await registerCommittedModel(db, committedDir);
  const active = await createTrainingRepo(db).activeVersion();
  if (!active) return committedDir;
  if (!fs.existsSync(active.path)) {
    log(`the active model version ${active.version} is missing at ${active.path}; serving the committed model`);
    return committedDir;
  }
  return active.path;
}
