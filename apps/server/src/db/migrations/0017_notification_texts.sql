-- Notifications keep their text as a catalog key and values, rendered in each reader's language when
-- read (issue 37). Older ones keep the text they were written in; those without values (the same
-- sentence whatever language it was written in) get their key.
ALTER TABLE "notifications" ADD COLUMN "text" jsonb;
--> statement-breakpoint
UPDATE "notifications" SET "text" = '{"key":"notifications.moderationPending"}'::jsonb WHERE "text" IS NULL AND "message" IN ('New posts or comments wait for moderation', 'Machapisho au maoni mapya yanasubiri ukaguzi', 'Obubaka oba endowooza empya birindiridde okukeberwa');
--> statement-breakpoint
UPDATE "notifications" SET "text" = '{"key":"notifications.analysisNoLeaf"}'::jsonb WHERE "text" IS NULL AND "message" IN ('Image analysis done: no leaf was found in your photo.', 'Uchunguzi wa picha umekamilika: hakuna jani lililopatikana kwenye picha yako.', 'Okukebera ekifaananyi kuwedde: tewali kikoola kizuuliddwa mu kifaananyi kyo.');
