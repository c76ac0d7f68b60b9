import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalFileStorage } from '../../src/adapters/storage.ts';
import { ORPHAN_GRACE_MS, sweepOrphanPhotos } from '../../src/lib/orphan-photos.ts';
import { photoOwners } from '../../src/ports.ts';
import { fixture, multipart } from '../support/photos.ts';
import { createTestApp, type TestContext } from '../support/app.ts';
import { createUser } from '../support/users.ts';
import { analysisApi, trainingApi } from '@kutu/contract';

// After crashes, photo files remained without a row (docs/decisions/0011).
describe('orphan photo sweep', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const age = (key: string, ms: number) => {
    const when = new Date(Date.now() - ms);
    fs.utimesSync((t.deps.storage as LocalFileStorage).localPath(key), when, when);
  };

  it('removes old files that no row refers to, under each owned folder, and nothing else', async () => {
    const farmer = await createUser(t, 'farmer');
    const expert = await createUser(t, 'expert');
    const photo = fixture('maize-common-rust.jpg');
    const send = (user: typeof farmer, url: string, fields: Record<string, string> = {}) => {
      const form = multipart([{ filename: 'leaf.jpg', data: photo }], fields);
      return t.app.inject({
        method: 'POST',
        url,
        payload: form.payload,
        headers: { ...user.headers, ...form.headers },
      });
    };
    const analysis = await send(farmer, analysisApi.detect);
    const sample = await send(expert, trainingApi.upload, { label: 'healthy' });
    expect([analysis.statusCode, sample.statusCode]).toEqual([201, 201]);
    const post = await t.deps.storage.put('posts', photo, 'jpg');
    const kept = (await Promise.all(['analyses', 'training'].map((f) => t.deps.storage.list(f)))).flat();
    // The analysis's photo and heatmap, and the training sample's photo.
    expect(kept).toHaveLength(3);
    expect(analysis.json().heatmap_url).toBeTruthy();

    // What a crash between writing the file and inserting the row leaves behind, in each folder.
    const orphans = [
      await t.deps.storage.put('analyses/2026/01', photo, 'jpg'),
      await t.deps.storage.put('training', photo, 'jpg'),
      post,
    ];
    const fresh = await t.deps.storage.put('posts', photo, 'jpg');
    const foreign = await t.deps.storage.put('expert-reviews', photo, 'jpg');
    for (const key of [...orphans, ...kept.map((f) => f.key), foreign]) age(key, ORPHAN_GRACE_MS + 60_000);
    age(fresh, ORPHAN_GRACE_MS - 60_000);

    const removed = await sweepOrphanPhotos({
      db: t.deps.database.db,
      owners: photoOwners,
      storage: t.deps.storage,
      now: new Date(),
    });
    expect(removed.sort()).toEqual([...orphans].sort());
    for (const key of orphans)
      expect(fs.existsSync((t.deps.storage as LocalFileStorage).localPath(key)), key).toBe(false);
    // Referenced photos, a file still within its grace period, and folders the sweep does not own stay.
    for (const key of [...kept.map((f) => f.key), fresh, foreign]) {
      expect(fs.existsSync((t.deps.storage as LocalFileStorage).localPath(key)), key).toBe(true);
    }
    const image = await t.app.inject({ method: 'GET', url: analysis.json().image_url, headers: farmer.headers });
    expect(image.statusCode).toBe(200);
    const heatmap = await t.app.inject({ method: 'GET', url: analysis.json().heatmap_url, headers: farmer.headers });
    expect(heatmap.statusCode).toBe(200);
  });
});
