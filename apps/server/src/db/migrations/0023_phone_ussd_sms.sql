CREATE TABLE "callback_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"language" text NOT NULL,
	"channel" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"done_at" timestamp with time zone,
	"done_by" integer,
	CONSTRAINT "callback_requests_channel_check" CHECK ("callback_requests"."channel" in ('ussd', 'sms')),
	CONSTRAINT "callback_requests_language_check" CHECK ("callback_requests"."language" in ('en', 'sw', 'lg'))
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "sms_stopped_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "callback_requests" ADD CONSTRAINT "callback_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "callback_requests" ADD CONSTRAINT "callback_requests_done_by_users_id_fk" FOREIGN KEY ("done_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "callback_requests_open_idx" ON "callback_requests" USING btree ("created_at") WHERE done_at is null;--> statement-breakpoint
CREATE INDEX "callback_requests_user_idx" ON "callback_requests" USING btree ("user_id");