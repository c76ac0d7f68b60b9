-- The Kiswahili and Luganda rust advice (seeded by 0012) says "blight" in English for the leaf spots
-- that leave no powder on the finger, on maize, beans and in general. "Ukungu wa majani" is the
-- Kiswahili the same advice already uses for leaf blight; in Luganda it is said as what it does, "the
-- disease that dries the leaves". Named diseases (northern leaf blight, Turcicum leaf blight) stay, as
-- 0020 explains.
UPDATE "advice" SET
  "steps" = replace("steps"::text, 'Madoa ya ugonjwa wa blight na ya bakteria', 'Madoa ya ukungu wa majani na ya bakteria')::jsonb
WHERE "language" = 'sw';
--> statement-breakpoint
UPDATE "advice" SET
  "steps" = replace("steps"::text, 'Obulwadde bwa blight n''obutonnyeze', 'Obulwadde obukaza ebikoola n''obutonnyeze')::jsonb
WHERE "language" = 'lg';
