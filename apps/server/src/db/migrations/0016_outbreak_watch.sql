CREATE TABLE "outbreak_alerts" (
	"id" serial PRIMARY KEY NOT NULL,
	"district" text NOT NULL,
	"crop" text NOT NULL,
	"source_district" text NOT NULL,
	"raised_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"delivered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "outbreak_cases" (
	"analysis_id" integer PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"district" text NOT NULL,
	"crop" text NOT NULL,
	"week_start" date NOT NULL,
	"state" text NOT NULL,
	"unreviewed" boolean NOT NULL,
	"demo" boolean DEFAULT false NOT NULL,
	CONSTRAINT "outbreak_cases_state_check" CHECK ("outbreak_cases"."state" in ('confirmed', 'reported', 'none'))
);
--> statement-breakpoint
CREATE TABLE "outbreak_counts" (
	"district" text NOT NULL,
	"crop" text NOT NULL,
	"week_start" date NOT NULL,
	"demo" boolean NOT NULL,
	"confirmed" integer DEFAULT 0 NOT NULL,
	"reported" integer DEFAULT 0 NOT NULL,
	"unreviewed" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "outbreak_counts_crop_week_start_district_demo_pk" PRIMARY KEY("crop","week_start","district","demo")
);
--> statement-breakpoint
CREATE TABLE "outbreak_farmer_weeks" (
	"user_id" integer NOT NULL,
	"crop" text NOT NULL,
	"week_start" date NOT NULL,
	"district" text NOT NULL,
	"state" text NOT NULL,
	"unreviewed" boolean NOT NULL,
	"demo" boolean DEFAULT false NOT NULL,
	CONSTRAINT "outbreak_farmer_weeks_user_id_crop_week_start_pk" PRIMARY KEY("user_id","crop","week_start")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "district" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "sms_alerts" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "analyses" ADD COLUMN "demo" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "outbreak_cases" ADD CONSTRAINT "outbreak_cases_analysis_id_analyses_id_fk" FOREIGN KEY ("analysis_id") REFERENCES "public"."analyses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbreak_cases" ADD CONSTRAINT "outbreak_cases_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbreak_farmer_weeks" ADD CONSTRAINT "outbreak_farmer_weeks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "outbreak_alerts_open_idx" ON "outbreak_alerts" USING btree ("district","crop") WHERE ended_at is null;--> statement-breakpoint
CREATE INDEX "outbreak_cases_farmer_week_idx" ON "outbreak_cases" USING btree ("user_id","crop","week_start");--> statement-breakpoint
CREATE INDEX "outbreak_counts_district_idx" ON "outbreak_counts" USING btree ("district","crop","week_start");--> statement-breakpoint
CREATE INDEX "users_district_role_idx" ON "users" USING btree ("district","role");