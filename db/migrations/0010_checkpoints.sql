CREATE TABLE "session_checkpoints" (
	"session_id" uuid NOT NULL,
	"commit_oid" text NOT NULL,
	"parent_oid" text,
	"kind" text NOT NULL,
	"paths" json NOT NULL,
	"tool_calls" json,
	"author_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "session_checkpoints_session_id_commit_oid_pk" PRIMARY KEY("session_id","commit_oid")
);
--> statement-breakpoint
CREATE TABLE "session_restores" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"session_id" uuid NOT NULL,
	"mode" text NOT NULL,
	"from_leaf_id" text,
	"from_commit" text,
	"to_leaf_id" text,
	"to_commit" text,
	"undone_by" uuid,
	"user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "session_entries" ADD COLUMN "commit_oid" text;--> statement-breakpoint
ALTER TABLE "session_checkpoints" ADD CONSTRAINT "session_checkpoints_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_restores" ADD CONSTRAINT "session_restores_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "session_restores_session_idx" ON "session_restores" USING btree ("session_id","created_at");