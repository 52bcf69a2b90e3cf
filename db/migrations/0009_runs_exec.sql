CREATE TABLE "run_events" (
	"run_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"type" text NOT NULL,
	"data" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "run_events_run_id_seq_pk" PRIMARY KEY("run_id","seq")
);
--> statement-breakpoint
ALTER TABLE "session_runs" ADD COLUMN "start_leaf_id" text;--> statement-breakpoint
ALTER TABLE "session_runs" ADD COLUMN "mode" text DEFAULT 'prompt' NOT NULL;--> statement-breakpoint
ALTER TABLE "session_runs" ADD COLUMN "last_seq" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "session_runs" ADD COLUMN "outcome" text;--> statement-breakpoint
ALTER TABLE "session_runs" ADD COLUMN "watched_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "sandbox_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "run_events" ADD CONSTRAINT "run_events_run_id_session_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."session_runs"("id") ON DELETE cascade ON UPDATE no action;