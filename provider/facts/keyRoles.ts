// The roles an organization API key can hold, as the cloud service names them. The provider's check
// and the emulator's request and data-file schemas read this list; neither restates it.

export const KEY_ROLES = ["admin", "developer", "query_endpoints"] as const;
export type KeyRole = (typeof KEY_ROLES)[number];
