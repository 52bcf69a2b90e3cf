ALTER TABLE "session_entries" ADD COLUMN "author_user_id" uuid;--> statement-breakpoint
ALTER TABLE "session_queue" ADD COLUMN "user_id" uuid;