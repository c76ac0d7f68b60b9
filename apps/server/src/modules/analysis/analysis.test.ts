import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rustClasses, analysisApi, api } from '@kutu/contract';
import { analyses, notifications } from '../../db/schema/index.ts';
import { committedClassifier, createTestApp, type TestContext } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';
import { DECODE_LIMITS } from '../../lib/decode-limiter.ts';
import { createClassifierHolder, type Classifier } from '../../adapters/classifier.ts';
import { bigLeafJpeg, fixture, multipart, type FilePart } from '../../../test/support/photos.ts';

const DETECT = analysisApi.detect;
const testModel = (): Promise<Classifier> => committedClassifier();

describe('rust detection', () => {
  let t: TestContext;
  let farmer: TestUser;
  let otherFarmer: TestUser;
  let expert: TestUser;
  let modelVersion: string;

  beforeAll(async () => {
    const model = await testModel();
    modelVersion = model.version;
    t = await createTestApp({ classifier: createClassifierHolder(model) });
    farmer = await createUser(t, 'farmer');
    otherFarmer = await createUser(t, 'farmer');
    expert = await createUser(t, 'expert');
  });
  afterAll(() => t.close());

  const upload = (user: TestUser | null, files: FilePart[], fields?: Record<string, string>) => {
    const form = multipart(files, fields);
    return t.app.inject({
      method: 'POST',
      url: DETECT,
      payload: form.payload,
      headers: { ...form.headers, ...(user?.headers ?? {}) },
    });
  };
  const leaf = (name = 'maize-common-rust.jpg'): FilePart => ({ filename: name, data: fixture(name) });
  const countAnalyses = async (user: TestUser) =>
    (await t.deps.database.db.select().from(analyses).where(eq(analyses.userId, user.id))).length;

  it('analyses a leaf photo: class, confidence, advice, resources, model version, stored photo', async () => {
    const res = await upload(farmer, [leaf()]);
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      id: expect.any(Number),
      outcome: 'diagnosis',
      model_version: modelVersion,
      image_url: analysisApi.imagePath(body.id),
    });
    expect(rustClasses).toContain(body.rust_class);
    expect(body.confidence).toBeGreaterThanOrEqual(0);
    expect(body.confidence).toBeLessThanOrEqual(1);
    expect(typeof body.unsure).toBe('boolean');
    expect(Object.keys(body.probabilities).sort()).toEqual([...rustClasses].sort());
    expect(body.feedback.finding.key).toMatch(/^analysis\.result\.heading\./);
    expect(body.feedback.advice.length).toBeGreaterThan(1);
    expect(body.educational_resources.length).toBeGreaterThan(2);
    for (const r of body.educational_resources) {
      expect(Object.keys(r).sort()).toEqual(['description', 'link_language', 'title', 'url']);
      expect(r.url).toMatch(/^https?:\/\//);
    }
    expect(new Date(body.created_at).getTime()).toBe(t.clock.now().getTime());

    const [row] = await t.deps.database.db.select().from(analyses).where(eq(analyses.id, body.id));
    expect(row).toMatchObject({ userId: farmer.id, modelVersion, outcome: 'diagnosis', rustClass: body.rust_class });
    const photo = await t.app.inject({ method: 'GET', url: body.image_url, headers: farmer.headers });
    expect(photo.statusCode).toBe(200);
    expect(photo.headers['content-type']).toBe('image/jpeg');
    expect(photo.rawPayload.equals(fixture('maize-common-rust.jpg'))).toBe(true);
  });

  it('stores an image_analysis notification for the farmer', async () => {
    const res = await upload(farmer, [leaf('bean-rust.jpg')]);
    expect(res.statusCode).toBe(201);
    const id = res.json().id;
    const rows = await t.deps.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, farmer.id), eq(notifications.type, 'image_analysis')));
    const mine = rows.find((n) => (n.data as { analysis_id?: number }).analysis_id === id);
    expect(mine?.message).toMatch(/^Image analysis done: /);
  });

  it('accepts PNG photos and strips camera metadata (GPS) from what it keeps', async () => {
    const png = await sharp(fixture('maize-healthy.jpg')).png().toBuffer();
    const pngRes = await upload(farmer, [{ filename: 'leaf.png', contentType: 'image/png', data: png }]);
    expect(pngRes.statusCode, pngRes.body).toBe(201);
    const kept = await t.app.inject({ method: 'GET', url: pngRes.json().image_url, headers: farmer.headers });
    expect(kept.headers['content-type']).toBe('image/png');

    const withExif = await sharp(fixture('maize-healthy.jpg'))
      .withExif({
        IFD0: { Make: 'PhoneMaker', Model: 'X1' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '0/1 20/1 0/1' },
      })
      .jpeg()
      .toBuffer();
    expect((await sharp(withExif).metadata()).exif).toBeDefined();
    const res = await upload(farmer, [{ filename: 'phone.jpg', data: withExif }]);
    expect(res.statusCode).toBe(201);
    const stored = await t.app.inject({ method: 'GET', url: res.json().image_url, headers: farmer.headers });
    const meta = await sharp(stored.rawPayload).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.width).toBe(256);
  });

  describe('refuses bad uploads with a clear message and stores nothing', () => {
    let before = 0;
    beforeAll(async () => {
      before = await countAnalyses(farmer);
    });
    afterAll(async () => {
      expect(await countAnalyses(farmer)).toBe(before);
    });

    const cases: [string, FilePart[], number, string][] = [
      [
        'a text file renamed to .jpg',
        [{ filename: 'notes.jpg', data: fixture('text-renamed.jpg') }],
        415,
        'File type not supported',
      ],
      [
        'a GIF',
        [{ filename: 'leaf.gif', contentType: 'image/gif', data: fixture('leaf.gif') }],
        415,
        'File type not supported',
      ],
      [
        'an SVG',
        [{ filename: 'd.svg', contentType: 'image/svg+xml', data: fixture('drawing.svg') }],
        415,
        'File type not supported',
      ],
      [
        'a truncated JPEG',
        [{ filename: 'half.jpg', data: fixture('truncated.jpg') }],
        400,
        'The image is damaged or incomplete',
      ],
      [
        'a PNG that claims 50000×50000 pixels',
        [{ filename: 'bomb.png', contentType: 'image/png', data: fixture('huge-dimensions.png') }],
        413,
        'The image is too large: 50000×50000 pixels (at most 25 megapixels)',
      ],
      [
        'a JPEG that claims 60000×60000 pixels',
        [{ filename: 'bomb.jpg', data: fixture('huge-dimensions.jpg') }],
        413,
        'The image is too large: 60000×60000 pixels (at most 25 megapixels)',
      ],
      [
        'two photos',
        [
          { filename: 'a.jpg', data: fixture('maize-common-rust.jpg') },
          { filename: 'b.jpg', data: fixture('maize-healthy.jpg') },
        ],
        400,
        'You can only upload one image at a time',
      ],
      ['no photo', [], 400, 'Please upload an image to process.'],
      ['an empty file', [{ filename: 'empty.jpg', data: Buffer.alloc(0) }], 400, 'Please upload an image to process.'],
    ];
    for (const [what, files, status, message] of cases) {
      it(what, async () => {
        const res = await upload(farmer, files);
        expect(res.statusCode, res.body).toBe(status);
        expect(res.json()).toMatchObject({ error: { message } });
      });
    }

    it('three photos', async () => {
      const res = await upload(farmer, [leaf(), leaf(), leaf()]);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe('You can only upload one image at a time');
    });

    it('a file over 5 MB', async () => {
      const big = Buffer.concat([fixture('maize-common-rust.jpg'), Buffer.alloc(5 * 1024 * 1024)]);
      const res = await upload(farmer, [{ filename: 'big.jpg', data: big }]);
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({ error: { code: 'PAYLOAD_TOO_LARGE', message: 'File too big (max: 5 MB)' } });
    });

    it('a photo in the wrong form field', async () => {
      const res = await upload(farmer, [{ field: 'file', filename: 'a.jpg', data: fixture('maize-common-rust.jpg') }]);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({
        message: 'Please upload an image to process.',
        fields: { image: 'Send the image in the field "image", not "file"' },
      });
    });

    it('a JSON body instead of a form', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: DETECT,
        headers: farmer.headers,
        payload: { image: 'abc' },
      });
      expect(res.statusCode).toBe(415);
      expect(res.json().error.message).toBe('Send the image as multipart/form-data in the field "image"');
    });

    it('an expert (only farmers analyse photos) and a signed-out caller', async () => {
      const asExpert = await upload(expert, [leaf()]);
      expect(asExpert.statusCode).toBe(403);
      expect(asExpert.json().error).toEqual({ code: 'FORBIDDEN', message: 'Only farmers can do this' });
      expect((await upload(null, [leaf()])).statusCode).toBe(401);
    });
  });

  describe('photos without a leaf', () => {
    it('a solid-colour image gets "no leaf found", never a crop label', async () => {
      const wall = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#b8a48c' } })
        .jpeg()
        .toBuffer();
      const res = await upload(farmer, [{ filename: 'wall.jpg', data: wall }]);
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(body).toMatchObject({ outcome: 'not_leaf', rust_class: null, unsure: false });
      expect(body.feedback.finding).toEqual({ key: 'analysis.result.heading.not_leaf' });
      expect(body.feedback.advice.join(' ')).toContain('one leaf in daylight so that it fills the picture');
      expect(body.educational_resources.length).toBeGreaterThan(0);
      expect(body.educational_resources.every((r: { url: string }) => !r.url.includes('maizedoctor'))).toBe(true);
    });

    const nonleafDir = path.resolve(import.meta.dirname, '../../../../../packages/vision/test/fixtures/nonleaf');
    const nonleaf = fs.existsSync(nonleafDir)
      ? fs.readdirSync(nonleafDir).filter((f) => /\.(jpe?g|png)$/i.test(f))
      : [];
    it('gives no confident crop diagnosis to the committed non-leaf photos (faces, vehicles, documents, walls)', async () => {
      expect(nonleaf.length).toBeGreaterThanOrEqual(10);
      const confident: string[] = [];
      for (const name of nonleaf) {
        const data = fs.readFileSync(path.join(nonleafDir, name));
        const res = await upload(farmer, [{ filename: name, contentType: 'image/jpeg', data }]);
        expect(res.statusCode, res.body).toBe(201);
        const body = res.json();
        if (body.outcome === 'diagnosis' && !body.unsure) confident.push(`${name}: ${body.rust_class}`);
        if (body.outcome === 'not_leaf') expect(body.rust_class).toBeNull();
      }
      // The model card reports the one known miss (an orange cat); more than that is a regression.
      expect(confident.length, confident.join(', ')).toBeLessThanOrEqual(Math.floor(nonleaf.length * 0.1));
    });
  });

  describe('history', () => {
    it("lists only the caller's analyses, newest first, in pages", async () => {
      const other = await createUser(t, 'farmer');
      const ids: number[] = [];
      for (const name of ['maize-common-rust.jpg', 'maize-healthy.jpg', 'bean-rust.jpg']) {
        t.clock.advance(60_000);
        ids.push((await upload(other, [leaf(name)])).json().id);
      }
      const page1 = await t.app.inject({ method: 'GET', url: `${DETECT}?page=1&page_size=2`, headers: other.headers });
      expect(page1.statusCode).toBe(200);
      expect(page1.json()).toMatchObject({ count: 3, next: 2, previous: null });
      expect(page1.json().results.map((r: { id: number }) => r.id)).toEqual([ids[2], ids[1]]);
      const page2 = await t.app.inject({ method: 'GET', url: `${DETECT}?page=2&page_size=2`, headers: other.headers });
      expect(page2.json()).toMatchObject({ count: 3, next: null, previous: 1 });
      expect(page2.json().results.map((r: { id: number }) => r.id)).toEqual([ids[0]]);
      expect(page2.json().results[0].educational_resources.length).toBeGreaterThan(0);

      const one = await t.app.inject({ method: 'GET', url: `${DETECT}${ids[1]}/`, headers: other.headers });
      expect(one.statusCode).toBe(200);
      expect(one.json()).toMatchObject({ id: ids[1], model_version: modelVersion });

      const none = await t.app.inject({ method: 'GET', url: DETECT, headers: otherFarmer.headers });
      expect(none.json()).toEqual({ count: 0, next: null, previous: null, results: [] });
    });

    it("another farmer gets 404 for someone else's analysis and photo; experts may see the photo only", async () => {
      const id = (await upload(farmer, [leaf()])).json().id;
      for (const url of [`${DETECT}${id}/`, `${DETECT}${id}/image/`]) {
        const res = await t.app.inject({ method: 'GET', url, headers: otherFarmer.headers });
        expect(res.statusCode).toBe(404);
        expect(res.json().error).toEqual({ code: 'NOT_FOUND', message: 'Analysis not found' });
      }
      expect((await t.app.inject({ method: 'GET', url: `${DETECT}${id}/`, headers: expert.headers })).statusCode).toBe(
        404,
      );
      const photo = await t.app.inject({ method: 'GET', url: `${DETECT}${id}/image/`, headers: expert.headers });
      expect(photo.statusCode).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: `${DETECT}${id}/` })).statusCode).toBe(401);
      expect((await t.app.inject({ method: 'GET', url: `${DETECT}999999/`, headers: farmer.headers })).statusCode).toBe(
        404,
      );
      expect((await t.app.inject({ method: 'GET', url: `${DETECT}abc/`, headers: farmer.headers })).statusCode).toBe(
        400,
      );
    });

    it('shows the resources in use now: a retired resource leaves past results too', async () => {
      const res = (await upload(farmer, [leaf()])).json();
      const first = res.educational_resources[0];
      const list = await t.app.inject({
        method: 'GET',
        url: `${analysisApi.resources}?page_size=200`,
        headers: expert.headers,
      });
      const resource = list.json().results.find((r: { url: string }) => r.url === first.url);
      const del = await t.app.inject({
        method: 'DELETE',
        url: analysisApi.resourcePath(resource.id),
        headers: expert.headers,
      });
      expect(del.statusCode).toBe(204);
      const again = await t.app.inject({ method: 'GET', url: `${DETECT}${res.id}/`, headers: farmer.headers });
      expect(again.json().educational_resources.map((r: { url: string }) => r.url)).not.toContain(first.url);
    });
  });
});

describe('rust detection under load', () => {
  it('keeps answering other requests while several analyses run', async () => {
    const t = await createTestApp({ classifier: createClassifierHolder(await testModel()) });
    try {
      const farmer = await createUser(t, 'farmer');
      const photo = await bigLeafJpeg(2000, 1500);
      const form = multipart([{ filename: 'big.jpg', data: photo }]);
      let analysesDone = 0;
      const analysesRunning = Array.from({ length: 4 }, () =>
        t.app
          .inject({
            method: 'POST',
            url: DETECT,
            payload: form.payload,
            headers: { ...form.headers, ...farmer.headers },
          })
          .then((res) => {
            analysesDone += 1;
            return res.statusCode;
          }),
      );
      const healthWhileBusy: number[] = [];
      const started = performance.now();
      while (analysesDone < 4 && performance.now() - started < 20_000) {
        const res = await t.app.inject({ method: 'GET', url: api.health });
        if (analysesDone < 4) healthWhileBusy.push(res.statusCode);
        await new Promise((r) => setTimeout(r, 5));
      }
      expect(await Promise.all(analysesRunning)).toEqual([201, 201, 201, 201]);
      expect(healthWhileBusy.length).toBeGreaterThan(0);
      expect(healthWhileBusy.every((s) => s === 200)).toBe(true);
    } finally {
      await t.close();
    }
  });

  it('answers 503 when the queue is full, then serves the queued analyses', async () => {
    const model = await testModel();
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let entered = 0;
    // The real model behind a gate, so the test decides when the running analyses finish.
    const held: Classifier = {
      version: model.version,
      card: model.card,
      async classify(image) {
        entered += 1;
        await gate;
        return model.classify(image);
      },
      close: () => model.close(),
    };
    const t = await createTestApp({ classifier: createClassifierHolder(held) });
    try {
      const form = multipart([{ filename: 'leaf.jpg', data: fixture('maize-common-rust.jpg') }]);
      const send = (farmer: TestUser) =>
        t.app.inject({
          method: 'POST',
          url: DETECT,
          payload: form.payload,
          headers: { ...form.headers, ...farmer.headers },
        });
      // One farmer each: a single farmer may hold only a share of the queue.
      const capacity = DECODE_LIMITS.concurrency + DECODE_LIMITS.maxQueued;
      const farmers = await Promise.all(Array.from({ length: capacity + 1 }, () => createUser(t, 'farmer')));
      const admitted = farmers.slice(0, capacity).map(send);
      const deadline = Date.now() + 10_000;
      while (entered < DECODE_LIMITS.concurrency && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      // Let the queued uploads be read and queued.
      await new Promise((r) => setTimeout(r, 300));
      const refused = await send(farmers[capacity]);
      expect(refused.statusCode).toBe(503);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.json()).toEqual({
        error: { code: 'SERVICE_UNAVAILABLE', message: 'The analysis service is busy, please try again in a moment' },
      });
      expect((await t.app.inject({ method: 'GET', url: api.health })).statusCode).toBe(200);
      release();
      const codes = (await Promise.all(admitted)).map((r) => r.statusCode);
      expect(codes).toEqual(Array(capacity).fill(201));
      expect(entered).toBe(capacity);
    } finally {
      await t.close();
    }
  });
});
