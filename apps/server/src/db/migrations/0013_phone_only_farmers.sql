-- Refuse, loudly, rather than let CREATE UNIQUE INDEX fail with a bare duplicate-key error or guess
-- which account keeps a shared number (docs/decisions/0024-phone-only-farmers.md).
DO $$
DECLARE
  shared integer;
BEGIN
  SELECT count(*) INTO shared FROM (SELECT phone FROM users GROUP BY phone HAVING count(*) > 1) AS d;
  IF shared > 0 THEN
    RAISE EXCEPTION 'Migration 0013_phone_only_farmers: % phone number(s) are used by more than one account. Phone numbers must be unique now. List them with: SELECT phone, array_agg(id ORDER BY id) FROM users GROUP BY phone HAVING count(*) > 1; then give each account its own number (or remove the stale duplicate) and deploy again. See docs/decisions/0024-phone-only-farmers.md.', shared;
  END IF;
END $$;--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "email" DROP NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "users_phone_unique" ON "users" USING btree ("phone");