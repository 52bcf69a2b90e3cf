/** Fixture trees in a real Postgres-backed VFS for the resources tests. */
import type { Vfs } from "@/lib/vfs/vfs";
import { createTestVfs } from "../../helpers/vfs";

export type TestVfs = Awaited<ReturnType<typeof createTestVfs>>;

/** Files (string content), `{ link: target }` symlinks and `{ dir: true }` directories, flushed; returns a cold VFS. */
export async function build(
  t: TestVfs,
  tree: Record<string, string | { link: string } | { dir: true }>,
): Promise<Vfs> {
  for (const [path, v] of Object.entries(tree)) {
    if (typeof v === "string") await t.fs.writeFile(path, v);
    else if ("link" in v) await t.fs.symlink(v.link, path);
    else await t.fs.mkdir(path, { recursive: true });
  }
  await t.fs.flush();
  return t.reopen();
}

export { createTestVfs };
