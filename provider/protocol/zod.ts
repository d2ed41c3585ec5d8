// The one zod provider/ loads (a test holds it), and only the builders it uses: the build bundles
// this file alone, without zod's other parts or languages (scripts/bundleZod.ts), for a short first
// call; same messages. A builder not listed here fails the type check where it is used.

import * as zod from "zod";

export const z = {
  array: zod.array,
  boolean: zod.boolean,
  custom: zod.custom,
  enum: zod.enum,
  iso: { datetime: zod.iso.datetime },
  literal: zod.literal,
  looseObject: zod.looseObject,
  null: zod.null,
  number: zod.number,
  object: zod.object,
  record: zod.record,
  strictObject: zod.strictObject,
  string: zod.string,
  undefined: zod.undefined,
  union: zod.union,
  unknown: zod.unknown,
};

/** The types provider/ names, as `z.<Type>`: a namespace of types only, so nothing of it is emitted. */
/* eslint-disable @typescript-eslint/no-namespace */
export declare namespace z {
  export type ZodType<Output = unknown, Input = unknown> = zod.ZodType<Output, Input>;
  export type ZodString = zod.ZodString;
  export type ZodNumber = zod.ZodNumber;
  export type ZodEnum<T extends zod.core.util.EnumLike = zod.core.util.EnumLike> = zod.ZodEnum<T>;
  export type infer<T> = zod.infer<T>;
  export namespace core {
    export type $ZodLooseShape = zod.core.$ZodLooseShape;
  }
}
/* eslint-enable @typescript-eslint/no-namespace */
