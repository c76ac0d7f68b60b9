import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privacyApi } from '@kutu/contract';
import {
  analyses,
  availabilitySlots,
  bookings,
  clinicVisits,
  deliveries,
  expertReviews,
  notifications,
  officerActions,
} from '../../db/schema/index.ts';
import { createTestApp, type TestContext } from '../../../test/support/app.ts';
import { post } from '../../../test/support/auth-flow.ts';
import { createUser } from '../../../test/support/users.ts';
import { dumpDatabase } from '../backup/backup.service.ts';

/** The files of a folder (recursively) that hold any of `needles`, with which. */
function filesHolding(dir: string, needles: string[]): string[] {
  const hits: string[] = [];
  for (const d of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!d.isFile()) continue;
    const bytes = fs.readFileSync(path.join(d.parentPath, d.name));
    for (const n of needles)
      if (bytes.includes(n)) hits.push(`${path.relative(dir, path.join(d.parentPath, d.name))}: ${n}`);
  }
  return hits;
}

// The embedded database as the server keeps it (a data directory), whichever database the other tests use.
describe('an erasure leaves nothing of the person in the embedded database files', { timeout: 60_000 }, () => {
  let t: TestContext;
  let work: string;
  beforeAll(async () => {
    t = await createTestApp({ pgliteOnDisk: true });
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-erasure-files-'));
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('finds neither her number, nor her email, nor her username in the data directory or a backup taken after', async () => {
    const db = t.deps.database.db;
    const zawadi = await createUser(t, 'farmer', { username: 'zawadi_byteprobe', phone: '+256779024681' });
    const expert = await createUser(t, 'expert');
    const officer = await createUser(t, 'officer');
    const needles = [zawadi.phone, zawadi.email, zawadi.username];
    const [analysis] = await db
      .insert(analyses)
      .values({
        userId: zawadi.id,
        imagePath: 'analyses/probe.jpg',
        outcome: 'diagnosis',
        confidence: 0.9,
        probabilities: { common_rust: 0.9 },
        modelVersion: 'v1',
      })
      .returning();
    await db.insert(expertReviews).values({
      analysisId: analysis.id,
      question: `zawadi_byteprobe asks, call ${zawadi.phone}`,
      reviewerId: expert.id,
      verdict: 'common_rust',
      note: 'Spray now',
    });
    const [slot] = await db
      .insert(availabilitySlots)
      .values({ expertId: expert.id, startTime: new Date('2020-01-01T08:00Z'), endTime: new Date('2020-01-01T09:00Z') })
      .returning();
    await db
      .insert(bookings)
      .values({ slotId: slot.id, farmerId: zawadi.id, topic: `zawadi_byteprobe ${zawadi.phone}` });
    await db.insert(clinicVisits).values({
      expertId: expert.id,
      farmerId: zawadi.id,
      crop: 'maize',
      growthStage: 'vegetative',
      shareAffected: 20,
      symptoms: `seen with zawadi_byteprobe (${zawadi.email})`,
      analysisIds: [analysis.id],
      createdAt: new Date(),
    });
    await db.insert(officerActions).values({
      officerId: officer.id,
      farmerId: zawadi.id,
      district: 'UG-208',
      kind: 'called',
      note: `Called ${zawadi.phone}`,
      createdAt: new Date(),
    });
    await db.insert(notifications).values({
      userId: expert.id,
      type: 'booking',
      message: `zawadi_byteprobe booked your slot (${zawadi.phone})`,
    });
    await db.insert(deliveries).values({
      key: 'probe-sms',
      userId: expert.id,
      channel: 'sms',
      kind: 'service',
      body: { key: 'consultations.reminder.smsToExpert', params: { farmer: 'zawadi_byteprobe', phone: zawadi.phone } },
      nextAt: new Date(),
      createdAt: new Date(),
    });
    await t.deps.database.execute('checkpoint');
    const dbDir = path.join(t.dataDir, 'db');
    // The probe is there before: otherwise the search below would prove nothing.
    expect(filesHolding(dbDir, needles).length).toBeGreaterThan(0);

    const started = performance.now();
    const res = await post(t, privacyApi.deleteAccount, { password: zawadi.password }, zawadi.headers);
    const ms = performance.now() - started;
    expect(res.statusCode, res.body).toBe(200);
    console.log(`erasure with the data directory rewritten: ${ms.toFixed(0)} ms`);

    expect(filesHolding(dbDir, needles)).toEqual([]);
    const dump = path.join(work, 'db.tar.gz');
    await dumpDatabase(t.deps.database, dump, async () => null);
    const unpacked = path.join(work, 'dump');
    fs.mkdirSync(unpacked);
    fs.writeFileSync(path.join(unpacked, 'db.tar'), gunzipSync(fs.readFileSync(dump)));
    expect(filesHolding(unpacked, needles)).toEqual([]);
  });
});
