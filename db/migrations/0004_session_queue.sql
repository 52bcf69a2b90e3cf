CREATE TABLE "session_queue" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"session_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"input_text" text NOT NULL,
	"message" json NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_at" timestamp with time zone,
	"cancelled" boolean DEFAULT false NOT NULL,
	CONSTRAINT "session_queue_id_unique" UNIQUE("id")
);
--> statement-breakpoint
ALTER TABLE "session_runs" ADD COLUMN "kind" text DEFAULT 'prompt' NOT NULL;--> statement-breakpoint
ALTER TABLE "session_queue" ADD CONSTRAINT "session_queue_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "session_queue_pending_idx" ON "session_queue" USING btree ("session_id","claimed_at");