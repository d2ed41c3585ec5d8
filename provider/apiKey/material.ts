// Key material made by the provider (`keyMaterial: "local"`): the key ID and secret come from this
// machine's CSPRNG and only their hashes go to the service, so the secret never crosses the network.

import { createHash, randomBytes, randomInt } from "node:crypto";
import { KEY_ID_SUFFIX_LENGTH, type HashData } from "../serviceFacts/hashData";

/** The key ID's alphabet and length: as the service makes its own (20 of A–Z and 0–9). */
const KEY_ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const KEY_ID_LENGTH = 20;
/** 256 bits: base64url of 32 bytes is 43 characters, none of which is ":" (Basic auth splits there). */
const SECRET_BYTES = 32;

export interface LocalMaterial {
  readonly id: string;
  readonly secret: string;
  /** What the service is sent instead of the pair (provider/serviceFacts/hashData.ts states the rules). */
  readonly hashes: HashData;
}

/** The standard, padded base64 of the SHA-256 of the UTF-8 text, as the service takes a hash. */
function sha256Base64(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("base64");
}

/** The hashes and suffix of a pair, as the service takes them in hashData. */
export function hashDataOf(id: string, secret: string): HashData {
  return {
    keyIdHash: sha256Base64(id),
    keyIdSuffix: id.slice(-KEY_ID_SUFFIX_LENGTH),
    keySecretHash: sha256Base64(secret),
  };
}

/** A new pair. randomInt draws each character uniformly (it rejects the modulo bias). */
export function makeLocalMaterial(): LocalMaterial {
  const id = Array.from({ length: KEY_ID_LENGTH }, () => KEY_ID_ALPHABET[randomInt(KEY_ID_ALPHABET.length)]).join("");
  const secret = randomBytes(SECRET_BYTES).toString("base64url");
  return { id, secret, hashes: hashDataOf(id, secret) };
}
