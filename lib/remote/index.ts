/**
 * Getting work out of a project (issue 14): download its working tree or any commit (a session checkpoint) as a
 * `.zip` (`archive.ts`), push a commit — HEAD's branch, a session's checkpoint ref `refs/heads/strata/session-<id>`
 * or a commit id — to a branch of a git remote over smart HTTP (`push.ts`; a session's branch is named
 * `strata/<slug of its title>`, `refs.ts`), and pull a remote branch back into the project (`pull.ts`:
 * fast-forward or clean merge, the working tree updated in one VFS flush, refused with the files named when it would
 * overwrite uncommitted work or the merge conflicts). The remote is a URL without credentials in it; the
 * credential is the workspace's stored one for the URL's host (`remote.ts`, lib/secrets/git-credentials.ts), handed
 * to isomorphic-git only when the server asks, and masked out of every error text (`errors.ts`). This layer is
 * edge-safe: the HTTP transport is injected by the route — the guarded client of lib/net/git-http.ts (public
 * addresses only unless STRATA_GIT_IMPORT_ALLOW_PRIVATE=1, every redirect checked), so push and pull routes run on
 * the `nodejs` runtime. It sits on lib/vfs, lib/secrets and lib/db. See docs/git-remote.md.
 */
export {
  buildProjectArchive,
  MAX_DOWNLOAD_BYTES,
  MAX_DOWNLOAD_ENTRIES,
  type ProjectArchive,
} from "./archive";
export { MASK, maskCredential, RemoteError, remoteFailure } from "./errors";
export { type PullAuthor, type PullOutcome, pullFromRemote } from "./pull";
export { type PushOutcome, type PushRequest, pushToRemote } from "./push";
export {
  branchNameProblem,
  refFormatProblem,
  sessionBranchName,
  slugify,
  sourceProblem,
} from "./refs";
export { openRemote, parseRemoteUrl, type Remote } from "./remote";
