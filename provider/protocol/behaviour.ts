// The typed core each resource implements once; each front door translates it to its protocol.

import type { Checked } from "./check";
import type { ArgsOf, ResourceDefinition, StateOf } from "./definition";
import type { Diff } from "./diff";
import type { RawInputs } from "./properties";

export interface Created<S> {
  readonly id: string;
  readonly outputs: S;
}

/** Inputs: the live values of what the program manages; null where none, even for a required one. */
export interface Found<D extends ResourceDefinition> {
  readonly id: string;
  readonly outputs: StateOf<D>;
  readonly inputs: { readonly [K in keyof ArgsOf<D>]?: ArgsOf<D>[K] | null };
}

export interface Behaviour<D extends ResourceDefinition> {
  readonly definition: D;
  /** Before any request; untyped values enter here. */
  check(olds: RawInputs, news: RawInputs): Promise<Checked<ArgsOf<D>>>;
  diff(id: string, olds: StateOf<D>, news: ArgsOf<D>): Promise<Diff>;
  create(args: ArgsOf<D>): Promise<Created<StateOf<D>>>;
  /** Undefined when the object is gone. */
  read(id: string, stored: StateOf<D>): Promise<Found<D> | undefined>;
  readImported(importId: string): Promise<Found<D> | undefined>;
  update(id: string, olds: StateOf<D>, news: ArgsOf<D>): Promise<StateOf<D>>;
  delete(id: string, stored: StateOf<D>): Promise<void>;
  /** Unknown where the service decides. */
  previewCreate(args: ArgsOf<D>): StateOf<D>;
  previewUpdate(id: string, olds: StateOf<D>, news: ArgsOf<D>): StateOf<D>;
}

export function behaviourOf<D extends ResourceDefinition>(
  definition: D,
  verbs: Omit<Behaviour<D>, "definition">,
): Behaviour<D> {
  return { definition, ...verbs };
}
