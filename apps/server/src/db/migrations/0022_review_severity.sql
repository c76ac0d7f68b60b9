ALTER TABLE "analyses" ADD COLUMN "rust_share" real;--> statement-breakpoint
ALTER TABLE "analysis_photos" ADD COLUMN "rust_share" real;--> statement-breakpoint
ALTER TABLE "expert_reviews" ADD COLUMN "severity" text;