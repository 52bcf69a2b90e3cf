CREATE TABLE "session_pending_paths" (
	"session_id" uuid NOT NULL,
	"path" text NOT NULL,
	"run_id" uuid,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "session_pending_paths_session_id_path_pk" PRIMARY KEY("session_id","path")
);
--> statement-breakpoint
ALTER TABLE "session_pending_paths" ADD CONSTRAINT "session_pending_paths_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;