ALTER TABLE "model_versions" ADD COLUMN "job_id" integer;--> statement-breakpoint
ALTER TABLE "training_jobs" ADD COLUMN "progress" jsonb;--> statement-breakpoint
ALTER TABLE "training_jobs" ADD COLUMN "sample_count" integer;--> statement-breakpoint
ALTER TABLE "training_jobs" ADD COLUMN "result" jsonb;--> statement-breakpoint
ALTER TABLE "training_jobs" ADD COLUMN "queue_job_id" text;--> statement-breakpoint
ALTER TABLE "training_jobs" ADD COLUMN "heartbeat_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "training_samples" ADD COLUMN "sha256" text;--> statement-breakpoint
CREATE UNIQUE INDEX "training_jobs_one_active_idx" ON "training_jobs" USING btree ((true)) WHERE status in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "training_jobs_created_idx" ON "training_jobs" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "training_samples_label_idx" ON "training_samples" USING btree ("label","id") WHERE removed_at is null;--> statement-breakpoint
CREATE INDEX "training_samples_created_idx" ON "training_samples" USING btree ("created_at");