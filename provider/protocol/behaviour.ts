// The typed core every resource implements once for both front doors: its definition, and its
// verbs over the arguments and state the definition types. Each door translates to its protocol.

import type { Checked } from "./check";
import type { ArgsOf, ResourceDefinition, StateOf } from "./definition";
import type { Diff } from "./diff";
import type { RawInputs } from "./properties";

export interface Created<S> {
  readonly id: string;
  readonly outputs: S;
}

/**
 * What a read found: the outputs, and the inputs as the live object holds what the program manages
 * (null where it holds none, even of an argument the program must set).
 */
export interface Found<D extends ResourceDefinition> {
  readonly id: string;
  readonly outputs: StateOf<D>;
  readonly inputs: { readonly [K in keyof ArgsOf<D>]?: ArgsOf<D>[K] | null };
}

export interface Behaviour<D extends ResourceDefinition> {
  readonly definition: D;
  /** The program's inputs against the definition, before any request; `olds`, the inputs stored, if any. */
  check(olds: RawInputs, news: RawInputs): Promise<Checked<ArgsOf<D>>>;
  diff(id: string, olds: StateOf<D>, news: ArgsOf<D>): Promise<Diff>;
  create(args: ArgsOf<D>): Promise<Created<StateOf<D>>>;
  /** Undefined when the object is gone. */
  read(id: string, stored: StateOf<D>): Promise<Found<D> | undefined>;
  /** An import: the id alone names the object. */
  readImported(importId: string): Promise<Found<D> | undefined>;
  update(id: string, olds: StateOf<D>, news: ArgsOf<D>): Promise<StateOf<D>>;
  delete(id: string, stored: StateOf<D>): Promise<void>;
  /** What a create will record, as a preview knows it (unknown where the service decides). */
  previewCreate(args: ArgsOf<D>): StateOf<D>;
  previewUpdate(id: string, olds: StateOf<D>, news: ArgsOf<D>): StateOf<D>;
}

/** A resource's behaviour: its definition and its verbs, their types read from the definition. */
export function behaviourOf<D extends ResourceDefinition>(
  definition: D,
  verbs: Omit<Behaviour<D>, "definition">,
): Behaviour<D> {
  return { definition, ...verbs };
}
