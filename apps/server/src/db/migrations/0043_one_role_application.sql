-- Hand-edited after drizzle-kit generate (docs/decisions/0093): one table for every application that needs
-- approval. The expert and officer applications are copied from expert_profiles and officer_profiles
-- with their status, reason, dates and deciding administrator BEFORE the old columns are dropped; the
-- profile tables keep each role's own facts (an expert's details, an officer's office and districts).
CREATE TABLE "role_applications" (
	"user_id" integer NOT NULL,
	"role" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"applied_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" integer,
	CONSTRAINT "role_applications_user_id_role_pk" PRIMARY KEY("user_id","role"),
	CONSTRAINT "role_applications_status_check" CHECK ("role_applications"."status" in ('pending', 'approved', 'refused'))
);
--> statement-breakpoint
ALTER TABLE "role_applications" ADD CONSTRAINT "role_applications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role_applications" ADD CONSTRAINT "role_applications_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "role_applications_list_idx" ON "role_applications" USING btree ("role","status","applied_at");--> statement-breakpoint
INSERT INTO "role_applications" ("user_id", "role", "status", "reason", "applied_at", "decided_at", "decided_by")
	SELECT "user_id", 'expert', "vetting_status", "vetting_reason", "applied_at", "vetted_at", "vetted_by" FROM "expert_profiles";--> statement-breakpoint
INSERT INTO "role_applications" ("user_id", "role", "status", "reason", "applied_at", "decided_at", "decided_by")
	SELECT "user_id", 'officer', "vetting_status", "vetting_reason", "applied_at", "vetted_at", "vetted_by" FROM "officer_profiles";--> statement-breakpoint
ALTER TABLE "expert_profiles" DROP CONSTRAINT "expert_profiles_vetting_status_check";--> statement-breakpoint
ALTER TABLE "officer_profiles" DROP CONSTRAINT "officer_profiles_vetting_status_check";--> statement-breakpoint
ALTER TABLE "expert_profiles" DROP CONSTRAINT "expert_profiles_vetted_by_users_id_fk";
--> statement-breakpoint
ALTER TABLE "officer_profiles" DROP CONSTRAINT "officer_profiles_vetted_by_users_id_fk";
--> statement-breakpoint
DROP INDEX "expert_profiles_vetting_idx";--> statement-breakpoint
DROP INDEX "officer_profiles_vetting_idx";--> statement-breakpoint
ALTER TABLE "expert_profiles" DROP COLUMN "vetting_status";--> statement-breakpoint
ALTER TABLE "expert_profiles" DROP COLUMN "vetting_reason";--> statement-breakpoint
ALTER TABLE "expert_profiles" DROP COLUMN "vetted_at";--> statement-breakpoint
ALTER TABLE "expert_profiles" DROP COLUMN "vetted_by";--> statement-breakpoint
ALTER TABLE "expert_profiles" DROP COLUMN "applied_at";--> statement-breakpoint
ALTER TABLE "officer_profiles" DROP COLUMN "vetting_status";--> statement-breakpoint
ALTER TABLE "officer_profiles" DROP COLUMN "vetting_reason";--> statement-breakpoint
ALTER TABLE "officer_profiles" DROP COLUMN "vetted_at";--> statement-breakpoint
ALTER TABLE "officer_profiles" DROP COLUMN "vetted_by";--> statement-breakpoint
ALTER TABLE "officer_profiles" DROP COLUMN "applied_at";
