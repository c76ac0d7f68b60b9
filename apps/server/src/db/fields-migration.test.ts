import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t as say } from '../i18n/i18n.ts';
import { type Database, migrationsFolder, openDatabase } from './client.ts';

const files = fs
  .readdirSync(migrationsFolder)
  .filter((f) => f.endsWith('.sql'))
  .sort();
const ours = files.find((f) => f.includes('fields_and_walks')) as string;
const statements = (file: string) =>
  fs
    .readFileSync(path.join(migrationsFolder, file), 'utf8')
    .split('--> statement-breakpoint')
    .map((s) => s.trim())
    .filter(Boolean);

describe('migration fields_and_walks (docs/decisions/0078)', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ pgliteDir: null });
    for (const file of files.filter((f) => f < ours)) {
      for (const statement of statements(file)) await database.execute(statement);
    }
  }, 180_000);
  afterAll(() => database.close());

  const rows = async (sql: string) => (await database.execute(sql)).rows as Record<string, unknown>[];

  it('puts the analyses in one field per farmer and crop, named in their language, and moves reminders and visits', async () => {
    // Before fields: three farmers (English, Kiswahili, Luganda), an expert, photos of each crop and of none.
    await database.execute(
      `insert into users (email, username, role, phone, district, language) values
         ('en@example.com', 'english', 'farmer', '+256772000001', 'UG-208', 'en'),
         ('sw@example.com', 'swahili', 'farmer', '+256772000002', 'UG-219', 'sw'),
         ('lg@example.com', 'luganda', 'farmer', '+256772000003', null, 'lg'),
         ('ex@example.com', 'expert', 'expert', '+256772000004', null, 'en')`,
    );
    const photo = (user: string, crop: string | null, day: number) =>
      `((select id from users where username = '${user}'), 'p.jpg', 'diagnosis', 'common_rust', 0.9,
        '{"common_rust":0.9,"healthy":0.05,"other_disease":0.05}', 'v1', ${crop ? `'${crop}'` : 'null'},
        '2026-10-${String(day).padStart(2, '0')}T08:00:00Z')`;
    await database.execute(
      `insert into analyses (user_id, image_path, outcome, rust_class, confidence, probabilities, model_version, crop, created_at)
       values ${[
         photo('english', 'beans', 1),
         photo('english', 'maize', 2),
         photo('english', 'maize', 3),
         photo('english', null, 4),
         photo('english', 'other', 5),
         photo('swahili', 'maize', 6),
         photo('luganda', 'beans', 7),
       ].join(', ')}`,
    );
    const id = async (user: string, day: number) =>
      Number(
        (
          await rows(
            `select a.id from analyses a join users u on u.id = a.user_id where u.username = '${user}' and a.created_at = '2026-10-${String(day).padStart(2, '0')}T08:00:00Z'`,
          )
        )[0].id,
      );
    // Open reminders of the English farmer: maize, "no crop" and `other` (one field now), and a closed one.
    const remind = (analysisId: number, crop: string, state: string, day: number) =>
      `((select user_id from analyses where id = ${analysisId}), ${analysisId}, '${crop}', now(), '${state}', '2026-10-${String(day).padStart(2, '0')}T09:00:00Z')`;
    const [maize, none, other, swMaize] = [
      await id('english', 3),
      await id('english', 4),
      await id('english', 5),
      await id('swahili', 6),
    ];
    await database.execute(
      `insert into follow_ups (user_id, analysis_id, crop, due_at, state, created_at) values ${[
        remind(maize, 'maize', 'waiting', 3),
        remind(none, '', 'sent', 4),
        remind(other, 'other', 'waiting', 5),
        remind(swMaize, 'maize', 'compared', 6),
      ].join(', ')}`,
    );
    // A plant clinic visit of the Luganda farmer's maize (no maize photo of theirs otherwise).
    await database.execute(
      `insert into clinic_visits (expert_id, farmer_id, crop, growth_stage, share_affected, analysis_ids, created_at)
       values ((select id from users where username = 'expert'), (select id from users where username = 'luganda'),
         'maize', 'vegetative', 10, '{}', '2026-10-08T08:00:00Z')`,
    );

    for (const statement of statements(ours)) await database.execute(statement);

    const made = await rows(
      `select u.username, f.name, f.crop, f.district, f.number from fields f join users u on u.id = f.user_id order by u.username, f.number`,
    );
    expect(made).toEqual([
      { username: 'english', name: 'Beans field', crop: 'beans', district: 'UG-208', number: 1 },
      { username: 'english', name: 'Maize field', crop: 'maize', district: 'UG-208', number: 2 },
      { username: 'english', name: 'My field', crop: 'other', district: 'UG-208', number: 3 },
      { username: 'luganda', name: "Ennimiro y'ebijanjaalo", crop: 'beans', district: null, number: 1 },
      { username: 'luganda', name: 'Ennimiro ya kasooli', crop: 'maize', district: null, number: 2 },
      { username: 'swahili', name: 'Shamba la mahindi', crop: 'maize', district: 'UG-219', number: 1 },
    ]);
    // The names are the ones the server gives a field it makes (the catalogues' fields.defaultName).
    expect(say('en', 'fields.defaultName.other')).toBe('My field');
    expect(say('sw', 'fields.defaultName.maize')).toBe('Shamba la mahindi');
    expect(say('lg', 'fields.defaultName.beans')).toBe("Ennimiro y'ebijanjaalo");
    expect(say('lg', 'fields.defaultName.maize')).toBe('Ennimiro ya kasooli');

    // Every photo is in its farmer's field of its crop (no crop: `other`).
    const misplaced = await rows(
      `select a.id from analyses a left join fields f on f.id = a.field_id
       where f.id is null or f.user_id <> a.user_id or f.crop <> coalesce(a.crop, 'other')`,
    );
    expect(misplaced).toEqual([]);
    // Reminders take their photo's field; of the two open in "My field", the newer stays open.
    const reminders = await rows(
      `select r.analysis_id, r.state, f.name from follow_ups r join fields f on f.id = r.field_id order by r.analysis_id`,
    );
    expect(reminders).toEqual([
      { analysis_id: maize, state: 'waiting', name: 'Maize field' },
      { analysis_id: none, state: 'cancelled', name: 'My field' },
      { analysis_id: other, state: 'waiting', name: 'My field' },
      { analysis_id: swMaize, state: 'compared', name: 'Shamba la mahindi' },
    ]);
    const visits = await rows(`select f.name from clinic_visits v join fields f on f.id = v.field_id`);
    expect(visits).toEqual([{ name: 'Ennimiro ya kasooli' }]);
    // From now on a reminder needs a field, and a field has one open reminder.
    await expect(
      database.execute(
        `insert into follow_ups (user_id, analysis_id, crop, due_at, created_at) values ((select id from users where username = 'english'), ${maize}, 'maize', now(), now())`,
      ),
    ).rejects.toThrow(/field_id/);
  });
});
