CREATE TABLE "consents" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"purpose" text NOT NULL,
	"granted" boolean NOT NULL,
	"text_version" text NOT NULL,
	"channel" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "consents_purpose_check" CHECK ("consents"."purpose" in ('service', 'sms', 'training'))
);
--> statement-breakpoint
CREATE TABLE "erasure_codes" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"code_hash" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "erasure_log" (
	"id" serial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"role" text NOT NULL,
	"requested_via" text NOT NULL,
	"counts" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "training_samples" DROP CONSTRAINT "training_samples_uploader_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "training_samples" ALTER COLUMN "uploader_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "consents" ADD CONSTRAINT "consents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "erasure_codes" ADD CONSTRAINT "erasure_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "consents_user_purpose_idx" ON "consents" USING btree ("user_id","purpose","at");--> statement-breakpoint
ALTER TABLE "training_samples" ADD CONSTRAINT "training_samples_uploader_id_users_id_fk" FOREIGN KEY ("uploader_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Throttle keys are stored as their SHA-256 from now on (no phone number or email in clear): the
-- counters of before are dropped (a back-off or reset window starts again, nothing else changes).
DELETE FROM "auth_throttle";
