ALTER TABLE "expert_profiles" ADD COLUMN "vetting_status" text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE "expert_profiles" ADD COLUMN "vetting_reason" text;--> statement-breakpoint
ALTER TABLE "expert_profiles" ADD COLUMN "vetted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "expert_profiles" ADD COLUMN "vetted_by" integer;--> statement-breakpoint
ALTER TABLE "expert_profiles" ADD COLUMN "applied_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
-- Experts who signed up before vetting existed keep their access (docs/decisions/0027); they applied when they signed up.
UPDATE "expert_profiles" SET "vetting_status" = 'approved', "vetted_at" = now(), "applied_at" = "users"."created_at" FROM "users" WHERE "users"."id" = "expert_profiles"."user_id";--> statement-breakpoint
ALTER TABLE "expert_profiles" ADD CONSTRAINT "expert_profiles_vetted_by_users_id_fk" FOREIGN KEY ("vetted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "expert_profiles_vetting_idx" ON "expert_profiles" USING btree ("vetting_status","applied_at");--> statement-breakpoint
ALTER TABLE "expert_profiles" ADD CONSTRAINT "expert_profiles_vetting_status_check" CHECK ("expert_profiles"."vetting_status" in ('pending', 'approved', 'refused'));--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_role_check" CHECK ("users"."role" in ('farmer', 'expert', 'admin'));