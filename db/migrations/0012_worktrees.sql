CREATE TABLE "worktree_nodes" (
	"session_id" uuid NOT NULL,
	"path" text NOT NULL,
	"parent" text NOT NULL,
	"kind" text NOT NULL,
	"mode" integer NOT NULL,
	"size" bigint DEFAULT 0 NOT NULL,
	"data" "bytea",
	"version" bigint DEFAULT 1 NOT NULL,
	"mtime_ms" bigint NOT NULL,
	CONSTRAINT "worktree_nodes_session_id_path_pk" PRIMARY KEY("session_id","path")
);
--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "worktrees_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "projects" ALTER COLUMN "worktrees_at" SET DEFAULT now();--> statement-breakpoint
ALTER TABLE "worktree_nodes" ADD CONSTRAINT "worktree_nodes_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "worktree_nodes_parent_idx" ON "worktree_nodes" USING btree ("session_id","parent");