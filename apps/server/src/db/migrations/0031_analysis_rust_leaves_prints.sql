ALTER TABLE "analyses" ADD COLUMN "rust_leaves" integer;--> statement-breakpoint
ALTER TABLE "analyses" ADD COLUMN "leaf_print" text;--> statement-breakpoint
ALTER TABLE "analysis_photos" ADD COLUMN "leaf_print" text;