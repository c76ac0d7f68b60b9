import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { packTar, type TarEntry } from 'modern-tar';
import type { FileStorage } from '../../adapters/storage.ts';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../lib/errors.ts';
import { createExportRepo, type PersonData } from './export.repo.ts';

const README = `Kutu: everything Kutu holds about you

profile.json         your account and profile (no password: only its hash is kept, and not shown here),
                     and your applications as an expert or extension officer with their decisions
consents.json        what you agreed to, when, where and to which text version
analyses.json        your photos' diagnoses, the photos of each, the experts' verdicts
fields.json          your fields and your scouting walks of them, with the advice each walk got
photos/              the photos and heatmaps themselves
posts.json           your community posts and comments (a moderator: the decisions you took)
bookings.json        your consultation bookings (an expert: your weekly availability and your slots)
clinic-visits.json   plant clinic visits made for you
messages.json        notifications, SMS and emails addressed to you
other.json           follow-up reminders, call-back requests, training samples made from your photos,
                     extension officers' notes about you (and an officer's own notes)
voice.json           the voice recordings you made of Kutu's texts (experts and administrators)
voice/               the recordings themselves (MP3)

Ask Kutu to correct anything here from your profile, or delete your account there.
`;

/** Files of the archive: a person's photos and heatmaps under photos/, their voice recordings under voice/. */
function archiveFiles(data: Pick<PersonData, 'analyses' | 'analysisPhotos' | 'posts' | 'voiceClips'>) {
  return [
    ...photoKeys(data).map((key) => ({ key, folder: 'photos' })),
    ...data.voiceClips.map((c) => ({ key: c.audioPath, folder: 'voice' })),
  ];
}

/** The storage keys of a person's photos and heatmaps: each goes into the archive under photos/. */
export function photoKeys(data: Pick<PersonData, 'analyses' | 'analysisPhotos' | 'posts'>): string[] {
  const keys = [
    ...data.analyses.flatMap((a) => [a.imagePath, a.heatmapPath]),
    ...data.analysisPhotos.flatMap((p) => [p.imagePath, p.heatmapPath]),
    ...data.posts.map((p) => p.imagePath),
  ];
  return [...new Set(keys.filter((k): k is string => Boolean(k)))];
}

const json = (name: string, value: unknown): TarEntry => {
  const body = new TextEncoder().encode(`${JSON.stringify(value, null, 2)}\n`);
  return { header: { name: `kutu-my-data/${name}`, size: body.byteLength, mode: 0o644 }, body };
};

/**
 * "My data": one .tar.gz with every record of the person and the bytes of their photos (a photo gone
 * from storage is listed in missing-photos.json rather than failing the whole archive).
 */
export function createExportService(deps: { db: Db; storage: FileStorage; clock: { now(): Date } }) {
  const repo = createExportRepo(deps.db);
  return {
    async archive(userId: number): Promise<{ bytes: Buffer; filename: string }> {
      const data = await repo.gather(userId);
      if (!data) throw notFound('errors.session.invalid');
      const now = deps.clock.now();
      const entries: TarEntry[] = [
        { header: { name: 'kutu-my-data/README.txt', size: Buffer.byteLength(README), mode: 0o644 }, body: README },
        json('profile.json', { exported_at: now.toISOString(), ...data.profile }),
        json('consents.json', data.consents),
        json('analyses.json', { analyses: data.analyses, photos: data.analysisPhotos, verdicts: data.verdicts }),
        json('fields.json', { fields: data.fields, walks: data.walks }),
        json('posts.json', {
          posts: data.posts,
          comments: data.comments,
          replies_by_others: data.repliesOnMyPosts,
          moderation_done: data.moderationDone,
        }),
        json('bookings.json', { bookings: data.bookings, availability: data.availability, slots: data.slots }),
        json('clinic-visits.json', data.clinicVisitsAsFarmer),
        json('messages.json', { notifications: data.notifications, outbox: data.messages }),
        json('other.json', {
          follow_ups: data.followUps,
          callback_requests: data.callbackRequests,
          training_samples_from_my_photos: data.trainingSamplesFromMyPhotos,
          officer_notes_about_me: data.officerNotesAboutMe,
          officer_notes_written: data.officerNotesWritten,
        }),
        json('voice.json', data.voiceClips),
      ];
      const missing: string[] = [];
      for (const { key, folder } of archiveFiles(data)) {
        try {
          const bytes = await deps.storage.get(key);
          entries.push({
            header: { name: `kutu-my-data/${folder}/${key.split('/').join('_')}`, size: bytes.byteLength, mode: 0o644 },
            body: new Uint8Array(bytes),
          });
        } catch {
          missing.push(path.basename(key));
        }
      }
      if (missing.length > 0) entries.push(json('missing-photos.json', missing));
      const tar = await packTar(entries);
      return { bytes: gzipSync(tar), filename: `kutu-my-data-${now.toISOString().slice(0, 10)}.tar.gz` };
    },
  };
}
