CREATE TABLE "availability_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"expert_id" integer NOT NULL,
	"weekdays" smallint[] NOT NULL,
	"start_minute" smallint NOT NULL,
	"end_minute" smallint NOT NULL,
	"slot_minutes" smallint NOT NULL,
	"mode" text NOT NULL,
	"place" text,
	"video_url" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rules_minutes_in_day" CHECK (start_minute >= 0 and end_minute <= 1440 and end_minute > start_minute)
);
--> statement-breakpoint
DROP INDEX "bookings_one_live_per_slot";--> statement-breakpoint
ALTER TABLE "availability_slots" ADD COLUMN "mode" text DEFAULT 'phone' NOT NULL;--> statement-breakpoint
ALTER TABLE "availability_slots" ADD COLUMN "place" text;--> statement-breakpoint
ALTER TABLE "availability_slots" ADD COLUMN "video_url" text;--> statement-breakpoint
ALTER TABLE "availability_slots" ADD COLUMN "rule_id" integer;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "topic" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "analysis_id" integer;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "cancelled_by" text;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "sequence" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "reminded_24h_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "reminded_1h_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "availability_rules" ADD CONSTRAINT "availability_rules_expert_id_users_id_fk" FOREIGN KEY ("expert_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "rules_expert_idx" ON "availability_rules" USING btree ("expert_id");--> statement-breakpoint
ALTER TABLE "availability_slots" ADD CONSTRAINT "availability_slots_rule_id_availability_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."availability_rules"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_analysis_id_analyses_id_fk" FOREIGN KEY ("analysis_id") REFERENCES "public"."analyses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "slots_rule_start_unique" ON "availability_slots" USING btree ("rule_id","start_time");--> statement-breakpoint
CREATE INDEX "bookings_reminders_idx" ON "bookings" USING btree ("selected_date") WHERE status = 'approved';--> statement-breakpoint
CREATE UNIQUE INDEX "bookings_one_live_per_slot" ON "bookings" USING btree ("slot_id") WHERE status in ('pending', 'approved');