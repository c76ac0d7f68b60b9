CREATE TABLE "voice_clips" (
	"id" serial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"language" text NOT NULL,
	"text" text NOT NULL,
	"audio_path" text NOT NULL,
	"bytes" integer NOT NULL,
	"duration_ms" integer NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"recorded_by" integer NOT NULL,
	"decided_by" integer,
	"created_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone,
	"replaced_at" timestamp with time zone,
	CONSTRAINT "voice_clips_language_check" CHECK ("voice_clips"."language" in ('en', 'sw', 'lg')),
	CONSTRAINT "voice_clips_state_check" CHECK ("voice_clips"."state" in ('pending', 'approved', 'rejected'))
);
--> statement-breakpoint
ALTER TABLE "callback_requests" DROP CONSTRAINT "callback_requests_channel_check";--> statement-breakpoint
ALTER TABLE "voice_clips" ADD CONSTRAINT "voice_clips_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voice_clips" ADD CONSTRAINT "voice_clips_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "voice_clips_language_idx" ON "voice_clips" USING btree ("language","state","created_at");--> statement-breakpoint
CREATE INDEX "voice_clips_recorded_by_idx" ON "voice_clips" USING btree ("recorded_by");--> statement-breakpoint
CREATE UNIQUE INDEX "voice_clips_current_idx" ON "voice_clips" USING btree ("key","language") WHERE state = 'approved' and replaced_at is null;--> statement-breakpoint
ALTER TABLE "callback_requests" ADD CONSTRAINT "callback_requests_channel_check" CHECK ("callback_requests"."channel" in ('ussd', 'sms', 'call'));