CREATE TABLE "clinic_visits" (
	"id" serial PRIMARY KEY NOT NULL,
	"expert_id" integer NOT NULL,
	"farmer_id" integer NOT NULL,
	"idempotency_key" text,
	"crop" text NOT NULL,
	"variety" text DEFAULT '' NOT NULL,
	"growth_stage" text NOT NULL,
	"share_affected" smallint NOT NULL,
	"symptoms" text DEFAULT '' NOT NULL,
	"analysis_ids" integer[] NOT NULL,
	"consent_at" timestamp with time zone,
	"verdict" text,
	"severity" text,
	"recommendation" text,
	"decided_at" timestamp with time zone,
	"result_sms_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "follow_ups" ADD COLUMN "by_ussd" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "clinic_visits" ADD CONSTRAINT "clinic_visits_expert_id_users_id_fk" FOREIGN KEY ("expert_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clinic_visits" ADD CONSTRAINT "clinic_visits_farmer_id_users_id_fk" FOREIGN KEY ("farmer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "clinic_visits_key_idx" ON "clinic_visits" USING btree ("expert_id","idempotency_key") WHERE idempotency_key is not null;--> statement-breakpoint
CREATE INDEX "clinic_visits_expert_idx" ON "clinic_visits" USING btree ("expert_id","created_at");