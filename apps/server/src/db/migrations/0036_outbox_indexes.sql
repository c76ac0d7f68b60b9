DROP INDEX "notifications_key_prefix_idx";--> statement-breakpoint
DROP INDEX "deliveries_key_prefix_idx";--> statement-breakpoint
DROP INDEX "deliveries_state_idx";--> statement-breakpoint
DROP INDEX "notifications_key_idx";--> statement-breakpoint
DROP INDEX "deliveries_key_idx";--> statement-breakpoint
DROP INDEX "deliveries_due_idx";--> statement-breakpoint
DROP INDEX "deliveries_gateway_idx";--> statement-breakpoint
CREATE INDEX "deliveries_failed_idx" ON "deliveries" USING btree ("id") WHERE state = 'failed';--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_key_idx" ON "notifications" USING btree ("key" text_pattern_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "deliveries_key_idx" ON "deliveries" USING btree ("key" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "deliveries_due_idx" ON "deliveries" USING btree ("next_at","id") WHERE state in ('waiting', 'sending');--> statement-breakpoint
CREATE INDEX "deliveries_gateway_idx" ON "deliveries" USING btree ("gateway_id") WHERE gateway_id is not null;