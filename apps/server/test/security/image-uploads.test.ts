import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Classifier } from '@kutu/vision';
import { DECODE_LIMITS } from '../../src/lib/decode-limiter.ts';
import { createClassifierHolder } from '../../src/adapters/classifier.ts';
import { fixture, uploadPhoto } from '../support/photos.ts';
import { committedClassifier, createTestApp, type TestContext } from '../support/app.ts';
import { createUser } from '../support/users.ts';
import { analysisApi, trainingApi, communityApi } from '@kutu/contract';

const DETECT = analysisApi.detect;

/** A leaf photo as a phone writes it: camera make and model, and a GPS position. */
async function phoneJpeg(): Promise<Buffer> {
  return sharp(fixture('maize-common-rust.jpg'))
    .withExif({
      IFD0: { Make: 'KutuTestCam', Model: 'Field Phone 7' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '0/1 20/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '32/1 35/1 0/1' },
    })
    .jpeg()
    .toBuffer();
}

describe('image uploads', () => {
  let t: TestContext;
  let classified = 0;

  beforeAll(async () => {
    const model = await committedClassifier();
    const counting: Classifier = {
      ...model,
      classify: (image) => {
        classified += 1;
        return model.classify(image);
      },
    };
    t = await createTestApp({ classifier: createClassifierHolder(counting) });
  });
  afterAll(() => t.close());

  // One farmer's 30 uploads once filled the queue; others waited or got 503 without Retry-After.
  it('lets another farmer through while one floods, and tells the flooder when to retry', async () => {
    const [flooder, other] = [await createUser(t, 'farmer'), await createUser(t, 'farmer')];
    const photo = fixture('maize-common-rust.jpg');
    const flood = Array.from({ length: 30 }, () => uploadPhoto(t, flooder, DETECT, photo));
    await new Promise((r) => setTimeout(r, 300));
    const mine = await uploadPhoto(t, other, DETECT, photo);
    expect(mine.statusCode, mine.body).toBe(201);
    const results = await Promise.all(flood);
    const codes = results.map((r) => r.statusCode);
    expect(
      codes.every((c) => c === 201 || c === 429),
      codes.join(),
    ).toBe(true);
    expect(codes.filter((c) => c === 201).length).toBeGreaterThanOrEqual(DECODE_LIMITS.perUser);
    const refused = results.filter((r) => r.statusCode === 429);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) {
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
      expect(r.json().error).toEqual({
        code: 'RATE_LIMITED',
        message: 'Your earlier photos are still being checked. Please wait for them to finish, then send more.',
      });
    }
  });

  it('refuses a cheap 40-megapixel PNG from its header, before decoding or classifying it', async () => {
    const farmer = await createUser(t, 'farmer');
    const flat = await sharp({ create: { width: 7000, height: 5700, channels: 3, background: '#4a8a3c' } })
      .png()
      .toBuffer();
    expect(flat.length).toBeLessThan(1024 * 1024);
    const before = classified;
    const res = await uploadPhoto(t, farmer, DETECT, flat);
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      message: 'The image is too large: 7000×5700 pixels (at most 25 megapixels)',
    });
    expect(classified).toBe(before);
    // Posts and training uploads share the same check.
    const expert = await createUser(t, 'expert');
    const training = await uploadPhoto(t, expert, trainingApi.upload, flat, { label: 'healthy' });
    expect(training.statusCode).toBe(413);
  });

  // Training uploads once kept EXIF (GPS, camera) and served it to every expert.
  it('stores every photo without its EXIF: analyses, posts and training samples', async () => {
    const phone = await phoneJpeg();
    const exif = (await sharp(phone).metadata()).exif;
    expect(exif?.includes('KutuTestCam')).toBe(true);

    const farmer = await createUser(t, 'farmer');
    const expert = await createUser(t, 'expert');
    const analysis = await uploadPhoto(t, farmer, DETECT, phone);
    expect(analysis.statusCode).toBe(201);
    const post = await uploadPhoto(t, farmer, communityApi.posts, phone, {
      title: 'Orange spots on maize leaves',
      content: 'Small orange pustules appeared on both sides of the leaves this week. What should I spray?',
      crop_type: 'MAIZE',
      disease_type: 'common_rust',
      urgency_level: 'high',
    });
    expect(post.statusCode, post.body).toBe(201);
    const sample = await uploadPhoto(t, expert, trainingApi.upload, phone, { label: 'common_rust' });
    expect(sample.statusCode, sample.body).toBe(201);

    const downloads = [
      analysis.json().image_url as string,
      post.json().image as string,
      sample.json().samples[0].image_url as string,
    ];
    for (const url of downloads) {
      const res = await t.app.inject({ method: 'GET', url, headers: expert.headers });
      expect(res.statusCode, url).toBe(200);
      const meta = await sharp(res.rawPayload).metadata();
      expect(meta.exif, url).toBeUndefined();
      expect(res.rawPayload.includes('KutuTestCam'), url).toBe(false);
      expect({ width: meta.width, height: meta.height }, url).toEqual({ width: 256, height: 256 });
    }
    // And on disk, under every storage prefix.
    for (const dir of ['analyses', 'posts', 'training']) {
      for (const file of fs.readdirSync(path.join(t.dataDir, 'uploads', dir), { recursive: true })) {
        const full = path.join(t.dataDir, 'uploads', dir, String(file));
        if (fs.statSync(full).isFile()) expect(fs.readFileSync(full).includes('KutuTestCam'), full).toBe(false);
      }
    }
  });
});
