// A passphrase secrets manager in the style of Pulumi's: a key is derived from the passphrase with
// PBKDF2-SHA256 (1,000,000 rounds) over a random salt; values are sealed with AES-256-GCM and written as
// "v1:<nonce>:<ciphertext+tag>" (base64). The salt is stored as "v1:<salt>:<sealed 'pulumi'>" so a
// wrong passphrase is detected before anything is decrypted.
import * as crypto from "node:crypto";
import { SECRET_SIG, SIG_KEY, isSecret, stripSecrets, type PropertyMap, type PropertyValue } from "./props";

const KDF_ROUNDS = 1_000_000;
const CHECK_TEXT = "pulumi";

/** In-process cache of derived keys: the KDF is deliberately slow and runs once per (passphrase, salt). */
const keyCache = new Map<string, Promise<Buffer>>();

function deriveKey(passphrase: string, salt: Buffer): Promise<Buffer> {
    const cacheKey = crypto.createHash("sha256").update(passphrase).update("\0").update(salt).digest("hex");
    let key = keyCache.get(cacheKey);
    if (!key) {
        key = new Promise<Buffer>((resolve, reject) =>
            crypto.pbkdf2(passphrase, salt, KDF_ROUNDS, 32, "sha256", (err, k) => (err ? reject(err) : resolve(k))),
        );
        keyCache.set(cacheKey, key);
    }
    return key;
}

function seal(key: Buffer, plaintext: string): string {
    const nonce = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv("aes-256-gcm", key, nonce);
    const ct = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()]);
    return `v1:${nonce.toString("base64")}:${ct.toString("base64")}`;
}

function open(key: Buffer, sealed: string): string {
    const parts = sealed.split(":");
    if (parts.length !== 3 || parts[0] !== "v1") {
        throw new Error("malformed ciphertext");
    }
    const nonce = Buffer.from(parts[1] ?? "", "base64");
    const data = Buffer.from(parts[2] ?? "", "base64");
    if (data.length < 16) {
        throw new Error("malformed ciphertext");
    }
    const decipher = crypto.createDecipheriv("aes-256-gcm", key, nonce);
    decipher.setAuthTag(data.subarray(data.length - 16));
    return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString("utf8");
}

export class PassphraseCrypter {
    private constructor(
        private readonly key: Buffer,
        /** The salt text to store with the state. */
        public readonly salt: string,
    ) {}

    /** A crypter for an existing salt (verifying the passphrase), or a fresh salt when none is given. */
    static async create(passphrase: string, salt?: string): Promise<PassphraseCrypter> {
        if (salt === undefined) {
            const raw = crypto.randomBytes(8);
            const key = await deriveKey(passphrase, raw);
            return new PassphraseCrypter(key, `v1:${raw.toString("base64")}:${seal(key, CHECK_TEXT)}`);
        }
        const parts = salt.split(":");
        if (parts.length !== 5 || parts[0] !== "v1") {
            throw new Error("malformed encryption salt in state file");
        }
        const key = await deriveKey(passphrase, Buffer.from(parts[1] ?? "", "base64"));
        let check: string;
        try {
            check = open(key, parts.slice(2).join(":"));
        } catch {
            throw new Error("incorrect passphrase: cannot decrypt the secrets in the state file");
        }
        if (check !== CHECK_TEXT) {
            throw new Error("incorrect passphrase: cannot decrypt the secrets in the state file");
        }
        return new PassphraseCrypter(key, salt);
    }

    encrypt(plaintext: string): string {
        return seal(this.key, plaintext);
    }

    decrypt(ciphertext: string): string {
        return open(this.key, ciphertext);
    }

    /** Replaces every secret `{sig, value}` with `{sig, ciphertext}` (nested secrets collapse into the outer one). */
    encryptValue(v: PropertyValue): PropertyValue {
        if (isSecret(v)) {
            return { [SIG_KEY]: SECRET_SIG, ciphertext: this.encrypt(JSON.stringify(stripSecrets(v.value))) };
        }
        if (Array.isArray(v)) {
            return v.map((x) => this.encryptValue(x));
        }
        if (typeof v === "object" && v !== null) {
            const out: PropertyMap = {};
            for (const [k, x] of Object.entries(v)) {
                out[k] = this.encryptValue(x);
            }
            return out;
        }
        return v;
    }

    /** The inverse of encryptValue: `{sig, ciphertext}` back to `{sig, value}`. */
    decryptValue(v: PropertyValue): PropertyValue {
        if (Array.isArray(v)) {
            return v.map((x) => this.decryptValue(x));
        }
        if (typeof v === "object" && v !== null) {
            if (v[SIG_KEY] === SECRET_SIG && typeof v["ciphertext"] === "string") {
                return { [SIG_KEY]: SECRET_SIG, value: JSON.parse(this.decrypt(v["ciphertext"])) as PropertyValue };
            }
            const out: PropertyMap = {};
            for (const [k, x] of Object.entries(v)) {
                out[k] = this.decryptValue(x);
            }
            return out;
        }
        return v;
    }

    encryptMap(m: PropertyMap): PropertyMap {
        return this.encryptValue(m) as PropertyMap;
    }

    decryptMap(m: PropertyMap): PropertyMap {
        return this.decryptValue(m) as PropertyMap;
    }
}
