ALTER TABLE "analyses" ADD COLUMN "leaf_score" real;--> statement-breakpoint
ALTER TABLE "education_resources" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE INDEX "education_resources_class_position_idx" ON "education_resources" USING btree ("rust_class","position");