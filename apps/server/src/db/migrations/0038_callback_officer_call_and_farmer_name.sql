ALTER TABLE "farmer_profiles" ADD COLUMN "name" text;--> statement-breakpoint
ALTER TABLE "callback_requests" ADD COLUMN "done_action_id" integer;--> statement-breakpoint
ALTER TABLE "callback_requests" ADD CONSTRAINT "callback_requests_done_action_id_officer_actions_id_fk" FOREIGN KEY ("done_action_id") REFERENCES "public"."officer_actions"("id") ON DELETE set null ON UPDATE no action;