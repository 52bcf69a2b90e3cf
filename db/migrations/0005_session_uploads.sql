CREATE TABLE "session_upload_parts" (
	"upload_id" uuid NOT NULL,
	"part" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "session_upload_parts_upload_id_part_pk" PRIMARY KEY("upload_id","part")
);
--> statement-breakpoint
CREATE TABLE "session_uploads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "session_upload_parts" ADD CONSTRAINT "session_upload_parts_upload_id_session_uploads_id_fk" FOREIGN KEY ("upload_id") REFERENCES "public"."session_uploads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_uploads" ADD CONSTRAINT "session_uploads_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "session_uploads_project_idx" ON "session_uploads" USING btree ("project_id","created_at");