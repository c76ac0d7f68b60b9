CREATE TABLE "model_activations" (
	"id" serial PRIMARY KEY NOT NULL,
	"version_id" integer NOT NULL,
	"activated_by" integer,
	"override" boolean DEFAULT false NOT NULL,
	"field_check" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "model_activations" ADD CONSTRAINT "model_activations_version_id_model_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."model_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "model_activations" ADD CONSTRAINT "model_activations_activated_by_users_id_fk" FOREIGN KEY ("activated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "model_activations_created_idx" ON "model_activations" USING btree ("created_at");