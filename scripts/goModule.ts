// The Go SDK (sdk/go) as the module a `go get <module>@v<version>` resolves once the tag
// `sdk/go/v<version>` is pushed: the three files a module proxy serves for a version, in the layout
// of a `file://` GOPROXY (<proxy>/<module>/@v/{list, v<version>.info, .mod, .zip}; see
// https://go.dev/ref/mod#goproxy-protocol). The zip holds every file of the module's folder under
// `<module>@v<version>/`, and the repository's LICENSE as Go adds it to a module in a subfolder that
// has none (https://go.dev/ref/mod#zip-files). Entries are deflated with fixed times, so the same
// tree gives the same bytes; Go checks a module by the hash of its files' contents (go.sum's h1:).

import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { crc32, deflateRawSync } from "node:zlib";

export interface GoModule {
  /** The module path, e.g. github.com/alertpipe/pulumi-alertpipe/sdk/go. */
  readonly path: string;
  /** With its v: v0.2.0. */
  readonly version: string;
  /** The proxy folder, to be named as GOPROXY=file://<proxy>. */
  readonly proxy: string;
  /** The list, .info, .mod and zip written. */
  readonly files: readonly string[];
  /** The two lines go.sum holds for this version (the files' h1: hash, the go.mod's). */
  readonly goSum: string;
}

/** Files under `dir`, relative, with `/`, sorted; a subfolder holding its own go.mod is another module and left out. */
function moduleFiles(dir: string, top: string = dir): string[] {
  return readdirSync(dir)
    .flatMap((name) => {
      const path = join(dir, name);
      if (!statSync(path).isDirectory()) return [relative(top, path).split(sep).join("/")];
      if (name === "vendor" || name.startsWith(".") || existsSync(join(path, "go.mod"))) return [];
      return moduleFiles(path, top);
    })
    .sort();
}

/** Go's dirhash.Hash1 over `name -> bytes`: what go.sum records as `h1:` for the module. */
function hash1(entries: ReadonlyMap<string, Buffer>): string {
  const summary = [...entries.keys()]
    .sort()
    .map(
      (name) =>
        `${createHash("sha256")
          .update(entries.get(name) as Buffer)
          .digest("hex")}  ${name}\n`,
    )
    .join("");
  return `h1:${createHash("sha256").update(summary).digest("base64")}`;
}

/** A zip of deflated entries, each dated 1980-01-01 (DOS time 0 is invalid; day 1 of January 1980). */
function zip(entries: ReadonlyMap<string, Buffer>): Buffer {
  const DOS_DATE = (0 << 9) | (1 << 5) | 1;
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, data] of entries) {
    const nameBytes = Buffer.from(name, "utf8");
    const packed = deflateRawSync(data);
    const crc = crc32(data);
    // The fields a local header and its central directory entry share, at their offsets in each.
    const shared = (header: Buffer, at: number): void => {
      header.writeUInt16LE(20, at); // version needed: 2.0 (deflate)
      header.writeUInt16LE(0x0800, at + 2); // UTF-8 names
      header.writeUInt16LE(8, at + 4); // deflate
      header.writeUInt16LE(0, at + 6);
      header.writeUInt16LE(DOS_DATE, at + 8);
      header.writeUInt32LE(crc, at + 10);
      header.writeUInt32LE(packed.length, at + 14);
      header.writeUInt32LE(data.length, at + 18);
      header.writeUInt16LE(nameBytes.length, at + 22);
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    shared(local, 4);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by: Unix, 2.0
    shared(central, 6);
    central.writeUInt32LE((0o100644 << 16) >>> 0, 38); // a regular file, rw-r--r--
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, packed);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.size, 8);
  end.writeUInt16LE(entries.size, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/**
 * Writes the module in `moduleDir` (its go.mod names its path) at `version` into the proxy folder
 * `proxy`; `license` is added at the module's root when the folder has no LICENSE; `time` is the
 * version's time in the .info (the release commit's).
 */
export function writeGoModule(options: {
  moduleDir: string;
  version: string;
  proxy: string;
  license: string;
  time: Date;
}): GoModule {
  const goMod = readFileSync(join(options.moduleDir, "go.mod"));
  const path = /^module\s+(\S+)\s*$/m.exec(goMod.toString("utf8"))?.[1];
  if (path === undefined) throw new Error(`${options.moduleDir}/go.mod names no module`);
  const version = options.version.startsWith("v") ? options.version : `v${options.version}`;
  const prefix = `${path}@${version}/`;
  const files = moduleFiles(options.moduleDir);
  const entries = new Map<string, Buffer>(files.map((f) => [prefix + f, readFileSync(join(options.moduleDir, f))]));
  if (!files.includes("LICENSE")) entries.set(`${prefix}LICENSE`, readFileSync(options.license));
  const sorted = new Map([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

  // Upper-case letters in a module path are escaped as !lower (module.EscapePath).
  const folder = join(options.proxy, ...path.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`).split("/"), "@v");
  mkdirSync(folder, { recursive: true });
  const written = {
    list: join(folder, "list"),
    info: join(folder, `${version}.info`),
    mod: join(folder, `${version}.mod`),
    zip: join(folder, `${version}.zip`),
  };
  writeFileSync(written.list, `${version}\n`);
  writeFileSync(written.info, `${JSON.stringify({ Version: version, Time: options.time.toISOString() })}\n`);
  writeFileSync(written.mod, goMod);
  writeFileSync(written.zip, zip(sorted));
  return {
    path,
    version,
    proxy: options.proxy,
    files: [written.list, written.info, written.mod, written.zip],
    goSum: `${path} ${version} ${hash1(sorted)}\n${path} ${version}/go.mod ${hash1(new Map([["go.mod", goMod]]))}\n`,
  };
}
