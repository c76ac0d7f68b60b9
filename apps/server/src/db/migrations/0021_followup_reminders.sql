CREATE TABLE "follow_ups" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"analysis_id" integer NOT NULL,
	"crop" text NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"state" text DEFAULT 'waiting' NOT NULL,
	"sent_at" timestamp with time zone,
	"next_analysis_id" integer,
	"outcome" text,
	"escalated" boolean DEFAULT false NOT NULL,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "follow_ups_state_check" CHECK ("follow_ups"."state" in ('waiting', 'sent', 'cancelled', 'compared', 'lapsed'))
);
--> statement-breakpoint
ALTER TABLE "expert_reviews" ADD COLUMN "reason" jsonb;--> statement-breakpoint
ALTER TABLE "follow_ups" ADD CONSTRAINT "follow_ups_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "follow_ups" ADD CONSTRAINT "follow_ups_analysis_id_analyses_id_fk" FOREIGN KEY ("analysis_id") REFERENCES "public"."analyses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "follow_ups" ADD CONSTRAINT "follow_ups_next_analysis_id_analyses_id_fk" FOREIGN KEY ("next_analysis_id") REFERENCES "public"."analyses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "follow_ups_analysis_idx" ON "follow_ups" USING btree ("analysis_id");--> statement-breakpoint
CREATE UNIQUE INDEX "follow_ups_open_field_idx" ON "follow_ups" USING btree ("user_id","crop") WHERE state in ('waiting', 'sent');--> statement-breakpoint
CREATE INDEX "follow_ups_due_idx" ON "follow_ups" USING btree ("due_at") WHERE state = 'waiting';--> statement-breakpoint
CREATE INDEX "follow_ups_next_idx" ON "follow_ups" USING btree ("next_analysis_id");--> statement-breakpoint
-- A reminder's state shows in its farmer's history (remind_at, follow_up): its writes raise their read version (0036).
CREATE TRIGGER "follow_ups_read_versions" AFTER INSERT OR UPDATE OR DELETE ON "follow_ups"
	FOR EACH ROW EXECUTE FUNCTION "read_versions_changed"('user_id');
