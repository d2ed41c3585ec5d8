// hashData rules the contract leaves out (docs/design/real-services.md).

/** What a caller that made its own key pair sends instead of it. */
export interface HashData {
  readonly keyIdHash: string;
  readonly keyIdSuffix: string;
  readonly keySecretHash: string;
}

/** How many characters of the key ID the service keeps as its suffix. */
export const KEY_ID_SUFFIX_LENGTH = 4;

/** What a hash must be, in words for messages. */
export const SHA256_BASE64_RULE = "the standard base64 (padded, 44 characters) of a SHA-256 digest";

/** Padded standard base64 of 32 bytes, as the service takes a SHA-256. */
export function isSha256Base64(value: string): boolean {
  return /^[A-Za-z0-9+/]{43}=$/.test(value) && Buffer.from(value, "base64").length === 32;
}
