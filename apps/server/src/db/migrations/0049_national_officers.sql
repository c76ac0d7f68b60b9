ALTER TABLE "deliveries" ADD COLUMN "attachments" jsonb;--> statement-breakpoint
ALTER TABLE "officer_profiles" ADD COLUMN "national" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "officer_profiles" ADD COLUMN "national_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "officer_profiles" ADD COLUMN "national_changed_by" integer;--> statement-breakpoint
ALTER TABLE "officer_profiles" ADD CONSTRAINT "officer_profiles_national_changed_by_users_id_fk" FOREIGN KEY ("national_changed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;