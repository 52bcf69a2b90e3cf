/** Per-worker setup: Node 20 has no global WebSocket; give the Neon driver the `ws` package. */
import ws from "ws";
import { setNodeWebSocket } from "@/lib/db/client";

setNodeWebSocket(ws);
