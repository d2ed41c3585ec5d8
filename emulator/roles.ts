// An organization's roles (area B, docs/design/cloud-api-2026.md): three system roles, the same uuids
// in every organization (our choice: the real list and uuids were not found), and the custom roles
// the emulator is seeded with. An organization with a custom role has moved to custom roles: the
// service freezes its keys' deprecated `roles` then.

import { createHash } from "node:crypto";
import type { RoleType } from "../provider/serviceFacts/apiKeys";
import type { EmulatorState, StoredKey, StoredRole } from "./store";

/** The system roles by uuid, the same in every organization. */
export const SYSTEM_ROLES: Readonly<Record<string, { roleName: string; roleType: "system" }>> = {
  "00000000-0000-4000-8000-00000000a001": { roleName: "Admin", roleType: "system" },
  "00000000-0000-4000-8000-00000000a002": { roleName: "Developer", roleType: "system" },
  "00000000-0000-4000-8000-00000000a003": { roleName: "Member", roleType: "system" },
};

/** When the system roles are said to be made: fixed, as they are the same everywhere. */
const SYSTEM_ROLES_CREATED_AT = "2026-01-01T00:00:00.000Z";

/** A custom role to seed: its organization's uuid, its name and, if the caller fixes it, its uuid. */
export interface CustomRoleSeed {
  organizationId: string;
  name: string;
  id?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A seeded role's uuid when none is given: a hash of its organization and name (version 4's form),
 * so a restart with the same seeds, and a data file's keys, keep naming the same role.
 */
export function customRoleId(organizationId: string, name: string): string {
  const hex = createHash("sha256").update(`${organizationId.toLowerCase()}/${name}`).digest("hex");
  const variant = ((parseInt(hex[16] ?? "0", 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Adds the seeds the state lacks (a data file may hold them from an earlier start); throws on a bad seed. */
export function seedCustomRoles(state: EmulatorState, seeds: readonly CustomRoleSeed[], now: string): void {
  const roles = (state.customRoles ??= {});
  for (const seed of seeds) {
    const org = seed.organizationId.toLowerCase();
    if (!UUID.test(org)) throw new Error(`custom role "${seed.name}": its organization must be a uuid, got "${org}"`);
    if (seed.name.trim() === "") throw new Error(`custom role of organization ${org}: its name must not be empty`);
    const id = (seed.id ?? customRoleId(org, seed.name)).toLowerCase();
    if (!UUID.test(id)) throw new Error(`custom role "${seed.name}": its id must be a uuid, got "${id}"`);
    if (SYSTEM_ROLES[id] !== undefined) throw new Error(`custom role "${seed.name}": ${id} is a system role's uuid`);
    const held = roles[id];
    if (held !== undefined && (held.organizationId !== org || held.name !== seed.name))
      throw new Error(`custom role "${seed.name}": ${id} is already the role "${held.name}" of ${held.organizationId}`);
    roles[id] ??= { id, organizationId: org, name: seed.name, createdAt: now };
  }
}

/** The role of this uuid that the organization has, as a key's assignedRoles names it; undefined if none. */
export function roleOf(
  state: EmulatorState,
  organizationId: string,
  roleId: string,
): { roleName: string; roleType: RoleType } | undefined {
  const id = roleId.toLowerCase();
  const system = SYSTEM_ROLES[id];
  if (system !== undefined) return system;
  const custom = state.customRoles?.[id];
  return custom !== undefined && custom.organizationId === organizationId
    ? { roleName: custom.name, roleType: "custom" }
    : undefined;
}

/** Whether the organization moved to custom roles: it has one. */
export function hasCustomRoles(state: EmulatorState, organizationId: string): boolean {
  return Object.values(state.customRoles ?? {}).some((role) => role.organizationId === organizationId);
}

/**
 * `GET /v1/organizations/{org}/roles`: system roles first, then the organization's own, as the
 * OpenAPI's `RBACRole`; `actors` names the keys that hold each (`apiKey/<uuid>`), policies none.
 */
export function listRoles(state: EmulatorState, organizationId: string): unknown[] {
  const actors = (roleId: string) =>
    Object.values(state.keys)
      .filter((key: StoredKey) => key.organizationId === organizationId && key.assignedRoleIds?.includes(roleId))
      .map((key) => `apiKey/${key.id}`);
  const row = (id: string, name: string, type: RoleType, createdAt: string) => ({
    id,
    tenantId: organizationId,
    ownerId: type === "system" ? null : organizationId,
    name,
    type,
    actors: actors(id),
    policies: [],
    createdAt,
    updatedAt: createdAt,
  });
  return [
    ...Object.entries(SYSTEM_ROLES).map(([id, role]) => row(id, role.roleName, "system", SYSTEM_ROLES_CREATED_AT)),
    ...Object.values(state.customRoles ?? {})
      .filter((role: StoredRole) => role.organizationId === organizationId)
      .map((role) => row(role.id, role.name, "custom", role.createdAt)),
  ];
}
