CREATE TABLE "project_trust" (
	"user_id" uuid NOT NULL,
	"workspace_id" uuid NOT NULL,
	"dir" text NOT NULL,
	"trusted" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "project_trust_user_id_workspace_id_dir_pk" PRIMARY KEY("user_id","workspace_id","dir")
);
--> statement-breakpoint
ALTER TABLE "project_trust" ADD CONSTRAINT "project_trust_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_trust" ADD CONSTRAINT "project_trust_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;