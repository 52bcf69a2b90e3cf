ALTER TABLE "session_entries" ADD COLUMN "compaction_id" text;--> statement-breakpoint
ALTER TABLE "session_entries" ADD COLUMN "thinking_level" text;--> statement-breakpoint
ALTER TABLE "session_entries" ADD COLUMN "model_provider" text;--> statement-breakpoint
ALTER TABLE "session_entries" ADD COLUMN "model_id" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "header" json;
