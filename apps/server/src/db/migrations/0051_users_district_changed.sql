ALTER TABLE "users" ADD COLUMN "district_before" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "district_changed_at" timestamp with time zone;