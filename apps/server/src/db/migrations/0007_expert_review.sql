CREATE TABLE "expert_reviews" (
	"analysis_id" integer PRIMARY KEY NOT NULL,
	"question" text,
	"asked_at" timestamp with time zone,
	"claimed_by" integer,
	"claimed_until" timestamp with time zone,
	"reviewer_id" integer,
	"verdict" text,
	"note" text,
	"sample_id" integer,
	"community_post_id" integer,
	"reviewed_at" timestamp with time zone,
	"revised_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "analyses" ADD COLUMN "crop" text;--> statement-breakpoint
ALTER TABLE "analyses" ADD COLUMN "heatmap_path" text;--> statement-breakpoint
ALTER TABLE "analyses" ADD COLUMN "margin" real GENERATED ALWAYS AS ((2 * greatest((probabilities->>'common_rust')::real, (probabilities->>'healthy')::real, (probabilities->>'other_disease')::real)
        + least((probabilities->>'common_rust')::real, (probabilities->>'healthy')::real, (probabilities->>'other_disease')::real)
        - ((probabilities->>'common_rust')::real + (probabilities->>'healthy')::real + (probabilities->>'other_disease')::real))) STORED;--> statement-breakpoint
ALTER TABLE "training_samples" ADD COLUMN "source_model_version" text;--> statement-breakpoint
ALTER TABLE "expert_reviews" ADD CONSTRAINT "expert_reviews_analysis_id_analyses_id_fk" FOREIGN KEY ("analysis_id") REFERENCES "public"."analyses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expert_reviews" ADD CONSTRAINT "expert_reviews_claimed_by_users_id_fk" FOREIGN KEY ("claimed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expert_reviews" ADD CONSTRAINT "expert_reviews_reviewer_id_users_id_fk" FOREIGN KEY ("reviewer_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "expert_reviews_asked_waiting_idx" ON "expert_reviews" USING btree ("asked_at") WHERE asked_at is not null and reviewed_at is null;--> statement-breakpoint
CREATE INDEX "expert_reviews_reviewer_idx" ON "expert_reviews" USING btree ("reviewer_id","reviewed_at");--> statement-breakpoint
CREATE INDEX "analyses_review_order_idx" ON "analyses" USING btree ("unsure" DESC NULLS FIRST,"margin","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);