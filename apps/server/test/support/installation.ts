import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { expect } from 'vitest';
import { analysisApi, consultationsApi, reviewApi } from '@kutu/contract';
import type { Database } from '../../src/db/client.ts';
import type { FileStorage } from '../../src/adapters/storage.ts';
import { modelVersions } from '../../src/db/schema/index.ts';
import type { TestContext } from './app.ts';
import { createUser } from './users.ts';
import { fixture, multipart } from './photos.ts';

/**
 * Fills a test installation as people would: a farmer's analysis (photo and heatmap), an expert's
 * verdict, a consultation booked and approved, the messages these send (outbox rows) and a retrained
 * model version with its files in DATA_DIR/models and in storage.
 */
export async function populateInstallation(t: TestContext) {
  t.clock.set(new Date('2027-03-01T06:00:00Z'));
  const farmer = await createUser(t, 'farmer');
  const expert = await createUser(t, 'expert');
  const send = (method: 'POST' | 'PUT', url: string, who: typeof farmer, payload: object) =>
    t.app.inject({ method, url, headers: who.headers, payload });
  const form = multipart([{ filename: 'leaf.jpg', data: fixture('maize-common-rust.jpg') }], { crop: 'maize' });
  const analysis = await t.app.inject({
    method: 'POST',
    url: analysisApi.detect,
    payload: form.payload,
    headers: { ...form.headers, ...farmer.headers },
  });
  expect(analysis.statusCode, analysis.body).toBe(201);
  const verdict = await send('PUT', reviewApi.reviewPath(analysis.json().id), expert, {
    verdict: 'common_rust',
    note: 'Orange pustules: spray now.',
  });
  expect(verdict.statusCode, verdict.body).toBe(200);
  const slot = await send('POST', consultationsApi.slots, expert, {
    start_time: '2027-03-03 10:00',
    end_time: '2027-03-03 11:00',
    mode: 'farm_visit',
    place: 'Nakaseke',
  });
  expect(slot.statusCode, slot.body).toBe(201);
  const booking = await send('POST', consultationsApi.bookings, farmer, { slot_id: slot.json().id, topic: 'Rust' });
  expect(booking.statusCode, booking.body).toBe(201);
  const approved = await send('PUT', consultationsApi.manageBookings, expert, {
    booking_id: booking.json().id,
    action: 'approve',
    selected_date: slot.json().start_time,
  });
  expect(approved.statusCode, approved.body).toBe(200);
  const version = `drill-${randomUUID().slice(0, 8)}`;
  const modelDir = path.join(t.dataDir, 'models', version);
  fs.mkdirSync(modelDir, { recursive: true });
  fs.writeFileSync(path.join(modelDir, 'model.onnx'), Buffer.from(`weights of ${version}`));
  await t.deps.storage.putKey(
    `models/${version}/model.onnx`,
    Buffer.from(`weights of ${version}`),
    'application/octet-stream',
  );
  await t.deps.database.db.insert(modelVersions).values({ version, path: modelDir, metrics: { accuracy: 0.9 } });
  return { farmer, expert, version };
}

/** Every row of every table (as text, sorted) and every sequence's position, per table. */
export async function everyRow(database: Database): Promise<Record<string, string[]>> {
  const tables = await database.execute(
    `select table_schema as s, table_name as t from information_schema.tables
     where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema') order by 1, 2`,
  );
  const out: Record<string, string[]> = {};
  for (const { s, t } of tables.rows as { s: string; t: string }[]) {
    const rows = await database.execute(`select x::text as r from "${s}"."${t}" x order by 1`);
    out[`${s}.${t}`] = rows.rows.map((r) => String(r.r));
  }
  const seqs = await database.execute(
    `select schemaname || '.' || sequencename as name, last_value::text as v from pg_sequences order by 1`,
  );
  out['(sequences)'] = seqs.rows.map((r) => `${r.name}=${r.v}`);
  return out;
}

/** Every stored object's SHA-256, by key. */
export async function storedChecksums(storage: FileStorage): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const { key } of await storage.list('')) {
    out[key] = createHash('sha256')
      .update(await storage.get(key))
      .digest('hex');
  }
  return out;
}

/** A new, empty database on TEST_DATABASE_URL's server (the target of a PostgreSQL restore). */
export async function emptyPostgresDatabase(serverUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `kutu_restore_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      const a = new pg.Client({ connectionString: serverUrl });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`).catch(() => {});
      await a.end();
    },
  };
}
