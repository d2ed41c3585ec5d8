// hashData as the real services take it: the standard base64 of the SHA-256 of the key ID and of
// the secret a program made itself, and the key ID's last four characters.

import { createHash } from "node:crypto";

export const sha256Base64 = (text: string): string => createHash("sha256").update(text, "utf8").digest("base64");

export function hashDataFor(
  keyId: string,
  keySecret: string,
): { keyIdHash: string; keyIdSuffix: string; keySecretHash: string } {
  return { keyIdHash: sha256Base64(keyId), keyIdSuffix: keyId.slice(-4), keySecretHash: sha256Base64(keySecret) };
}
