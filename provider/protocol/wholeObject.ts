// For resources a whole PUT replaces: every argument is managed, an omitted one is its default,
// and write-only ones are kept as the program set them. What the definition does not name is no output.

import type { Found } from "./behaviour";
import {
  comparedForm,
  fromWire,
  namesWith,
  outputNames,
  outputRules,
  type ArgsOf,
  type ResourceDefinition,
  type StateOf,
} from "./definition";
import { deepEqual, diffProperties, type Diff } from "./diff";
import { namedOnly } from "./keptFields";
import { outputsFrom } from "./outputRules";
import { previewOutputs } from "./preview";
import { pick, type Values } from "./properties";

export interface WholeObject<D extends ResourceDefinition> {
  readonly args: readonly string[];
  /** `kept`: the program's arguments after a write, the stored outputs after a read. */
  outputs(answer: Values | undefined, kept: Partial<StateOf<D>>, stored: StateOf<D>): StateOf<D>;
  /** Neither write-only nor at their default. */
  inputs(outputs: StateOf<D>): Found<D>["inputs"];
  diff(olds: StateOf<D>, news: ArgsOf<D>): Diff;
  previewCreate(args: ArgsOf<D>): StateOf<D>;
  previewUpdate(olds: StateOf<D>, news: ArgsOf<D>): StateOf<D>;
}

/** `writeOnly` may depend on the object's values (an incidentio body). */
export function wholeObject<D extends ResourceDefinition>(
  def: D,
  writeOnly: (name: string, values: Values) => boolean,
): WholeObject<D> {
  const outputs: readonly string[] = outputNames(def);
  const args = outputs.filter((n) => def.properties[n]?.role === "both");
  const serviceOutputs = outputs.filter((n) => !args.includes(n));
  const stable = namesWith(def, "stable");
  const replaces = namesWith(def, "replaces");
  const rules = outputRules(def);
  const compared = comparedForm(def);
  const byPath = namesWith(def, "diffByPath");
  // Built over plain values: a generic D hides that they are D's own.
  const state = (values: Values) => values as StateOf<D>;
  const found = (values: Values) => values as Found<D>["inputs"];
  return {
    args,
    outputs(answer, kept: Values, stored: Values) {
      // An empty 2xx tells nothing new.
      if (answer === undefined) return state({ ...pick(stored, serviceOutputs), ...pick(kept, args) });
      const out: Record<string, unknown> = outputsFrom(rules, outputs, namedOnly(def, fromWire(def, answer, "drop")), {
        program: kept,
        stored,
      });
      for (const n of args) {
        if (!writeOnly(n, kept)) continue;
        if (kept[n] === undefined || kept[n] === null) delete out[n];
        else out[n] = kept[n];
      }
      return state(out);
    },
    inputs(outs: Values) {
      const live = args.filter((n) => !writeOnly(n, outs) && !deepEqual(compared(n, outs[n]), compared(n, undefined)));
      return found(pick(outs, live));
    },
    diff: (olds, news) => diffProperties(olds, news, args, replaces, compared, stable, byPath),
    previewCreate: (a: Values) => state(previewOutputs(pick(a, args), serviceOutputs)),
    previewUpdate: (olds: Values, news: Values) =>
      state(previewOutputs({ ...pick(olds, stable), ...pick(news, args) }, serviceOutputs)),
  };
}
