import fs from 'node:fs';
import path from 'node:path';
import type { FileStorage } from '../../adapters/storage.ts';
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
  /** Where a retrained version's files are when this machine lacks them (docs/decisions/0021). */
  shared?: { storage: FileStorage; modelsRoot: string },
): Promise<string> {
  await registerCommittedModel(db, committedDir);
  const active = await createTrainingRepo(db).activeVersion();
  if (!active) return committedDir;
  const dir = shared ? await modelDirOnThisMachine(shared.storage, active, shared.modelsRoot) : active.path;
  if (!dir || !fs.existsSync(dir)) {
    log(`the active model version ${active.version} is missing at ${active.path}; serving the committed model`);
    return committedDir;
  }
  return dir;
}

/** Model files kept in shared storage under `models/<version>/` (a worker trains, web processes load). */
export const modelStorageFolder = (version: string) => `models/${version}`;

/** Writes a finished model directory's files to shared storage (S3); a local disk is already shared. */
export async function publishModelFiles(storage: FileStorage, dir: string, version: string): Promise<void> {
  if (storage.kind === 'local') return;
  for (const name of fs.readdirSync(dir)) {
    const file = path.join(dir, name);
    if (!fs.statSync(file).isFile()) continue;
    await storage.putKey(`${modelStorageFolder(version)}/${name}`, fs.readFileSync(file), 'application/octet-stream');
  }
}

/**
 * A directory on this machine with a version's files: this process's copy, else (S3) a fresh copy
 * from the bucket, else its recorded path (the committed model; any version with local storage,
 * whose disk every process shares). Null when none has it.
 */
export async function modelDirOnThisMachine(
  storage: FileStorage,
  row: { version: string; path: string },
  modelsRoot: string,
): Promise<string | null> {
  const copy = path.join(modelsRoot, row.version);
  if (fs.existsSync(path.join(copy, 'model.onnx'))) return copy;
  const recorded = fs.existsSync(path.join(row.path, 'model.onnx')) ? row.path : null;
  if (storage.kind === 'local') return recorded;
  const files = await storage.list(modelStorageFolder(row.version));
  if (!files.some((f) => f.key.endsWith('/model.onnx'))) return recorded;
  // Downloaded beside, then renamed: a directory named after a version is always complete.
  fs.mkdirSync(modelsRoot, { recursive: true });
  const scratch = fs.mkdtempSync(path.join(modelsRoot, `.download-${row.version}-`));
  try {
    for (const f of files) await storage.localCopy(f.key, scratch);
    fs.renameSync(path.join(scratch, modelStorageFolder(row.version)), copy);
  } catch (err) {
    // Another download in this process or on this disk finished first: its copy is as good.
    if (!fs.existsSync(path.join(copy, 'model.onnx'))) throw err;
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  return copy;
}
