// keyMaterial "local": the pair comes from this machine's CSPRNG; only hashes cross the network.

import { createHash, randomBytes, randomInt } from "node:crypto";
import { KEY_ID_SUFFIX_LENGTH, type HashData } from "../serviceFacts/hashData";

/** As the service makes its own. */
const KEY_ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const KEY_ID_LENGTH = 20;
/** base64url has no ":", where Basic auth splits. */
const SECRET_BYTES = 32;

export interface LocalMaterial {
  readonly id: string;
  readonly secret: string;
  readonly hashes: HashData;
}

/** Padded base64, as the service takes a hash. */
function sha256Base64(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("base64");
}

export function hashDataOf(id: string, secret: string): HashData {
  return {
    keyIdHash: sha256Base64(id),
    keyIdSuffix: id.slice(-KEY_ID_SUFFIX_LENGTH),
    keySecretHash: sha256Base64(secret),
  };
}

/** randomInt has no modulo bias. */
export function makeLocalMaterial(): LocalMaterial {
  const id = Array.from({ length: KEY_ID_LENGTH }, () => KEY_ID_ALPHABET[randomInt(KEY_ID_ALPHABET.length)]).join("");
  const secret = randomBytes(SECRET_BYTES).toString("base64url");
  return { id, secret, hashes: hashDataOf(id, secret) };
}
