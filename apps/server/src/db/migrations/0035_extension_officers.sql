CREATE TABLE "officer_actions" (
	"id" serial PRIMARY KEY NOT NULL,
	"officer_id" integer,
	"farmer_id" integer NOT NULL,
	"analysis_id" integer,
	"district" text NOT NULL,
	"kind" text NOT NULL,
	"note" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "officer_actions_kind_check" CHECK ("officer_actions"."kind" in ('called', 'visited'))
);
--> statement-breakpoint
CREATE TABLE "officer_profiles" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"office" text NOT NULL,
	"districts" text[] NOT NULL,
	"vetting_status" text DEFAULT 'pending' NOT NULL,
	"vetting_reason" text,
	"vetted_at" timestamp with time zone,
	"vetted_by" integer,
	"applied_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "officer_profiles_vetting_status_check" CHECK ("officer_profiles"."vetting_status" in ('pending', 'approved', 'refused'))
);
--> statement-breakpoint
ALTER TABLE "users" DROP CONSTRAINT "users_role_check";--> statement-breakpoint
ALTER TABLE "officer_actions" ADD CONSTRAINT "officer_actions_officer_id_users_id_fk" FOREIGN KEY ("officer_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "officer_actions" ADD CONSTRAINT "officer_actions_farmer_id_users_id_fk" FOREIGN KEY ("farmer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "officer_actions" ADD CONSTRAINT "officer_actions_analysis_id_analyses_id_fk" FOREIGN KEY ("analysis_id") REFERENCES "public"."analyses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "officer_profiles" ADD CONSTRAINT "officer_profiles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "officer_profiles" ADD CONSTRAINT "officer_profiles_vetted_by_users_id_fk" FOREIGN KEY ("vetted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "officer_actions_farmer_idx" ON "officer_actions" USING btree ("farmer_id","created_at");--> statement-breakpoint
CREATE INDEX "officer_profiles_vetting_idx" ON "officer_profiles" USING btree ("vetting_status","applied_at");--> statement-breakpoint
CREATE INDEX "officer_profiles_districts_idx" ON "officer_profiles" USING gin ("districts");--> statement-breakpoint
CREATE INDEX "notifications_key_prefix_idx" ON "notifications" USING btree ("key" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "deliveries_key_prefix_idx" ON "deliveries" USING btree ("key" text_pattern_ops);--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_role_check" CHECK ("users"."role" in ('farmer', 'expert', 'admin', 'officer'));