import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadClassifier } from '@kutu/vision';
import { committedClassifier, createTestApp, type TestContext } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';
import { createClassifierHolder } from '../../adapters/classifier.ts';
import { offlineModelApi } from '@kutu/contract';

const INFO = offlineModelApi.info;

describe('offline model for phones', () => {
  let t: TestContext;
  let farmer: TestUser;
  let committedDir: string;

  beforeAll(async () => {
    const model = await committedClassifier();
    committedDir = model.dir ?? '';
    t = await createTestApp({ classifier: createClassifierHolder(model) });
    farmer = await createUser(t, 'farmer');
  });
  afterAll(() => t.close());

  const get = (url: string, user: TestUser | null = farmer) =>
    t.app.inject({ method: 'GET', url, headers: user?.headers ?? {} });

  it('describes the active model: version, file, size, checksum, thresholds and offline advice', async () => {
    const res = await get(INFO);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-cache');
    const info = res.json();
    const offline = JSON.parse(fs.readFileSync(path.join(committedDir, 'offline.json'), 'utf8'));
    const card = JSON.parse(fs.readFileSync(path.join(committedDir, 'model.json'), 'utf8'));
    expect(info).toMatchObject({
      version: card.version,
      file_url: `/api/offline-model/${card.version}/model.onnx`,
      bytes: offline.bytes,
      sha256: offline.sha256,
      quantised: offline.quantised,
      input_size: card.input_size,
      classes: card.classes,
      thresholds: card.thresholds,
      // The answer's settings, for the phone's engine to read with the server's reader.
      answer: card.answer,
    });
    expect(info.resources.common_rust.length).toBeGreaterThan(0);
    expect(info.resources.photo_tips.length).toBeGreaterThan(0);
  });

  it('serves the file it names, byte for byte, cached for a year', async () => {
    const info = (await get(INFO)).json();
    const res = await get(info.file_url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect(res.rawPayload.length).toBe(info.bytes);
    expect(createHash('sha256').update(res.rawPayload).digest('hex')).toBe(info.sha256);
  });

  it('needs a signed-in user and answers 404 for a version not in service', async () => {
    expect((await get(INFO, null)).statusCode).toBe(401);
    expect((await get('/api/offline-model/v0-old/model.onnx')).statusCode).toBe(404);
    expect((await get('/api/offline-model/..%2F..%2Fetc/model.onnx')).statusCode).toBe(400);
  });

  it('follows the active version: a model without an int8 copy is offered as its float file', async () => {
    // A version with no offline.json (as a retrained one before model:offline): the served graph under a new name.
    const older = path.join(t.dataDir, 'models', 'v2-float-only');
    fs.mkdirSync(older, { recursive: true });
    fs.copyFileSync(path.join(committedDir, 'model.onnx'), path.join(older, 'model.onnx'));
    const card = JSON.parse(fs.readFileSync(path.join(committedDir, 'model.json'), 'utf8'));
    fs.writeFileSync(path.join(older, 'model.json'), JSON.stringify({ ...card, version: 'v2-float-only' }));
    await t.deps.classifier.replace(await loadClassifier(older));
    const info = (await get(INFO)).json();
    expect(info).toMatchObject({
      version: 'v2-float-only',
      quantised: false,
      bytes: fs.statSync(path.join(older, 'model.onnx')).size,
    });
    const file = await get(info.file_url);
    expect(file.rawPayload.equals(fs.readFileSync(path.join(older, 'model.onnx')))).toBe(true);
    expect((await get(`/api/offline-model/${path.basename(committedDir)}/model.onnx`)).statusCode).toBe(404);
  });
});
