CREATE TABLE "session_share_files" (
	"share_id" uuid NOT NULL,
	"path" text NOT NULL,
	"text" text NOT NULL,
	"size" bigint NOT NULL,
	"mode" text NOT NULL,
	CONSTRAINT "session_share_files_share_id_path_pk" PRIMARY KEY("share_id","path")
);
--> statement-breakpoint
CREATE TABLE "session_shares" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token" text NOT NULL,
	"workspace_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"session_id" uuid NOT NULL,
	"leaf_entry_id" text NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"title" text NOT NULL,
	"include_files" boolean NOT NULL,
	"include_system" boolean NOT NULL,
	"entry_count" integer NOT NULL,
	"redaction_count" integer NOT NULL,
	"snapshot" jsonb NOT NULL,
	"digest" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "session_share_files" ADD CONSTRAINT "session_share_files_share_id_session_shares_id_fk" FOREIGN KEY ("share_id") REFERENCES "public"."session_shares"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_shares" ADD CONSTRAINT "session_shares_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_shares" ADD CONSTRAINT "session_shares_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_shares" ADD CONSTRAINT "session_shares_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_shares" ADD CONSTRAINT "session_shares_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "session_shares_token_idx" ON "session_shares" USING btree ("token");--> statement-breakpoint
CREATE INDEX "session_shares_session_idx" ON "session_shares" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "session_shares_project_idx" ON "session_shares" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "session_shares_workspace_idx" ON "session_shares" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "session_shares_created_by_idx" ON "session_shares" USING btree ("created_by");