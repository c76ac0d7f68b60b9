-- A failed job's error becomes a Message (key and values), written in each reader's language; jobs
-- that failed before keep their English text as a JSON string, shown as written (docs/decisions/0022).
ALTER TABLE "training_jobs" ALTER COLUMN "error" SET DATA TYPE jsonb USING to_jsonb("error");
