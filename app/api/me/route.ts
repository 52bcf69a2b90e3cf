import { authMode } from "@/lib/auth/mode";
import { withCaller } from "@/lib/http/access";
import { route } from "@/lib/http/errors";

export const runtime = "edge";
export const dynamic = "force-dynamic";

/** The signed-in caller and the server's sign-in mode: `{ user: { id, email, name }, mode: "local" | "accounts" }`. */
export const GET = route(async (req: Request) =>
  withCaller(req, async ({ caller }) =>
    Response.json({
      user: { id: caller.userId, email: caller.email, name: caller.name },
      mode: authMode(process.env),
    }),
  ),
);
