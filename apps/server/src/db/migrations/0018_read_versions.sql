CREATE TABLE "read_versions" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 1 NOT NULL
);
--> statement-breakpoint
-- Raises the read version of a user (0: what every user's screens share) in the writing transaction
-- (docs/decisions/0036). A null user (a row without an owner) changes nobody's screens.
CREATE FUNCTION "read_versions_bump"(uid integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	IF uid IS NULL THEN RETURN; END IF;
	INSERT INTO "read_versions" ("user_id", "version") VALUES (uid, 1)
	ON CONFLICT ("user_id") DO UPDATE SET "version" = "read_versions"."version" + 1;
END $$;
--> statement-breakpoint
-- The users whose screens a written row shows on, old row and new: TG_ARGV[0] names the rule.
CREATE FUNCTION "read_versions_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	r record;
BEGIN
	IF TG_ARGV[0] = 'everyone' THEN
		PERFORM "read_versions_bump"(0);
		RETURN NULL;
	END IF;
	FOREACH r IN ARRAY (CASE TG_OP WHEN 'INSERT' THEN ARRAY[NEW] WHEN 'DELETE' THEN ARRAY[OLD] ELSE ARRAY[OLD, NEW] END) LOOP
		CASE TG_ARGV[0]
		WHEN 'user_id' THEN PERFORM "read_versions_bump"(r."user_id");
		WHEN 'author_id' THEN PERFORM "read_versions_bump"(r."author_id");
		WHEN 'farmer_id' THEN PERFORM "read_versions_bump"(r."farmer_id");
		WHEN 'post_author' THEN PERFORM "read_versions_bump"((SELECT p."author_id" FROM "posts" p WHERE p."id" = r."post_id"));
		WHEN 'analysis_owner' THEN PERFORM "read_versions_bump"((SELECT a."user_id" FROM "analyses" a WHERE a."id" = r."analysis_id"));
		WHEN 'sample_owner' THEN PERFORM "read_versions_bump"((SELECT a."user_id" FROM "analyses" a WHERE a."id" = r."source_analysis_id"));
		END CASE;
	END LOOP;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "analyses_read_versions" AFTER INSERT OR UPDATE OR DELETE ON "analyses"
	FOR EACH ROW EXECUTE FUNCTION "read_versions_changed"('user_id');
--> statement-breakpoint
CREATE TRIGGER "posts_read_versions" AFTER INSERT OR UPDATE OR DELETE ON "posts"
	FOR EACH ROW EXECUTE FUNCTION "read_versions_changed"('author_id');
--> statement-breakpoint
CREATE TRIGGER "responses_read_versions" AFTER INSERT OR UPDATE OR DELETE ON "responses"
	FOR EACH ROW EXECUTE FUNCTION "read_versions_changed"('post_author');
--> statement-breakpoint
CREATE TRIGGER "bookings_read_versions" AFTER INSERT OR UPDATE OR DELETE ON "bookings"
	FOR EACH ROW EXECUTE FUNCTION "read_versions_changed"('farmer_id');
--> statement-breakpoint
CREATE TRIGGER "training_samples_read_versions" AFTER INSERT OR UPDATE OR DELETE ON "training_samples"
	FOR EACH ROW EXECUTE FUNCTION "read_versions_changed"('sample_owner');
--> statement-breakpoint
-- A claim (who is looking at it, until when) shows on no farmer's screen: claims come and go often,
-- and raising the farmer's version for them would only empty the cache.
CREATE TRIGGER "expert_reviews_read_versions_write" AFTER INSERT OR DELETE ON "expert_reviews"
	FOR EACH ROW EXECUTE FUNCTION "read_versions_changed"('analysis_owner');
--> statement-breakpoint
CREATE TRIGGER "expert_reviews_read_versions_update" AFTER UPDATE ON "expert_reviews"
	FOR EACH ROW WHEN ((to_jsonb(OLD) - 'claimed_by' - 'claimed_until') IS DISTINCT FROM (to_jsonb(NEW) - 'claimed_by' - 'claimed_until'))
	EXECUTE FUNCTION "read_versions_changed"('analysis_owner');
--> statement-breakpoint
-- Every farmer's dashboard counts the training sessions that succeeded; progress updates do not count.
CREATE TRIGGER "training_jobs_read_versions_insert" AFTER INSERT ON "training_jobs"
	FOR EACH ROW WHEN (NEW."status" = 'succeeded') EXECUTE FUNCTION "read_versions_changed"('everyone');
--> statement-breakpoint
CREATE TRIGGER "training_jobs_read_versions_update" AFTER UPDATE ON "training_jobs"
	FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status" AND 'succeeded' IN (OLD."status", NEW."status"))
	EXECUTE FUNCTION "read_versions_changed"('everyone');
--> statement-breakpoint
CREATE TRIGGER "training_jobs_read_versions_delete" AFTER DELETE ON "training_jobs"
	FOR EACH ROW WHEN (OLD."status" = 'succeeded') EXECUTE FUNCTION "read_versions_changed"('everyone');
--> statement-breakpoint
-- Every analysis is shown with the resources and advice for its result, in the reader's language.
CREATE TRIGGER "education_resources_read_versions" AFTER INSERT OR UPDATE OR DELETE ON "education_resources"
	FOR EACH STATEMENT EXECUTE FUNCTION "read_versions_changed"('everyone');
--> statement-breakpoint
CREATE TRIGGER "education_resource_translations_read_versions" AFTER INSERT OR UPDATE OR DELETE ON "education_resource_translations"
	FOR EACH STATEMENT EXECUTE FUNCTION "read_versions_changed"('everyone');
--> statement-breakpoint
CREATE TRIGGER "advice_read_versions" AFTER INSERT OR UPDATE OR DELETE ON "advice"
	FOR EACH STATEMENT EXECUTE FUNCTION "read_versions_changed"('everyone');
