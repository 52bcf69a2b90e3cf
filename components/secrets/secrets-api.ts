/**
 * The settings page's calls to `/api/workspaces/<id>/secrets` (plain fetch through components/account/auth-fetch).
 * Values go to the server only; every answer carries names, authors and times.
 */
import { callJson } from "@/components/account/auth-fetch";

/** A secret as the server lists it: never its value. */
export interface SecretInfo {
  name: string;
  updatedAt: string;
  updatedBy: string | null;
}

const base = (workspaceId: string) => `/api/workspaces/${encodeURIComponent(workspaceId)}/secrets`;

/** The workspace's secrets, A→Z. @throws AccountError */
export async function listSecrets(workspaceId: string): Promise<SecretInfo[]> {
  return (await callJson<{ secrets: SecretInfo[] }>(base(workspaceId))).secrets;
}

/** Set or replace secret `name`. @throws AccountError (400 with what to fix, 403 for a role too low) */
export async function putSecret(workspaceId: string, name: string, value: string): Promise<SecretInfo> {
  return (
    await callJson<{ secret: SecretInfo }>(
      `${base(workspaceId)}/${encodeURIComponent(name)}`,
      { value },
      "PUT",
    )
  ).secret;
}

/** Delete secret `name`. @throws AccountError (404 when it is not set) */
export async function removeSecret(workspaceId: string, name: string): Promise<void> {
  await callJson(`${base(workspaceId)}/${encodeURIComponent(name)}`, undefined, "DELETE");
}
