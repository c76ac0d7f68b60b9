CREATE TABLE "deliveries" (
	"id" serial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"user_id" integer NOT NULL,
	"channel" text NOT NULL,
	"kind" text NOT NULL,
	"body" jsonb NOT NULL,
	"subject" jsonb,
	"link" text,
	"state" text DEFAULT 'waiting' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_at" timestamp with time zone NOT NULL,
	"lease_until" timestamp with time zone,
	"error" text,
	"gateway_id" text,
	"report" text,
	"reported_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "deliveries_state_check" CHECK ("deliveries"."state" in ('waiting', 'sending', 'sent', 'failed', 'skipped'))
);
--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "key" text;--> statement-breakpoint
ALTER TABLE "outbreak_alerts" ADD COLUMN "told_through" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "deliveries_key_idx" ON "deliveries" USING btree ("key");--> statement-breakpoint
CREATE INDEX "deliveries_due_idx" ON "deliveries" USING btree ("next_at") WHERE state in ('waiting', 'sending');--> statement-breakpoint
CREATE INDEX "deliveries_state_idx" ON "deliveries" USING btree ("state","id");--> statement-breakpoint
CREATE INDEX "deliveries_gateway_idx" ON "deliveries" USING btree ("gateway_id");--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_key_idx" ON "notifications" USING btree ("key");