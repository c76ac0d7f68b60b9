CREATE TABLE "forecast_advisories" (
	"district" text NOT NULL,
	"crop" text NOT NULL,
	"week_start" date NOT NULL,
	"run_id" integer,
	"high_day" date NOT NULL,
	"told_at" timestamp with time zone NOT NULL,
	CONSTRAINT "forecast_advisories_district_crop_week_start_pk" PRIMARY KEY("district","crop","week_start")
);
--> statement-breakpoint
CREATE TABLE "forecast_risks" (
	"run_id" integer NOT NULL,
	"district" text NOT NULL,
	"crop" text NOT NULL,
	"day" date NOT NULL,
	"level" text NOT NULL,
	"basis" jsonb NOT NULL,
	CONSTRAINT "forecast_risks_run_id_crop_district_day_pk" PRIMARY KEY("run_id","crop","district","day"),
	CONSTRAINT "forecast_risks_level_check" CHECK ("forecast_risks"."level" in ('low', 'moderate', 'high', 'unknown'))
);
--> statement-breakpoint
CREATE TABLE "forecast_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"ran_at" timestamp with time zone NOT NULL,
	"rules_version" text NOT NULL,
	"weather_fetched_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "weather_forecasts" (
	"district" text PRIMARY KEY NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL,
	"hours" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "forecast_advisories" ADD CONSTRAINT "forecast_advisories_run_id_forecast_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."forecast_runs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forecast_risks" ADD CONSTRAINT "forecast_risks_run_id_forecast_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."forecast_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "forecast_risks_district_idx" ON "forecast_risks" USING btree ("district","crop","day");--> statement-breakpoint
CREATE INDEX "forecast_runs_ran_idx" ON "forecast_runs" USING btree ("ran_at");