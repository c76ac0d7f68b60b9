CREATE INDEX "slots_active_start_idx" ON "availability_slots" USING btree ("start_time") WHERE is_active;--> statement-breakpoint
CREATE INDEX "bookings_slot_idx" ON "bookings" USING btree ("slot_id","created_at");--> statement-breakpoint
CREATE INDEX "bookings_farmer_idx" ON "bookings" USING btree ("farmer_id","created_at");--> statement-breakpoint
ALTER TABLE "availability_slots" ADD CONSTRAINT "slots_end_after_start" CHECK (end_time > start_time);--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_approved_has_date" CHECK (status <> 'approved' or selected_date is not null);