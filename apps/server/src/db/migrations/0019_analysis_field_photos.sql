CREATE TABLE "analysis_photos" (
	"analysis_id" integer NOT NULL,
	"position" integer NOT NULL,
	"image_path" text NOT NULL,
	"heatmap_path" text,
	"rust_class" text NOT NULL,
	"confidence" real NOT NULL,
	"probabilities" jsonb NOT NULL,
	"leaf_score" real,
	"ood_score" real,
	"model_version" text NOT NULL,
	"idempotency_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "analysis_photos_analysis_id_position_pk" PRIMARY KEY("analysis_id","position"),
	CONSTRAINT "analysis_photos_position_check" CHECK ("analysis_photos"."position" between 0 and 2)
);
--> statement-breakpoint
ALTER TABLE "analyses" ADD COLUMN "ood_score" real;--> statement-breakpoint
ALTER TABLE "analyses" ADD COLUMN "photo_count" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "analysis_photos" ADD CONSTRAINT "analysis_photos_analysis_id_analyses_id_fk" FOREIGN KEY ("analysis_id") REFERENCES "public"."analyses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "analysis_photos_idempotency_key_idx" ON "analysis_photos" USING btree ("analysis_id","idempotency_key");