CREATE TABLE "backups" (
	"id" serial PRIMARY KEY NOT NULL,
	"file" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"size_bytes" bigint,
	"file_count" integer,
	"verified" boolean DEFAULT false NOT NULL,
	"error" text,
	"removed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "backups_started_at_idx" ON "backups" USING btree ("started_at");